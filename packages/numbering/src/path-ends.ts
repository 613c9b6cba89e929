import { ENTRY_DUMMY, EXIT_DUMMY } from './dag';
import type { PathNumbering } from './number-paths';

/** How many potential paths end each way: by a return, by an exception, or on a removed (back or cut) edge. */
export interface PathEndCounts {
  readonly return: number;
  readonly exception: number;
  readonly backedge: number;
  readonly cut: number;
  /** Of all paths, those that begin at function entry (the others begin after a removed edge). */
  readonly fromEntry: number;
}

/**
 * Counts a function's potential paths by how they end, without enumerating them: most potential paths of a
 * real function end by an exception in one of its blocks, so a coverage figure over all paths would mostly
 * measure untested exceptions. One pass over the DAG in reverse topological order, like `NumPaths`.
 */
export function countPathEnds(numbering: PathNumbering): PathEndCounts {
  const { dag, entry, exit, blockCount } = numbering;
  const removedKind = new Map(numbering.removedEdges.map((r) => [r.edge, r.kind] as const));
  // paths[v * 4 + c]: paths from v to EXIT whose last edge is of category c.
  const paths = new Float64Array(blockCount * 4);
  const outStart = new Int32Array(blockCount + 1);
  for (let d = 0; d < dag.edgeCount; d++) outStart[dag.src[d] + 1]++;
  for (let v = 0; v < blockCount; v++) outStart[v + 1] += outStart[v];
  const fill = outStart.slice(0, blockCount);
  const out = new Int32Array(dag.edgeCount);
  for (let d = 0; d < dag.edgeCount; d++) out[fill[dag.src[d]]++] = d;
  const category = (d: number): number => {
    if (dag.kind[d] === EXIT_DUMMY) return removedKind.get(dag.origin[d]) === 'cut' ? 3 : 2;
    return numbering.edgeExceptional[dag.origin[d]] === 1 ? 1 : 0;
  };
  // Reverse topological order by an iterative DFS postorder from ENTRY (every vertex is reachable).
  const order: number[] = [];
  const state = new Uint8Array(blockCount);
  const stack: number[] = [entry];
  const next = outStart.slice(0, blockCount);
  state[entry] = 1;
  while (stack.length > 0) {
    const v = stack[stack.length - 1];
    if (next[v] < outStart[v + 1]) {
      const w = dag.dst[out[next[v]++]];
      if (state[w] === 0) {
        state[w] = 1;
        stack.push(w);
      }
    } else {
      stack.pop();
      order.push(v);
    }
  }
  for (const v of order) {
    for (let i = outStart[v]; i < outStart[v + 1]; i++) {
      const d = out[i];
      const w = dag.dst[d];
      if (w === exit) paths[v * 4 + category(d)] += 1;
      else for (let c = 0; c < 4; c++) paths[v * 4 + c] += paths[w * 4 + c];
    }
  }
  const at = (v: number, c: number) => paths[v * 4 + c];
  const total = (v: number) => at(v, 0) + at(v, 1) + at(v, 2) + at(v, 3);
  let fromEntry = 0;
  for (let i = outStart[entry]; i < outStart[entry + 1]; i++) {
    const d = out[i];
    if (dag.kind[d] !== ENTRY_DUMMY) fromEntry += dag.dst[d] === exit ? 1 : total(dag.dst[d]);
  }
  return {
    return: at(entry, 0),
    exception: at(entry, 1),
    backedge: at(entry, 2),
    cut: at(entry, 3),
    fromEntry,
  };
}
