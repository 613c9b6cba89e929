import type { FlowGraph } from '@pathprof/numbering';
import type { Random } from '@pathprof/testkit';

/** Routes through a graph: random executions, and shortest connections for building walks on purpose. */
export class GraphRoutes {
  private readonly outEdges: number[][];
  /** Per block: an out-edge on a shortest route to the exit. */
  private readonly towardsExit: Int32Array;
  /** Per block: the in-edge by which a shortest route from the entry arrives. */
  private readonly fromEntry: Int32Array;

  constructor(readonly graph: FlowGraph) {
    const { blockCount, edgeCount, edgeSrc, edgeDst } = graph;
    this.outEdges = Array.from({ length: blockCount }, () => []);
    const inEdges: number[][] = Array.from({ length: blockCount }, () => []);
    for (let e = 0; e < edgeCount; e++) {
      this.outEdges[edgeSrc[e]].push(e);
      inEdges[edgeDst[e]].push(e);
    }
    this.towardsExit = breadthFirst(blockCount, graph.exit, inEdges, edgeSrc);
    this.fromEntry = breadthFirst(blockCount, graph.entry, this.outEdges, edgeDst);
  }

  /** A shortest edge sequence from the entry to `block`. */
  fromEntryTo(block: number): number[] {
    const route: number[] = [];
    for (let v = block; v !== this.graph.entry; v = this.graph.edgeSrc[this.fromEntry[v]])
      route.push(this.fromEntry[v]);
    return route.reverse();
  }

  /** A shortest edge sequence from `block` to the exit. */
  toExitFrom(block: number): number[] {
    const route: number[] = [];
    for (let v = block; v !== this.graph.exit; v = this.graph.edgeDst[this.towardsExit[v]]) {
      route.push(this.towardsExit[v]);
    }
    return route;
  }

  /**
   * A random execution from the entry: uniform among normal out-edges, an exceptional one with probability
   * `throwChance`; after `wander` steps it heads for the exit. With `abandonChance` it stops on the way, as an
   * activation that never finishes; `abandonedAt` is then the block it stopped in.
   */
  walk(
    rng: Random,
    wander: number,
    throwChance = 0.1,
    abandonChance = 0,
  ): { edges: number[]; abandonedAt: number } {
    const { exit, edgeExceptional, edgeDst } = this.graph;
    const edges: number[] = [];
    let v = this.graph.entry;
    while (v !== exit) {
      if (rng.chance(abandonChance)) return { edges, abandonedAt: v };
      let e: number;
      if (edges.length >= wander) e = this.towardsExit[v];
      else {
        const out = this.outEdges[v];
        const normal = out.filter((x) => edgeExceptional[x] === 0);
        const exceptional = out.filter((x) => edgeExceptional[x] === 1);
        e =
          exceptional.length > 0 && (normal.length === 0 || rng.chance(throwChance))
            ? exceptional[0]
            : rng.pick(normal);
      }
      edges.push(e);
      v = edgeDst[e];
    }
    return { edges, abandonedAt: -1 };
  }
}

/** Per block, the edge by which a breadth-first search from `root` over `adjacency` (to `far[e]`) reached it. */
function breadthFirst(blockCount: number, root: number, adjacency: number[][], far: Int32Array): Int32Array {
  const via = new Int32Array(blockCount).fill(-1);
  const seen = new Uint8Array(blockCount);
  const queue = [root];
  seen[root] = 1;
  for (let head = 0; head < queue.length; head++) {
    for (const e of adjacency[queue[head]]) {
      const w = far[e];
      if (seen[w] === 0) {
        seen[w] = 1;
        via[w] = e;
        queue.push(w);
      }
    }
  }
  return via;
}
