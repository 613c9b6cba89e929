import type { FlowGraph } from '../flow-graph';
import type { PathNumbering } from '../number-paths';

/**
 * The original graph a Ball-Larus numbering carries, in the engine's typed form: silent edges included, so that
 * the PPP register is placed on the same codeless edges, hence the same chords, as the Ball-Larus one.
 */
export function numberingGraph(numbering: PathNumbering): FlowGraph {
  return {
    blockCount: numbering.blockCount,
    entry: numbering.entry,
    exit: numbering.exit,
    edgeCount: numbering.edgeCount,
    edgeSrc: Int32Array.from(numbering.edgeSrc),
    edgeDst: Int32Array.from(numbering.edgeDst),
    edgeExceptional: Uint8Array.from(numbering.edgeExceptional),
    edgeSilent: Uint8Array.from(numbering.edgeSilent),
  };
}
