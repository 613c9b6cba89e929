import { depthFirstSearch, type DepthFirstSearch } from './backedges';
import type { FlowGraph } from './flow-graph';
import { findLoopExits } from './loops';
import { NumberingError } from './numbering-error';
import { validateFlowGraph, type FlowGraphAdjacency } from './validate';

/** How many times the static heuristic assumes every loop iterates (Ball's thesis, §3.3). */
export const LOOP_MULTIPLIER = 10;

/** How many times a branch is assumed to take each of its other edges for once it takes an unlikely one. */
export const UNLIKELY_ODDS = 9;

/**
 * Ball's static edge-frequency estimate (thesis §3.3), for choosing a maximum spanning tree without a profile:
 * each loop runs `LOOP_MULTIPLIER` times, the branches of a block are equally likely, and the exit edges of a
 * loop share the weight of the loop's entry. The function's entry has weight 1.
 *
 * Our additions: exceptional edges are assumed rare and get weight 0 (they are forced into every spanning tree
 * anyway, and counting them as loop exits or branches would starve the real exits); a share that goes negative
 * (a nested block owning an exit whose share exceeds the block's own estimate) is clamped to 0, as only the
 * order of the weights matters to the spanning tree. Natural loops are as `findLoopExits` defines them.
 *
 * `unlikely` (1 per edge a branch is predicted not to take, e.g. an equality test holding, after Ball and
 * Larus's branch prediction heuristics) splits a block's weight unevenly: such an edge gets one share for
 * every `UNLIKELY_ODDS` its siblings get. Without it the branches of a block are equally likely.
 */
export function staticEdgeWeights(graph: FlowGraph, unlikely?: ArrayLike<number>): Float64Array {
  const adjacency = validateFlowGraph(graph);
  return estimateEdgeWeights(graph, adjacency, depthFirstSearch(graph, adjacency.out), unlikely);
}

export function estimateEdgeWeights(
  graph: FlowGraph,
  adjacency: FlowGraphAdjacency,
  dfs: DepthFirstSearch,
  unlikely?: ArrayLike<number>,
): Float64Array {
  const { edgeCount, edgeExceptional, entry } = graph;
  const { isBackedge } = dfs;
  const loops = findLoopExits(graph, dfs);
  const weight = new Float64Array(edgeCount);
  const weighted = new Uint8Array(edgeCount);
  const shareOf = (e: number) => (unlikely?.[e] === 1 ? 1 / UNLIKELY_ODDS : 1);
  for (let e = 0; e < edgeCount; e++) if (edgeExceptional[e] === 1) weighted[e] = 1;
  for (const v of dfs.topologicalOrder) {
    // Rule 1: a block weighs what flows in over its non-back in-edges (the entry gets the EXIT→ENTRY edge's 1).
    let inflow = v === entry ? 1 : 0;
    for (let i = adjacency.in.start[v]; i < adjacency.in.start[v + 1]; i++) {
      const e = adjacency.in.edges[i];
      if (isBackedge[e] === 0) inflow += weight[e];
    }
    const vertexWeight = saturate(inflow);
    // Rule 2: a loop's exit edges share the weight of its entry (an edge keeps the first weight it gets, from
    // the outermost loop it leaves).
    const owned = loops.exitsOwnedBy;
    for (let i = owned.start[v]; i < owned.start[v + 1]; i++) {
      weight[owned.edges[i]] = vertexWeight / loops.exitCount[v];
      weighted[owned.edges[i]] = 1;
    }
    // Rule 3: the rest of the block's weight (times the multiplier at a loop entry) splits evenly, or by the
    // odds against the unlikely edges.
    let remaining = loops.isHeader[v] === 1 ? saturate(vertexWeight * LOOP_MULTIPLIER) : vertexWeight;
    let shares = 0;
    for (let i = adjacency.out.start[v]; i < adjacency.out.start[v + 1]; i++) {
      const e = adjacency.out.edges[i];
      if (edgeExceptional[e] === 1) continue;
      if (loops.exitOwner[e] >= 0) remaining -= weight[e];
      else shares += shareOf(e);
    }
    for (let i = adjacency.out.start[v]; i < adjacency.out.start[v + 1]; i++) {
      const e = adjacency.out.edges[i];
      if (weighted[e] === 0 && loops.exitOwner[e] < 0) {
        weight[e] = Math.max(0, (remaining * shareOf(e)) / shares);
        weighted[e] = 1;
      }
    }
  }
  return weight;
}

/**
 * Ten per nesting level overflows doubles past about 300 nested loops (generated code); beyond that the
 * estimates saturate at the largest double and deep edges tie, which only costs the tree some precision.
 */
function saturate(weight: number): number {
  return Math.min(weight, Number.MAX_VALUE);
}

/** Refuses weights that cannot order a spanning tree: one finite number per edge. */
export function checkEdgeWeights(weights: ArrayLike<number>, edgeCount: number): void {
  const fail = (message: string): never => {
    throw new NumberingError('invalid-option', message);
  };
  if (weights.length !== edgeCount) fail(`weights has ${weights.length} entries for ${edgeCount} edges`);
  for (let e = 0; e < edgeCount; e++) {
    if (!Number.isFinite(weights[e])) fail(`weights[${e}] is ${weights[e]}, not a finite number`);
  }
}
