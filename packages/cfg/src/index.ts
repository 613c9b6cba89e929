export { EdgeKind, edgeKindName, isExceptionalKind } from './edge-kind';
export type { EdgeSite, EdgeSiteType } from './edge-site';
export type {
  BlockInfo,
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
export { findCfgRoots, type CfgRoot } from './cfg-roots';
export { buildCfg, buildFileCfgs, parseSource } from './build';
export { CfgError } from './cfg-error';
export { formatArrows } from './format-arrows';
export { formatDot } from './format-dot';
