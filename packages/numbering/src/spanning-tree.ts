import { NumberingError } from './numbering-error';
import { UnionFind } from './union-find';

/** An edge list for the spanning tree: direction is ignored, parallel edges and self-loops are allowed. */
export interface WeightedEdges {
  readonly nodeCount: number;
  readonly edgeCount: number;
  readonly src: ArrayLike<number>;
  readonly dst: ArrayLike<number>;
  /** Estimated execution frequency: heavy edges go into the tree, so the instrumented chords are the light ones. */
  readonly weight: ArrayLike<number>;
  /** 1 for edges that must be tree edges (EXIT→ENTRY, exceptional edges); they must form a forest. */
  readonly forced: ArrayLike<number>;
  /** Names the edges in the error raised when the forced edges contain a cycle. */
  readonly describe?: (edge: number) => string;
}

/**
 * Kruskal's maximum spanning tree over edge ids (not block pairs, so parallel edges stay distinct): the forced
 * edges first, then the others by decreasing weight, ties by increasing id, so the tree is a function of the
 * input alone. Returns 1 per tree edge; the rest are chords. A self-loop is always a chord.
 */
export function maximumSpanningTree(edges: WeightedEdges): Uint8Array {
  const { nodeCount, edgeCount, src, dst, weight, forced } = edges;
  const inTree = new Uint8Array(edgeCount);
  const sets = new UnionFind(nodeCount);
  let candidateCount = 0;
  for (let e = 0; e < edgeCount; e++) {
    if (forced[e] !== 1) {
      candidateCount++;
      continue;
    }
    if (!sets.union(src[e], dst[e])) {
      const name = edges.describe?.(e) ?? `edge ${e} (${src[e]}→${dst[e]})`;
      throw new NumberingError(
        'forced-edges-cycle',
        `the forced tree edges contain a cycle closed by ${name}`,
      );
    }
    inTree[e] = 1;
  }
  const candidates = new Int32Array(candidateCount);
  for (let e = 0, k = 0; e < edgeCount; e++) if (forced[e] !== 1) candidates[k++] = e;
  candidates.sort((a, b) => weight[b] - weight[a] || a - b);
  for (const e of candidates) if (sets.union(src[e], dst[e])) inTree[e] = 1;
  return inTree;
}
