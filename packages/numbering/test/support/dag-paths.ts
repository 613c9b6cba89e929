import type { PathNumbering } from '@pathprof/numbering';

/**
 * Every ENTRY→EXIT path of a numbering's DAG, as DAG edge lists, by brute force; null when there are more than
 * `limit` (the enumeration is exponential in general).
 */
export function allDagPaths(numbering: PathNumbering, limit: number): number[][] | null {
  const { dag, entry, exit, blockCount } = numbering;
  const out: number[][] = Array.from({ length: blockCount }, () => []);
  for (let d = 0; d < dag.edgeCount; d++) out[dag.src[d]].push(d);
  const paths: number[][] = [];
  const path: number[] = [];
  // An explicit stack of (block, next out-edge index) keeps this safe on long paths.
  const stack: [number, number][] = [[entry, 0]];
  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    const [v, i] = top;
    if (v === exit) {
      if (paths.length === limit) return null;
      paths.push([...path]);
    }
    if (v === exit || i === out[v].length) {
      stack.pop();
      path.pop();
      continue;
    }
    top[1]++;
    const d = out[v][i];
    path.push(d);
    stack.push([dag.dst[d], 0]);
  }
  return paths;
}

/** Whether the graph minus `removed` edges has no directed cycle (Kahn's algorithm). */
export function isAcyclicWithout(numbering: PathNumbering, removed: ReadonlySet<number>): boolean {
  const { blockCount, edgeCount, edgeSrc, edgeDst } = numbering;
  const indegree = new Int32Array(blockCount);
  for (let e = 0; e < edgeCount; e++) if (!removed.has(e)) indegree[edgeDst[e]]++;
  const ready: number[] = [];
  for (let v = 0; v < blockCount; v++) if (indegree[v] === 0) ready.push(v);
  let done = 0;
  while (ready.length > 0) {
    const v = ready.pop() as number;
    done++;
    for (let e = 0; e < edgeCount; e++) {
      if (edgeSrc[e] === v && !removed.has(e) && --indegree[edgeDst[e]] === 0) ready.push(edgeDst[e]);
    }
  }
  return done === blockCount;
}
