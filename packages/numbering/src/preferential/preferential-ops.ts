import { buildDag } from '../dag';
import { eventIncrements } from '../increments';
import type { PathNumbering } from '../number-paths';
import { BACKEDGE, CUT } from '../path-budget';
import type { PathOp } from '../path-op';
import { placeDagOps } from '../placement';
import { numberingGraph } from './numbering-graph';

/**
 * Places the PPP register's ops with the Ball-Larus numbering's own spanning tree (the paper keeps both
 * counters on the same edges): event counting turns the PPP weights (⊥ as 0, which only uninteresting paths
 * see) into chord increments, and Ball-Larus Figure 8 placement, run on the same tree, puts its sets and
 * counts exactly where the Ball-Larus register has its own. A removed edge runs its `v→EXIT` ops, then
 * those of `ENTRY→w`, as for Ball-Larus.
 */
export function preferentialOps(
  numbering: PathNumbering,
  weight: readonly (number | null)[],
): { prologue: readonly PathOp[]; edgeOps: PathOp[][] } {
  const graph = numberingGraph(numbering);
  const removed = new Uint8Array(graph.edgeCount);
  for (const { edge, kind } of numbering.removedEdges) removed[edge] = kind === 'backedge' ? BACKEDGE : CUT;
  const dag = buildDag(graph, removed);
  const rootEdge = dag.edgeCount;
  const src = Int32Array.from({ length: rootEdge + 1 }, (_, d) => (d === rootEdge ? dag.exit : dag.src[d]));
  const dst = Int32Array.from({ length: rootEdge + 1 }, (_, d) => (d === rootEdge ? dag.entry : dag.dst[d]));
  const inTree = Uint8Array.from({ length: rootEdge + 1 }, (_, d) =>
    d === rootEdge ? 1 : 1 - numbering.dag.chord[d],
  );
  const { increment } = eventIncrements(
    { nodeCount: dag.nodeCount, edgeCount: rootEdge + 1, src, dst, root: dag.entry, inTree },
    { edge: Float64Array.from({ length: rootEdge + 1 }, (_, d) => weight[d] ?? 0) },
  );
  const dagOps = placeDagOps(dag, inTree, increment, numbering.placement);
  const edgeOps = Array.from({ length: graph.edgeCount }, (_, e) =>
    dag.realEdgeOf[e] >= 0
      ? dagOps[dag.realEdgeOf[e]]
      : [...dagOps[dag.exitDummyOf[e]], ...dagOps[dag.entryDummyOf[graph.edgeDst[e]]]],
  );
  return { prologue: numbering.prologue, edgeOps };
}
