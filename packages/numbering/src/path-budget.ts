import type { DepthFirstSearch } from './backedges';
import type { Csr } from './csr';
import { codelessEdges, type FlowGraph } from './flow-graph';
import { NumberingError } from './numbering-error';

/** Why an original edge is not in the DAG: kept (0), a DFS backedge (1), or cut to fit the path budget (2). */
export const KEPT = 0;
export const BACKEDGE = 1;
export const CUT = 2;

/** One edge cut by the overflow policy, and why. */
export interface CutRecord {
  readonly edge: number;
  /** The block whose out-edges were cut. */
  readonly block: number;
  /** How many paths led from `block` to the exit before the cut. */
  readonly pathsFromBlock: number;
  /** The per-block threshold it exceeded. */
  readonly threshold: number;
}

export interface EdgeRemoval {
  /** Per original edge: `KEPT`, `BACKEDGE` or `CUT`. */
  readonly removed: Uint8Array;
  readonly cuts: readonly CutRecord[];
  /** The per-block threshold of the round that fitted, or null when the graph fitted without cuts. */
  readonly threshold: number | null;
}

/**
 * Removes the backedges and, when the path count would exceed `maxPaths`, cuts edges like backedges: the paper's
 * policy (§5.3) of cutting every out-edge of a block whose path count exceeds a threshold, each cut edge then
 * ending one path and starting the next. The threshold starts at `maxPaths` and halves until the whole function
 * fits, because the dummy `ENTRY→w` edges of the cut targets add up at the entry, which itself cannot be cut.
 *
 * Never cut: exceptional and silent edges (no code can run on them) and edges into the exit (a cut there would only trade
 * the edge for an identical dummy `v→EXIT`).
 */
export function removeEdgesForBudget(
  graph: FlowGraph,
  out: Csr,
  dfs: DepthFirstSearch,
  maxPaths: number,
): EdgeRemoval {
  const backedgesOnly = Uint8Array.from(dfs.isBackedge);
  const codeless = codelessEdges(graph);
  for (let e = 0; e < graph.edgeCount; e++) {
    if (backedgesOnly[e] === BACKEDGE && codeless[e] === 1) {
      const what = graph.edgeExceptional[e] === 1 ? 'exceptional' : 'silent';
      throw new NumberingError(
        'exceptional-backedge',
        `${what} edge ${e} (${graph.edgeSrc[e]}→${graph.edgeDst[e]}) closes a cycle as a DFS backedge: ` +
          `it would have to end one path and start the next, and no code can run on a ${what} edge`,
      );
    }
  }
  let threshold = maxPaths;
  let round = tryThreshold(graph, out, dfs, backedgesOnly, codeless, threshold);
  if (round.pathCount <= maxPaths && round.cuts.length === 0) return { ...round, threshold: null };
  while (round.pathCount > maxPaths) {
    threshold = Math.floor(threshold / 2);
    if (threshold < 1) {
      throw new NumberingError(
        'path-budget-too-small',
        `cutting every cuttable edge still leaves ${round.pathCount} paths, more than the budget of ${maxPaths}`,
      );
    }
    round = tryThreshold(graph, out, dfs, backedgesOnly, codeless, threshold);
  }
  return { removed: round.removed, cuts: round.cuts, threshold };
}

interface Round {
  readonly removed: Uint8Array;
  readonly cuts: CutRecord[];
  readonly pathCount: number;
}

/** One pass of path counting in reverse topological order, cutting blocks above `threshold` as it goes. */
function tryThreshold(
  graph: FlowGraph,
  out: Csr,
  dfs: DepthFirstSearch,
  backedgesOnly: Uint8Array,
  codeless: Uint8Array,
  threshold: number,
): Round {
  const { blockCount, edgeDst, entry, exit } = graph;
  const removed = Uint8Array.from(backedgesOnly);
  const isEntryTarget = new Uint8Array(blockCount);
  for (let e = 0; e < graph.edgeCount; e++) if (removed[e] !== KEPT) isEntryTarget[edgeDst[e]] = 1;
  const paths = new Float64Array(blockCount);
  const cuts: CutRecord[] = [];
  // A removed out-edge contributes its own dummy `v→EXIT`, hence 1 path.
  const pathsOut = (v: number): number => {
    let sum = 0;
    for (let i = out.start[v]; i < out.start[v + 1]; i++) {
      const e = out.edges[i];
      sum += removed[e] === KEPT ? paths[edgeDst[e]] : 1;
    }
    return sum;
  };
  const order = dfs.topologicalOrder;
  for (let i = blockCount - 1; i >= 0; i--) {
    const v = order[i];
    if (v === exit) {
      paths[v] = 1;
      continue;
    }
    let sum = pathsOut(v);
    if (v !== entry && sum > threshold) {
      const before = sum;
      for (let j = out.start[v]; j < out.start[v + 1]; j++) {
        const e = out.edges[j];
        if (removed[e] !== KEPT || codeless[e] === 1 || edgeDst[e] === exit) continue;
        removed[e] = CUT;
        isEntryTarget[edgeDst[e]] = 1;
        cuts.push({ edge: e, block: v, pathsFromBlock: before, threshold });
      }
      sum = pathsOut(v);
    }
    if (v === entry) for (let w = 0; w < blockCount; w++) if (isEntryTarget[w] === 1) sum += paths[w];
    paths[v] = sum;
  }
  return { removed, cuts, pathCount: paths[entry] };
}
