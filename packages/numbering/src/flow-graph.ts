/**
 * The graph the numbering engine works on: the shape `@pathprof/cfg` produces, without any Babel types.
 *
 * Blocks are `0 .. blockCount-1`; edges are `0 .. edgeCount-1` and have their own identity, so two edges
 * may join the same pair of blocks (parallel edges) and an edge may join a block to itself (self-loop).
 * The graph may contain cycles (loops, including irreducible ones); the engine finds backedges itself.
 *
 * Every block is reachable from `entry` and reaches `exit`; `entry` has no in-edges and `exit` no out-edges.
 */
export interface FlowGraph {
  readonly blockCount: number;
  readonly entry: number;
  readonly exit: number;
  readonly edgeCount: number;
  readonly edgeSrc: Int32Array;
  readonly edgeDst: Int32Array;
  /**
   * 1 where control takes the edge by an exception (implicit throw, explicit `throw`, a rejected `await`).
   * Such an edge has no code of its own: the instrumenter cannot tell which block threw. The engine therefore
   * forces exceptional edges into the spanning tree (increment 0), so the path register already holds the
   * right number when the exception leaves the block, and a count on an exceptional edge into `exit` is
   * executed by the function-level handler, so it is never hoisted onto an earlier edge.
   * Each block has at most one exceptional out-edge.
   */
  readonly edgeExceptional: Uint8Array;
  /**
   * 1 where no code can run on the edge although control takes it normally (a destructuring default that was
   * not used). Absent means none. Like exceptional edges, silent edges are forced into the spanning tree and
   * never cut; the graph must guarantee that code placed elsewhere still tells every path apart: a silent
   * edge's target cannot throw, so codeless edges never close a cycle (one that does is refused).
   */
  readonly edgeSilent?: Uint8Array;
}

/** The edges no code can run on: exceptional and silent ones. */
export function codelessEdges(graph: FlowGraph): Uint8Array {
  const codeless = Uint8Array.from(graph.edgeExceptional);
  const silent = graph.edgeSilent;
  if (silent) for (let e = 0; e < graph.edgeCount; e++) codeless[e] |= silent[e];
  return codeless;
}
