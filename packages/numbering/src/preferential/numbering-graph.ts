import type { FlowGraph } from '../flow-graph';
import type { PathNumbering } from '../number-paths';

/** The original graph a Ball-Larus numbering carries, in the engine's typed form. */
export function numberingGraph(numbering: PathNumbering): FlowGraph {
  return {
    blockCount: numbering.blockCount,
    entry: numbering.entry,
    exit: numbering.exit,
    edgeCount: numbering.edgeCount,
    edgeSrc: Int32Array.from(numbering.edgeSrc),
    edgeDst: Int32Array.from(numbering.edgeDst),
    edgeExceptional: Uint8Array.from(numbering.edgeExceptional),
  };
}
