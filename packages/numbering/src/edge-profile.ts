import { depthFirstSearch } from './backedges';
import { withExitEntryEdge } from './exit-entry-edge';
import type { FlowGraph } from './flow-graph';
import { NumberingError } from './numbering-error';
import type { PathOp } from './path-op';
import { plainArray } from './plain-array';
import { simplifyPathOps, type SimplifiedPathOps } from './simplify-ops';
import { maximumSpanningTree } from './spanning-tree';
import { validateFlowGraph } from './validate';
import { checkEdgeWeights, estimateEdgeWeights } from './weights';

export interface EdgeProfileOptions {
  /** Estimated execution count per edge; default Ball's static estimate. */
  readonly weights?: ArrayLike<number>;
  /**
   * Without `weights`: the edges a branch is predicted not to take, which the static estimate weighs less
   * (see `staticEdgeWeights`), so that counters go on them rather than on their siblings.
   */
  readonly unlikely?: readonly number[];
}

/**
 * Efficient edge profiling (Knuth; Ball's thesis §3.1.2): a counter on each chord of a maximum spanning tree of
 * the graph plus EXIT→ENTRY, every other count derived by flow conservation. EXIT→ENTRY and the silent edges
 * are forced into the tree: the first is not real control flow and no code can run on the others.
 *
 * Exceptional edges have no code either, but forcing them into the tree (as path numbering must) joins every
 * block that can throw to EXIT, and then nearly every normal edge between two such blocks, loop bodies
 * included, is a chord with a counter. So the tree spans the normal edges by weight first, and takes an
 * exceptional edge only where nothing else joins a block (a `catch` that always rethrows). An exceptional chord
 * is counted where the exception lands: the `catch`, the `finally` it enters or the function-level handler
 * increments the counter of the block that threw, which the activation keeps in a register set on the way
 * into each block that can throw (`edgeProfileOps`: a set costs an optimising compiler nothing where the
 * register's value is a constant, which it is at every throw). A block whose exceptional edge is a tree edge
 * increments `discardCounter` instead, which no edge owns. `earlyExits` in `deriveEdgeCounts` covers
 * activations that stop where the graph has no edge.
 */
export interface EdgeProfilePlan {
  readonly format: 'pathprof-edge-profile/2';
  readonly blockCount: number;
  readonly entry: number;
  readonly exit: number;
  readonly edgeCount: number;
  readonly edgeSrc: readonly number[];
  readonly edgeDst: readonly number[];
  readonly edgeExceptional: readonly number[];
  readonly counterCount: number;
  /**
   * Per edge: the counter it increments when taken (an exceptional edge: when an exception takes it, by the
   * handler it lands in), or -1 when its count is derived.
   */
  readonly edgeCounter: readonly number[];
  /** Per block: the counter a throw out of it increments, or -1 when it cannot throw. */
  readonly throwCounter: readonly number[];
  /** The counter of throws whose exceptional edge is a tree edge: part of no edge's count; -1 when none. */
  readonly discardCounter: number;
}

export function planEdgeProfile(graph: FlowGraph, options: EdgeProfileOptions = {}): EdgeProfilePlan {
  const adjacency = validateFlowGraph(graph);
  const { blockCount, edgeCount, edgeSrc, edgeDst, edgeExceptional, entry, exit } = graph;
  const weights =
    options.weights ??
    estimateEdgeWeights(
      graph,
      adjacency,
      depthFirstSearch(graph, adjacency.out),
      unlikelyFlags(options.unlikely ?? [], edgeCount),
    );
  checkEdgeWeights(weights, edgeCount);
  const silent = graph.edgeSilent ?? new Uint8Array(edgeCount);
  const { rootEdge, src, dst, forced } = withExitEntryEdge(edgeSrc, edgeDst, silent, entry, exit);
  // Below every normal edge, however light: an exceptional edge joins the tree only where nothing else can.
  const weight = new Float64Array(rootEdge + 1);
  for (let e = 0; e < edgeCount; e++) weight[e] = edgeExceptional[e] === 1 ? -1 : weights[e];
  const inTree = maximumSpanningTree({
    nodeCount: blockCount,
    edgeCount: edgeCount + 1,
    src,
    dst,
    weight,
    forced,
  });
  const edgeCounter = new Array<number>(edgeCount);
  let counterCount = 0;
  for (let e = 0; e < edgeCount; e++) edgeCounter[e] = inTree[e] === 1 ? -1 : counterCount++;
  const throwCounter = new Array<number>(blockCount).fill(-1);
  let discardCounter = -1;
  for (let e = 0; e < edgeCount; e++) {
    if (edgeExceptional[e] === 0) continue;
    if (edgeCounter[e] < 0 && discardCounter < 0) discardCounter = counterCount++;
    throwCounter[edgeSrc[e]] = edgeCounter[e] >= 0 ? edgeCounter[e] : discardCounter;
  }
  return {
    format: 'pathprof-edge-profile/2',
    blockCount,
    entry,
    exit,
    edgeCount,
    edgeSrc: plainArray(edgeSrc),
    edgeDst: plainArray(edgeDst),
    edgeExceptional: plainArray(edgeExceptional),
    counterCount,
    edgeCounter,
    throwCounter,
    discardCounter,
  };
}

function unlikelyFlags(unlikely: readonly number[], edgeCount: number): Uint8Array {
  const flags = new Uint8Array(edgeCount);
  for (const e of unlikely) {
    if (!(Number.isInteger(e) && e >= 0 && e < edgeCount))
      throw new NumberingError('invalid-option', `unlikely edge ${e} is not an edge (0 to ${edgeCount - 1})`);
    flags[e] = 1;
  }
  return flags;
}

/**
 * The plan as ops over a register holding `throwCounter` of the block that runs (`simplifyPathOps` keeps only
 * the writes a throw can read): a chord `count-const` of its counter, an edge into a block that can throw
 * `set` to that block's throw counter, and where an exception lands `count-add 0` (the thrower's counter),
 * then `set` to the landing block's own. Returns what an instrumenter emits.
 */
export function edgeProfileOps(plan: EdgeProfilePlan): SimplifiedPathOps {
  const { edgeCount, edgeDst, edgeExceptional, edgeCounter, throwCounter } = plan;
  const into = (v: number): PathOp[] =>
    throwCounter[v] >= 0 ? [{ kind: 'set', value: throwCounter[v] }] : [];
  const edgeOps: PathOp[][] = new Array(edgeCount);
  for (let e = 0; e < edgeCount; e++) {
    const v = edgeDst[e];
    edgeOps[e] =
      edgeExceptional[e] === 1
        ? [{ kind: 'count-add', value: 0 }, ...(v === plan.exit ? [] : into(v))]
        : [
            ...(edgeCounter[e] >= 0 ? [{ kind: 'count-const' as const, value: edgeCounter[e] }] : []),
            ...into(v),
          ];
  }
  return simplifyPathOps({ ...plan, prologue: [], edgeOps });
}

/** A derived count that came out negative: flow was not conserved (an unrecorded early exit, stale metadata). */
export interface ConservationViolation {
  /** The original edge, or -1 for EXIT→ENTRY (the activation count). */
  readonly edge: number;
  readonly count: number;
}

export interface DerivedEdgeCounts {
  readonly edgeCounts: number[];
  /** How many times the function was entered (the count of EXIT→ENTRY). */
  readonly activations: number;
  readonly violations: ConservationViolation[];
}

/**
 * Every edge count from the chord counters (thesis Figure 3.4, done iteratively by peeling tree leaves: a block
 * with one unknown incident tree edge determines it). `earlyExits[v]` counts activations that stopped in block
 * `v` without taking any edge (the thesis's exit counters, a conceptual measured edge `v→EXIT`): without them such
 * an activation would invent flow around a loop. A negative result is reported, not silently made positive.
 */
export function deriveEdgeCounts(
  plan: EdgeProfilePlan,
  counters: ArrayLike<number>,
  earlyExits?: ArrayLike<number>,
): DerivedEdgeCounts {
  const { blockCount, edgeCount, edgeSrc, edgeDst, edgeCounter, entry, exit } = plan;
  if (counters.length !== plan.counterCount) {
    throw new NumberingError(
      'invalid-option',
      `expected ${plan.counterCount} counters, got ${counters.length}`,
    );
  }
  if (earlyExits !== undefined && earlyExits.length !== blockCount) {
    throw new NumberingError(
      'invalid-option',
      `expected ${blockCount} early-exit counts, got ${earlyExits.length}`,
    );
  }
  const rootEdge = edgeCount;
  const src = (e: number): number => (e === rootEdge ? exit : edgeSrc[e]);
  const dst = (e: number): number => (e === rootEdge ? entry : edgeDst[e]);
  const count = new Float64Array(edgeCount + 1);
  // balance[v] = flow in - flow out over the known edges; solving an edge brings it to 0.
  const balance = new Float64Array(blockCount);
  const unknownDegree = new Int32Array(blockCount);
  const treeStart = new Int32Array(blockCount + 1);
  for (let e = 0; e <= edgeCount; e++) {
    if (e < edgeCount && edgeCounter[e] >= 0) {
      count[e] = counters[edgeCounter[e]];
      balance[src(e)] -= count[e];
      balance[dst(e)] += count[e];
    } else {
      unknownDegree[src(e)]++;
      unknownDegree[dst(e)]++;
    }
  }
  if (earlyExits !== undefined) {
    for (let v = 0; v < blockCount; v++) {
      balance[v] -= earlyExits[v];
      balance[exit] += earlyExits[v];
    }
  }
  for (let v = 0; v < blockCount; v++) treeStart[v + 1] = treeStart[v] + unknownDegree[v];
  const fill = treeStart.slice(0, blockCount);
  const incident = new Int32Array(treeStart[blockCount]);
  const known = new Uint8Array(edgeCount + 1);
  for (let e = 0; e <= edgeCount; e++) {
    if (e < edgeCount && edgeCounter[e] >= 0) {
      known[e] = 1;
      continue;
    }
    incident[fill[src(e)]++] = e;
    incident[fill[dst(e)]++] = e;
  }
  const queue = new Int32Array(blockCount);
  let head = 0;
  let tail = 0;
  for (let v = 0; v < blockCount; v++) if (unknownDegree[v] === 1) queue[tail++] = v;
  const violations: ConservationViolation[] = [];
  while (head < tail) {
    const v = queue[head++];
    if (unknownDegree[v] !== 1) continue;
    let e = -1;
    for (let i = treeStart[v]; i < treeStart[v + 1] && e < 0; i++)
      if (known[incident[i]] === 0) e = incident[i];
    // `0 - x` rather than `-x`: a derived count of zero must be 0, not -0.
    const value = dst(e) === v ? 0 - balance[v] : balance[v];
    count[e] = value;
    known[e] = 1;
    if (value < 0) violations.push({ edge: e === rootEdge ? -1 : e, count: value });
    balance[src(e)] -= value;
    balance[dst(e)] += value;
    for (const end of [src(e), dst(e)]) {
      unknownDegree[end]--;
      if (unknownDegree[end] === 1) queue[tail++] = end;
    }
  }
  return { edgeCounts: plainArray(count, edgeCount), activations: count[rootEdge], violations };
}
