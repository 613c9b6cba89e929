import type { PathNumbering } from '../number-paths';

/** The outcome of computePPPIncrements: a weight per DAG edge and an id per interesting path. */
export interface PreferentialWeights {
  /** Per DAG edge: its PPP weight, or null (⊥) when no interesting path takes it; may be negative. */
  readonly weight: readonly (number | null)[];
  /** Per interesting path (in input order): its PPP id, unique, in `[0, arraySize)`. */
  readonly ids: readonly number[];
  /** `cis` of the empty prefix at the entry: the smallest array that holds every interesting id. */
  readonly arraySize: number;
}

/**
 * Vaswani, Nori & Chilimbi, computePPPIncrements (their Fig. 10): vertices in reverse topological order, each
 * vertex's out-edges in Ball-Larus order (increasing `Val`, so that with every path interesting the weights
 * are Ball-Larus's). On each edge, every prefix of the interesting paths through it asks for the weight that
 * puts its interval right after the intervals already given to that prefix (`cis − min`); the edge takes the
 * largest (the join), which keeps the intervals of each prefix disjoint and leaves holes for the others.
 * A prefix is keyed by its last vertex and its Ball-Larus sum, unique among prefixes ending there.
 *
 * `paths` are the interesting paths as DAG edge lists; `order` is a topological order of the DAG's vertices.
 */
export function preferentialWeights(
  numbering: PathNumbering,
  order: Int32Array,
  paths: readonly (readonly number[])[],
): PreferentialWeights {
  const { dag } = numbering;
  const through: { path: number; prefix: string }[][] = Array.from({ length: dag.edgeCount }, () => []);
  paths.forEach((edges, path) => {
    let sum = 0;
    for (const e of edges) {
      through[e].push({ path, prefix: `${dag.src[e]}:${sum}` });
      sum += dag.val[e];
    }
  });
  const outEdges: number[][] = Array.from({ length: numbering.blockCount }, () => []);
  for (let e = 0; e < dag.edgeCount; e++) outEdges[dag.src[e]].push(e);
  for (const edges of outEdges) edges.sort((x, y) => dag.val[x] - dag.val[y] || x - y);

  const weight = new Array<number | null>(dag.edgeCount).fill(null);
  const id = new Array<number>(paths.length).fill(0);
  const cumulativeSize = new Map<string, number>();
  for (let i = order.length - 1; i >= 0; i--) {
    for (const e of outEdges[order[i]]) {
      if (through[e].length === 0) continue;
      const lowest = new Map<string, number>();
      for (const { path, prefix } of through[e])
        lowest.set(prefix, Math.min(lowest.get(prefix) ?? Infinity, id[path]));
      let w = -Infinity;
      for (const [prefix, low] of lowest) w = Math.max(w, (cumulativeSize.get(prefix) ?? 0) - low);
      weight[e] = w;
      const highest = new Map<string, number>();
      for (const { path, prefix } of through[e]) {
        id[path] += w;
        highest.set(prefix, Math.max(highest.get(prefix) ?? -Infinity, id[path]));
      }
      for (const [prefix, high] of highest) cumulativeSize.set(prefix, high + 1);
    }
  }
  const arraySize = cumulativeSize.get(`${numbering.entry}:0`) ?? 0;
  return { weight, ids: id, arraySize };
}
