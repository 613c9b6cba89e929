import type { FlowGraph } from '@pathprof/numbering';

/**
 * Ball's weighting rules (thesis §3.3) applied literally, as an oracle for `staticEdgeWeights`: a recursive DFS
 * in edge-id order, one backward search per loop entry for its natural loop (restricted to the entry's DFS
 * subtree), rule 2 at each loop entry for the exit edges not yet weighted. Quadratic; for small graphs only.
 */
export function referenceWeights(graph: FlowGraph, loopMultiplier: number): number[] {
  const { blockCount, edgeCount, edgeSrc, edgeDst, edgeExceptional, entry } = graph;
  const out = (v: number) => Array.from({ length: edgeCount }, (_, e) => e).filter((e) => edgeSrc[e] === v);
  const into = (v: number) => Array.from({ length: edgeCount }, (_, e) => e).filter((e) => edgeDst[e] === v);
  const pre = new Array<number>(blockCount).fill(-1);
  const post = new Array<number>(blockCount).fill(-1);
  const onStack = new Array<boolean>(blockCount).fill(false);
  const back = new Array<boolean>(edgeCount).fill(false);
  const finished: number[] = [];
  let clock = 0;
  const visit = (v: number): void => {
    pre[v] = clock++;
    onStack[v] = true;
    for (const e of out(v)) {
      const w = edgeDst[e];
      if (pre[w] < 0) visit(w);
      else if (onStack[w]) back[e] = true;
    }
    onStack[v] = false;
    post[v] = finished.push(v) - 1;
  };
  visit(entry);
  const order = [...finished].reverse().filter((v) => v !== graph.exit);
  order.push(graph.exit);

  const exitsOf = new Map<number, number[]>();
  const isExit = new Array<boolean>(edgeCount).fill(false);
  for (let y = 0; y < blockCount; y++) {
    const sources = into(y).filter((e) => back[e] && edgeExceptional[e] === 0);
    if (sources.length === 0) continue;
    const loop = new Set([y]);
    const stack = sources.map((e) => edgeSrc[e]).filter((x) => !loop.has(x));
    for (const x of stack) loop.add(x);
    while (stack.length > 0) {
      const w = stack.pop() as number;
      for (const e of into(w)) {
        const u = edgeSrc[e];
        if (edgeExceptional[e] === 1 || loop.has(u) || pre[u] < pre[y] || post[u] > post[y]) continue;
        loop.add(u);
        stack.push(u);
      }
    }
    const exits = Array.from({ length: edgeCount }, (_, e) => e).filter(
      (e) => edgeExceptional[e] === 0 && loop.has(edgeSrc[e]) && !loop.has(edgeDst[e]),
    );
    exitsOf.set(y, exits);
    for (const e of exits) isExit[e] = true;
  }

  const weight = new Array<number>(edgeCount).fill(0);
  const weighted = Array.from(edgeExceptional, (x) => x === 1);
  for (const v of order) {
    const vertexWeight = into(v).reduce((sum, e) => (back[e] ? sum : sum + weight[e]), v === entry ? 1 : 0);
    const exits = exitsOf.get(v) ?? [];
    for (const e of exits) {
      if (!weighted[e]) {
        weight[e] = vertexWeight / exits.length;
        weighted[e] = true;
      }
    }
    const normal = out(v).filter((e) => edgeExceptional[e] === 0);
    const total = exitsOf.has(v) ? vertexWeight * loopMultiplier : vertexWeight;
    const remaining = normal.filter((e) => isExit[e]).reduce((rest, e) => rest - weight[e], total);
    const branches = normal.filter((e) => !isExit[e]);
    for (const e of branches) {
      if (!weighted[e]) {
        weight[e] = Math.max(0, remaining / branches.length);
        weighted[e] = true;
      }
    }
  }
  return weight;
}
