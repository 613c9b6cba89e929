/**
 * A graph for event counting (Ball's thesis, chapter 4): it contains the non-executable `EXIT→root` edge, so an
 * execution root…EXIT plus that edge is a cycle, and a spanning tree of it.
 */
export interface EventGraph {
  readonly nodeCount: number;
  readonly edgeCount: number;
  readonly src: ArrayLike<number>;
  readonly dst: ArrayLike<number>;
  readonly root: number;
  /** 1 for tree edges, 0 for chords. */
  readonly inTree: ArrayLike<number>;
}

/** Events to count: a constant per edge (Ball-Larus's `Val`) and/or per vertex (instructions of a block). */
export interface Events {
  readonly edge?: ArrayLike<number>;
  readonly vertex?: ArrayLike<number>;
}

export interface EventIncrements {
  /** Per edge: what a chord adds to the counter when taken; 0 on tree edges, which carry no code. */
  readonly increment: Float64Array;
  /**
   * Per vertex: after any partial execution root…v, `counter + queryIncrement[v]` is the exact number of events
   * so far, `v`'s own vertex events included (the increment of a virtual chord `v→root`, thesis §4.2.5).
   */
  readonly queryIncrement: Float64Array;
}

/**
 * Chord increments and query increments in linear time. The thesis computes `Inc(c)` as the signed sum of event
 * values around the fundamental cycle of chord `c` (its Figure 4.4 walks the tree once for all chords). The same
 * numbers come from potentials: walk the tree from the root with `pot(root) = 0` and `pot(w) = pot(u) + value(e)`
 * across each tree edge `e = u→w` (minus when crossed backwards); then `Inc(e) = value(e) + pot(src) - pot(dst)`,
 * which is 0 on every tree edge and telescopes along any cycle to the cycle's signed value sum. An edge's value
 * is its edge events plus the vertex events of its source, so an execution root…EXIT plus `EXIT→root` collects
 * every vertex's events exactly once.
 */
export function eventIncrements(graph: EventGraph, events: Events): EventIncrements {
  const { nodeCount, edgeCount, src, dst, root, inTree } = graph;
  const value = (e: number): number => (events.edge?.[e] ?? 0) + (events.vertex?.[src[e]] ?? 0);
  // Incident tree edges per node, as compressed rows.
  const start = new Int32Array(nodeCount + 1);
  for (let e = 0; e < edgeCount; e++) {
    if (inTree[e] !== 1) continue;
    start[src[e] + 1]++;
    start[dst[e] + 1]++;
  }
  for (let v = 0; v < nodeCount; v++) start[v + 1] += start[v];
  const next = start.slice(0, nodeCount);
  const incident = new Int32Array(start[nodeCount]);
  for (let e = 0; e < edgeCount; e++) {
    if (inTree[e] !== 1) continue;
    incident[next[src[e]]++] = e;
    incident[next[dst[e]]++] = e;
  }
  const potential = new Float64Array(nodeCount);
  const visited = new Uint8Array(nodeCount);
  const queue = new Int32Array(nodeCount);
  let head = 0;
  let tail = 0;
  queue[tail++] = root;
  visited[root] = 1;
  while (head < tail) {
    const u = queue[head++];
    for (let i = start[u]; i < start[u + 1]; i++) {
      const e = incident[i];
      const forward = src[e] === u;
      const w = forward ? dst[e] : src[e];
      if (visited[w] === 1) continue;
      visited[w] = 1;
      potential[w] = forward ? potential[u] + value(e) : potential[u] - value(e);
      queue[tail++] = w;
    }
  }
  if (tail !== nodeCount) throw new Error(`internal: the tree reaches ${tail} of ${nodeCount} vertices`);
  const increment = new Float64Array(edgeCount);
  for (let e = 0; e < edgeCount; e++) {
    if (inTree[e] !== 1) increment[e] = value(e) + potential[src[e]] - potential[dst[e]];
  }
  const queryIncrement = new Float64Array(nodeCount);
  for (let v = 0; v < nodeCount; v++) queryIncrement[v] = potential[v] + (events.vertex?.[v] ?? 0);
  return { increment, queryIncrement };
}
