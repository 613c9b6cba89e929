export type { FlowGraph } from './flow-graph';
export { NumberingError, type NumberingErrorCode } from './numbering-error';
export type { PathOp } from './path-op';
export {
  numberPaths,
  DEFAULT_MAX_PATHS,
  DEFAULT_ARRAY_THRESHOLD,
  type NumberingOptions,
  type PathNumbering,
  type NumberedDag,
  type RemovedEdge,
  type OverflowReport,
} from './number-paths';
export { REAL_EDGE, ENTRY_DUMMY, EXIT_DUMMY } from './dag';
export type { CutRecord } from './path-budget';
export type { SuccessorOrder } from './path-count';
export type { PlacementMode } from './placement';
export { simplifyPathOps, type OpProgram, type SimplifiedPathOps } from './simplify-ops';
export { endsBeforeJoins, simplestPathOps } from './ends-before-joins';
export type { StorageDecision } from './storage';
export type { RegisterRange } from './register-range';
export { decodePath, PathDecoder, type DecodedPath, type PathStart, type PathEnd } from './decode';
export { edgeCountsFromPaths, blockCountsFromPaths, type PathCounts } from './path-profile';
export {
  planEdgeProfile,
  edgeProfileOps,
  deriveEdgeCounts,
  type EdgeProfileOptions,
  type EdgeProfilePlan,
  type DerivedEdgeCounts,
  type ConservationViolation,
} from './edge-profile';
export { staticEdgeWeights, LOOP_MULTIPLIER, UNLIKELY_ODDS } from './weights';
export { maximumSpanningTree, type WeightedEdges } from './spanning-tree';
export { eventIncrements, type EventGraph, type Events, type EventIncrements } from './increments';
export type { CallSite, Procedure, Program } from './interprocedural/program';
export type { HybridPolicy, CutReason } from './interprocedural/call-graph';
export type { LinearFunction } from './interprocedural/linear-function';
export { evaluate as evaluateLinear, formatLinear } from './interprocedural/linear-function';
export type { InterproceduralScheme, ProcedureDag, DagEdgeKind } from './interprocedural/procedure-dag';
export type { EntryPoint, ExitSuccessor, PathComponent } from './interprocedural/global-values';
export {
  countsByPathNumber,
  planComponentStorage,
  type ComponentStorage,
} from './interprocedural/component-storage';
export {
  numberInterproceduralPaths,
  type InterproceduralOptions,
  type InterproceduralNumbering,
  type NumberedProcedure,
  type NumberedCallSite,
} from './interprocedural/number-program';
export type {
  CallSiteRef,
  PathStep,
  SupergraphPath,
  SupergraphVertex,
} from './interprocedural/supergraph-path';
export { encodeInterproceduralPath } from './interprocedural/encode-path';
export { decodeInterproceduralPath, type DecodedInterproceduralPath } from './interprocedural/decode-path';
export { procedureCountsFromPaths, type ProcedureCounts } from './interprocedural/procedure-counts';
export type { ExecutionEvent } from './interprocedural/execution-trace';
export { referenceProfile } from './interprocedural/reference-profile';
export {
  fitInterproceduralNumbering,
  type FittedInterproceduralNumbering,
} from './interprocedural/fit-budget';
export type {
  InterproceduralOp,
  CallSitePlan,
  ProcedurePlan,
  InterproceduralPlan,
} from './interprocedural/instrumentation-plan';
export {
  planInterproceduralInstrumentation,
  type InterproceduralPlanOptions,
} from './interprocedural/placement';
export {
  numberIntraproceduralContext,
  decodeContextPath,
  type ContextPathOp,
  type ContextPathStep,
  type IntraproceduralContextNumbering,
  type DecodedContextPath,
} from './interprocedural/intraprocedural-context';
export {
  InterestingPathsError,
  type InterestingPaths,
  type InterestingPathsProblem,
} from './preferential/interesting-paths';
export {
  INTERESTING_SET_FORMAT,
  InterestingSetError,
  parseInterestingSet,
  formatInterestingSet,
  type InterestingSet,
  type InterestingFile,
  type InterestingFunction,
} from './preferential/interesting-set';
export {
  numberPreferentialPaths,
  type PreferentialTarget,
  type PreferentialOptions,
  type PreferentialNumbering,
} from './preferential/preferential-numbering';
export {
  classifyPreferentialPath,
  preferentialIdOf,
  decodePreferentialSlot,
  type PathClass,
} from './preferential/classify-path';
export type {
  ContextCallGraph,
  ContextCallSite,
  ContextCallEdge,
  ContextFrame,
} from './calling-context/context-call-graph';
export {
  numberContexts,
  DEFAULT_CONTEXT_BUDGET,
  type ContextNumbering,
  type ContextNumberingOptions,
  type ContextEdgeKind,
  type EncodedCallEdge,
} from './calling-context/number-contexts';
export { EncodingStack, type StackEntry, type StackRun } from './calling-context/encoding-stack';
export {
  ContextEncoder,
  callActions,
  type CallAction,
  type EncodedContext,
} from './calling-context/context-encoder';
export { decodeContext } from './calling-context/decode-context';
export {
  contextValues,
  fitContextValues,
  contextOfValue,
  type ContextValues,
} from './calling-context/context-values';
export {
  hybridEncoding,
  hybridEncode,
  hybridDecode,
  type HybridEncoding,
  type OffsetEdgeMode,
  type ImplicitContext,
  type OffsetEncodedContext,
} from './calling-context/stack-offsets';
export {
  countPathEnds,
  PathEnds,
  type PathEndCounts,
  type PathEndKind,
  type ExceptionOrigins,
  type PathsThrough,
} from './path-ends';
export { CorrelatedDecisions } from './correlated-decisions';
