export type { FlowGraph } from './flow-graph';
