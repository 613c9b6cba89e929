import { depthFirstSearch, type DepthFirstSearch } from './backedges';
import type { FlowGraph } from './flow-graph';
import { validateFlowGraph, type FlowGraphAdjacency } from './validate';

/** How many times the static heuristic assumes every loop iterates (Ball's thesis, §3.3). */
export const LOOP_MULTIPLIER = 10;

/**
 * Ball's static edge-frequency estimate (thesis §3.3), for choosing a maximum spanning tree without a profile:
 * each loop runs `LOOP_MULTIPLIER` times, the branches of a block are equally likely, and the exit edges of a
 * loop share the weight of the loop's entry. The function's entry has weight 1.
 *
 * Our additions: exceptional edges are assumed rare and get weight 0 (they are forced into every spanning tree
 * anyway, and counting them as loop exits or branches would starve the real exits); a share that goes negative
 * (a nested block owning an exit whose share exceeds the block's own estimate) is clamped to 0, as only the
 * order of the weights matters to the spanning tree. On irreducible graphs a natural loop is restricted to DFS
 * descendants of its entry, so a loop never swallows the function's entry.
 */
export function staticEdgeWeights(graph: FlowGraph): Float64Array {
  const adjacency = validateFlowGraph(graph);
  return estimateEdgeWeights(graph, adjacency, depthFirstSearch(graph, adjacency.out));
}

export function estimateEdgeWeights(
  graph: FlowGraph,
  adjacency: FlowGraphAdjacency,
  dfs: DepthFirstSearch,
): Float64Array {
  const { edgeCount, edgeExceptional, entry } = graph;
  const { isBackedge } = dfs;
  const loops = findLoopExits(graph, adjacency, dfs);
  const weight = new Float64Array(edgeCount);
  const weighted = new Uint8Array(edgeCount);
  for (let e = 0; e < edgeCount; e++) if (edgeExceptional[e] === 1) weighted[e] = 1;
  for (const v of dfs.topologicalOrder) {
    // Rule 1: a block weighs what flows in over its non-back in-edges (the entry gets the EXIT→ENTRY edge's 1).
    let vertexWeight = v === entry ? 1 : 0;
    for (let i = adjacency.in.start[v]; i < adjacency.in.start[v + 1]; i++) {
      const e = adjacency.in.edges[i];
      if (isBackedge[e] === 0) vertexWeight += weight[e];
    }
    const exits = loops.exitsOfHeader[v];
    // Rule 2: a loop's exit edges share the weight of its entry (an edge keeps the first weight it gets).
    if (exits !== undefined) {
      for (const e of exits) {
        if (weighted[e] === 0) {
          weight[e] = vertexWeight / exits.length;
          weighted[e] = 1;
        }
      }
    }
    // Rule 3: the rest of the block's weight (times the multiplier at a loop entry) splits evenly.
    let remaining = exits === undefined ? vertexWeight : vertexWeight * LOOP_MULTIPLIER;
    let branches = 0;
    for (let i = adjacency.out.start[v]; i < adjacency.out.start[v + 1]; i++) {
      const e = adjacency.out.edges[i];
      if (edgeExceptional[e] === 1) continue;
      if (loops.isExitEdge[e] === 1) remaining -= weight[e];
      else branches++;
    }
    const share = branches === 0 ? 0 : Math.max(0, remaining / branches);
    for (let i = adjacency.out.start[v]; i < adjacency.out.start[v + 1]; i++) {
      const e = adjacency.out.edges[i];
      if (weighted[e] === 0 && loops.isExitEdge[e] === 0) {
        weight[e] = share;
        weighted[e] = 1;
      }
    }
  }
  return weight;
}

interface LoopExits {
  /** For each loop entry (a target of backedges), the exit edges of its natural loop; undefined elsewhere. */
  readonly exitsOfHeader: (number[] | undefined)[];
  readonly isExitEdge: Uint8Array;
}

/**
 * Natural loops by backward search from the sources of the backedges into each loop entry `y`, stopping at `y`
 * and staying inside `y`'s DFS subtree. Exceptional edges are neither searched nor counted as exits.
 */
function findLoopExits(graph: FlowGraph, adjacency: FlowGraphAdjacency, dfs: DepthFirstSearch): LoopExits {
  const { blockCount, edgeCount, edgeSrc, edgeDst, edgeExceptional } = graph;
  const { isBackedge, pre, post } = dfs;
  const exitsOfHeader: (number[] | undefined)[] = new Array(blockCount);
  const isExitEdge = new Uint8Array(edgeCount);
  const member = new Int32Array(blockCount).fill(-1);
  const stack = new Int32Array(blockCount);
  const members: number[] = [];
  for (let y = 0; y < blockCount; y++) {
    let top = 0;
    members.length = 0;
    for (let i = adjacency.in.start[y]; i < adjacency.in.start[y + 1]; i++) {
      const e = adjacency.in.edges[i];
      if (isBackedge[e] === 0 || edgeExceptional[e] === 1) continue;
      if (member[y] !== y) {
        member[y] = y;
        members.push(y);
      }
      const x = edgeSrc[e];
      if (member[x] !== y) {
        member[x] = y;
        members.push(x);
        stack[top++] = x;
      }
    }
    if (members.length === 0) continue;
    while (top > 0) {
      const w = stack[--top];
      for (let i = adjacency.in.start[w]; i < adjacency.in.start[w + 1]; i++) {
        const e = adjacency.in.edges[i];
        const u = edgeSrc[e];
        if (edgeExceptional[e] === 1 || member[u] === y) continue;
        if (pre[u] < pre[y] || post[u] > post[y]) continue;
        member[u] = y;
        members.push(u);
        stack[top++] = u;
      }
    }
    const exits: number[] = [];
    for (const a of members) {
      for (let i = adjacency.out.start[a]; i < adjacency.out.start[a + 1]; i++) {
        const e = adjacency.out.edges[i];
        if (edgeExceptional[e] === 0 && member[edgeDst[e]] !== y) {
          exits.push(e);
          isExitEdge[e] = 1;
        }
      }
    }
    exitsOfHeader[y] = exits;
  }
  return { exitsOfHeader, isExitEdge };
}
