/**
 * Compressed sparse rows: the edges incident to each node, as one flat array of edge ids plus an offset per node.
 * The edges of node `v` are `edges[start[v] .. start[v + 1] - 1]`, in increasing edge id, which fixes every
 * traversal order that depends on it (DFS, placement work lists) without a sort.
 */
export interface Csr {
  readonly start: Int32Array;
  readonly edges: Int32Array;
}

/**
 * Groups `edgeCount` edges by `endpoint[e]` (the source for out-edges, the target for in-edges) with a counting
 * sort, which is stable, so ids stay increasing within each node.
 */
export function buildCsr(nodeCount: number, edgeCount: number, endpoint: ArrayLike<number>): Csr {
  const start = new Int32Array(nodeCount + 1);
  for (let e = 0; e < edgeCount; e++) start[endpoint[e] + 1]++;
  for (let v = 0; v < nodeCount; v++) start[v + 1] += start[v];
  const next = start.slice(0, nodeCount);
  const edges = new Int32Array(edgeCount);
  for (let e = 0; e < edgeCount; e++) edges[next[endpoint[e]]++] = e;
  return { start, edges };
}
