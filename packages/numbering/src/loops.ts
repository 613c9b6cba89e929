import type { DepthFirstSearch } from './backedges';
import type { Csr } from './csr';
import type { FlowGraph } from './flow-graph';

/** The exit edges of natural loops, as Ball's weighting heuristic needs them. */
export interface LoopExits {
  /** 1 for loop entries: targets of (non-exceptional) backedges. */
  readonly isHeader: Uint8Array;
  /** Per loop entry `y`: `|exit-edges(y)|`, the edges leaving its natural loop. */
  readonly exitCount: Int32Array;
  /**
   * Per edge: the outermost loop it leaves, or -1. Outer loop entries come first in topological order, so that
   * is the loop whose entry weighs the edge ("an edge keeps the weight of the first rule that reaches it").
   */
  readonly exitOwner: Int32Array;
  /** The exit edges grouped by `exitOwner`. */
  readonly exitsOwnedBy: Csr;
}

/**
 * Natural loops (thesis §3.3): the loop of entry `y` is `y` plus every block that reaches the source of a
 * backedge into `y` without passing `y`; on irreducible graphs only DFS descendants of `y` count, so a loop never
 * swallows the function's entry. Exceptional edges neither form nor leave loops here (they are rare).
 *
 * Loops are found innermost first (decreasing DFS preorder) and each found loop is collapsed into its entry with
 * a union-find, as in Havlak's loop-nesting algorithm: a loop inside `y`'s loop lies wholly inside it, so the
 * search for `y` steps over it in one move and only looks at the edges entering it from outside. That keeps the
 * work near-linear even for thousands of nested loops, where searching every loop block by block is quadratic.
 */
export function findLoopExits(graph: FlowGraph, dfs: DepthFirstSearch): LoopExits {
  const { blockCount, edgeCount, edgeSrc, edgeDst, edgeExceptional } = graph;
  const { isBackedge, pre, post } = dfs;
  const isDescendant = (v: number, y: number): boolean => pre[y] <= pre[v] && post[v] <= post[y];

  const isHeader = new Uint8Array(blockCount);
  for (let e = 0; e < edgeCount; e++)
    if (isBackedge[e] === 1 && edgeExceptional[e] === 0) isHeader[edgeDst[e]] = 1;
  // Plain loops, not `Array.from({ length }, f)`: that builtin is several times slower, once per function.
  const headers: number[] = [];
  for (let v = 0; v < blockCount; v++) if (isHeader[v] === 1) headers.push(v);
  headers.sort((a, b) => pre[b] - pre[a]);

  // Each collapsed set (a found loop, or a single block) keeps a linked list of the edges entering it.
  const listHead = new Int32Array(blockCount).fill(-1);
  const listTail = new Int32Array(blockCount).fill(-1);
  const listNext = new Int32Array(edgeCount).fill(-1);
  for (let e = 0; e < edgeCount; e++) {
    if (edgeExceptional[e] === 1) continue;
    const w = edgeDst[e];
    if (listHead[w] < 0) listHead[w] = e;
    else listNext[listTail[w]] = e;
    listTail[w] = e;
  }
  const collapsedInto = new Int32Array(blockCount);
  for (let v = 0; v < blockCount; v++) collapsedInto[v] = v;
  const find = (v: number): number => {
    while (collapsedInto[v] !== v) {
      collapsedInto[v] = collapsedInto[collapsedInto[v]];
      v = collapsedInto[v];
    }
    return v;
  };
  /** The loop tree: `innermost[v]` is the innermost loop entry whose loop holds `v`; `parentLoop` links entries. */
  const innermost = new Int32Array(blockCount).fill(-1);
  const parentLoop = new Int32Array(blockCount).fill(-1);
  const memberOf = new Int32Array(blockCount).fill(-1);
  const worklist: number[] = [];
  const members: number[] = [];

  for (const y of headers) {
    innermost[y] = y;
    members.length = 0;
    let externalHead = -1;
    let externalTail = -1;
    const keepExternal = (e: number): void => {
      if (externalHead < 0) externalHead = e;
      else listNext[externalTail] = e;
      externalTail = e;
    };
    const enter = (v: number): void => {
      const r = find(v);
      if (r === y || memberOf[r] === y) return;
      memberOf[r] = y;
      members.push(r);
      worklist.push(r);
    };
    for (let e = listHead[y]; e >= 0; e = listNext[e]) if (isBackedge[e] === 1) enter(edgeSrc[e]);
    while (worklist.length > 0) {
      const r = worklist.pop() as number;
      for (let e = listHead[r], next = e; e >= 0; e = next) {
        next = listNext[e];
        const p = find(edgeSrc[e]);
        if (p === y || memberOf[p] === y) continue;
        if (isDescendant(p, y)) enter(p);
        else keepExternal(e);
      }
    }
    for (let e = listHead[y], next = e; e >= 0; e = next) {
      next = listNext[e];
      const p = find(edgeSrc[e]);
      if (p !== y && memberOf[p] !== y) keepExternal(e);
    }
    if (externalTail >= 0) listNext[externalTail] = -1;
    listHead[y] = externalHead;
    listTail[y] = externalTail;
    for (const r of members) {
      collapsedInto[r] = y;
      if (isHeader[r] === 1) parentLoop[r] = y;
      else innermost[r] = y;
    }
  }

  const isInLoop = loopTreeContainment(blockCount, headers, parentLoop, innermost);
  const exitCount = new Int32Array(blockCount);
  const exitOwner = new Int32Array(edgeCount).fill(-1);
  let exitEdges = 0;
  for (let e = 0; e < edgeCount; e++) {
    if (edgeExceptional[e] === 1) continue;
    // The loops an edge leaves are those around its source up to the first one around its target too.
    for (let y = innermost[edgeSrc[e]]; y >= 0 && !isInLoop(edgeDst[e], y); y = parentLoop[y]) {
      exitCount[y]++;
      exitOwner[e] = y;
    }
    if (exitOwner[e] >= 0) exitEdges++;
  }
  const start = new Int32Array(blockCount + 1);
  for (let e = 0; e < edgeCount; e++) if (exitOwner[e] >= 0) start[exitOwner[e] + 1]++;
  for (let v = 0; v < blockCount; v++) start[v + 1] += start[v];
  const fill = start.slice(0, blockCount);
  const edges = new Int32Array(exitEdges);
  for (let e = 0; e < edgeCount; e++) if (exitOwner[e] >= 0) edges[fill[exitOwner[e]]++] = e;
  return { isHeader, exitCount, exitOwner, exitsOwnedBy: { start, edges } };
}

/** `isInLoop(v, y)`: whether block `v` lies in the loop of entry `y`, in constant time via the loop tree. */
function loopTreeContainment(
  blockCount: number,
  headers: readonly number[],
  parentLoop: Int32Array,
  innermost: Int32Array,
): (v: number, y: number) => boolean {
  // Only loop entries have loops inside them.
  const children = new Map<number, number[]>();
  const roots: number[] = [];
  for (const y of headers) {
    const p = parentLoop[y];
    if (p < 0) roots.push(y);
    else {
      const list = children.get(p);
      if (list) list.push(y);
      else children.set(p, [y]);
    }
  }
  const enter = new Int32Array(blockCount);
  const leave = new Int32Array(blockCount);
  let clock = 0;
  for (const root of roots) {
    enter[root] = clock++;
    // An explicit stack: loop nests can be thousands deep in generated code.
    const stack: [number, number][] = [[root, 0]];
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      const [y, i] = top;
      const inner = children.get(y);
      if (inner && i < inner.length) {
        top[1]++;
        const child = inner[i];
        enter[child] = clock++;
        stack.push([child, 0]);
      } else {
        leave[y] = clock++;
        stack.pop();
      }
    }
  }
  return (v, y) => {
    const z = innermost[v];
    return z >= 0 && enter[y] <= enter[z] && leave[z] <= leave[y];
  };
}
