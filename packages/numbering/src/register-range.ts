import type { Dag } from './dag';

/** The smallest and largest value the path register can hold while it is live. */
export interface RegisterRange {
  readonly min: number;
  readonly max: number;
}

/**
 * While a path is in progress at block `v`, `r = prefix - queryIncrement[v]`, where `prefix` is the `Val` sum of
 * the DAG edges taken so far. Bounding `prefix` per block (shortest and longest prefix sums, in topological
 * order) bounds `r` everywhere. Increments can be negative and intermediate values can exceed the path count
 * (the paper's Figure 10 starts a path at `r = -6`), so this is what decides whether `r` stays a small integer.
 */
export function registerRange(
  dag: Dag,
  topologicalOrder: Int32Array,
  val: ArrayLike<number>,
  queryIncrement: ArrayLike<number>,
): RegisterRange {
  const low = new Float64Array(dag.nodeCount).fill(Infinity);
  const high = new Float64Array(dag.nodeCount).fill(-Infinity);
  low[dag.entry] = 0;
  high[dag.entry] = 0;
  let min = 0;
  let max = 0;
  for (const v of topologicalOrder) {
    min = Math.min(min, low[v] - queryIncrement[v]);
    max = Math.max(max, high[v] - queryIncrement[v]);
    for (let i = dag.out.start[v]; i < dag.out.start[v + 1]; i++) {
      const e = dag.out.edges[i];
      const w = dag.dst[e];
      low[w] = Math.min(low[w], low[v] + val[e]);
      high[w] = Math.max(high[w], high[v] + val[e]);
    }
  }
  return { min, max };
}
