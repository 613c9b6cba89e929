import type { Dag } from './dag';

/**
 * The order in which a block's out-edges receive their `Val` (any order numbers correctly; it changes which path
 * gets which number):
 * - `most-paths-last` (default): by increasing path count of the target, ties by DAG edge id. The paper (§5.2)
 *   visits the successor with most paths last because that keeps the largest `Val`, and so the increments, small.
 * - `edge-id`: by DAG edge id alone (original edges in source order, then dummies), for reproducing figures
 *   drawn with a fixed order.
 */
export type SuccessorOrder = 'most-paths-last' | 'edge-id';

export interface PathValues {
  /** Per block: how many DAG paths lead from it to the exit (`NumPaths`). */
  readonly numPaths: Float64Array;
  /** Per DAG edge: `Val`, so that each ENTRY→EXIT path's sum is unique and in `[0, pathCount)`. */
  readonly val: Float64Array;
  readonly pathCount: number;
}

/** Ball-Larus Figure 5 in reverse topological order. */
export function computePathValues(dag: Dag, topologicalOrder: Int32Array, order: SuccessorOrder): PathValues {
  const numPaths = new Float64Array(dag.nodeCount);
  const val = new Float64Array(dag.edgeCount);
  const { start, edges } = dag.out;
  const successors = new Int32Array(dag.edgeCount);
  for (let i = topologicalOrder.length - 1; i >= 0; i--) {
    const v = topologicalOrder[i];
    const first = start[v];
    const count = start[v + 1] - first;
    if (count === 0) {
      if (v !== dag.exit) throw new Error(`internal: block ${v} is a sink of the DAG but not its exit`);
      numPaths[v] = 1;
      continue;
    }
    for (let k = 0; k < count; k++) successors[k] = edges[first + k];
    if (order === 'most-paths-last') sortByPathsThenId(successors, count, dag.dst, numPaths);
    let sum = 0;
    for (let k = 0; k < count; k++) {
      const e = successors[k];
      val[e] = sum;
      sum += numPaths[dag.dst[e]];
    }
    numPaths[v] = sum;
  }
  return { numPaths, val, pathCount: numPaths[dag.entry] };
}

/** Sorts the first `count` edge ids by target path count, then id: insertion sort for the usual few out-edges. */
function sortByPathsThenId(ids: Int32Array, count: number, dst: Int32Array, numPaths: Float64Array): void {
  if (count > 16) {
    ids.subarray(0, count).sort((a, b) => numPaths[dst[a]] - numPaths[dst[b]] || a - b);
    return;
  }
  for (let k = 1; k < count; k++) {
    const e = ids[k];
    const paths = numPaths[dst[e]];
    let j = k - 1;
    while (j >= 0 && (numPaths[dst[ids[j]]] > paths || (numPaths[dst[ids[j]]] === paths && ids[j] > e))) {
      ids[j + 1] = ids[j];
      j--;
    }
    ids[j + 1] = e;
  }
}
