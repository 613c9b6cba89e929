export { EdgeKind, edgeKindName, isExceptionalKind, isSilentKind } from './edge-kind';
export type { OpaqueDefault } from './pattern-defaults';
export type { EdgeSite, EdgeSiteType } from './edge-site';
export type {
  BlockInfo,
  CfgCall,
  CfgCallSite,
  CfgRootKind,
  Completion,
  ControlFlowGraph,
  EdgeInfo,
  FinallyRegion,
  HandlerEntry,
  IterationExit,
  Position,
  SourceRange,
} from './control-flow-graph';
export { ENTRY, EXIT } from './graph-builder';
export type { CfgRoot } from './cfg-roots';
export type { CfgBuildOptions } from './cfg-builder';
export { findCfgRoots, scanProgram, type ProgramScan } from './program-scan';
export {
  buildCfg,
  buildFileCfgs,
  buildInstrumentedCfgs,
  enteredOnlyBySplitCalls,
  enteredOnlyThrough,
  handOffCalls,
  refusedHandOffs,
  type HandOffCall,
  type RefusedHandOff,
  lowerForDecisions,
  parseSource,
  programPathOf,
  splitCallsFor,
} from './build';
export { CfgError } from './cfg-error';
export {
  readUnsplitCalls,
  unsplitCallRecords,
  UNSPLIT_CALL_STRIDE,
  type UnsplitCall,
  type UnsplitReason,
} from './unsplit-calls';
export { nonThrowingCode } from './non-throwing-code';
export { findCallTargets, acceptsHandOff, type CallTargets, type RefusalReason } from './call-targets';
export type { ProgramPoint, ProgramPoints } from './program-point';
export { formatArrows } from './format-arrows';
export { formatDot } from './format-dot';
export type { EdgeCodePlan, FunctionLocals, ParameterState, Suspension } from './edge-code-plan';
export { hasExceptionalExit } from './edge-code-plan';
export { visitOwnCode, suspensionPoints, type SuspensionPoints } from './own-code';
export { insertEdgeCode, canInstrument } from './insert-edge-code';
export { TraceRecorder, TRACE_GLOBAL, type TraceEvent } from './trace/trace-recorder';
export { TracePlan } from './trace/trace-plan';
export { instrumentForTrace, type TracedSource } from './trace/instrument-for-trace';
export { checkTrace, TraceReplay, type TracedActivation } from './trace/trace-oracle';
export { validateCfg } from './validate-cfg';
export { freshNamesAvoiding, freshNamesFor, type FreshName } from './fresh-names';
export { unlikelyEdges } from './branch-hints';
export {
  assignmentExpression,
  binaryExpression,
  blockStatement,
  booleanLiteral,
  callExpression,
  conditionalExpression,
  expressionStatement,
  identifier,
  logicalExpression,
  memberExpression,
  nullLiteral,
  numericLiteral,
  sequenceExpression,
  stringLiteral,
  unaryExpression,
  updateExpression,
  variableDeclaration,
  variableDeclarator,
} from './emitted-nodes';
export { stableConditionValues } from './stable-values';
export { correlatedConditions, type CorrelatedConditions } from './correlated-conditions';
