import { depthFirstSearch } from './backedges';
import { buildDag, ENTRY_DUMMY, EXIT_DUMMY, type Dag } from './dag';
import type { FlowGraph } from './flow-graph';
import { withExitEntryEdge } from './exit-entry-edge';
import { eventIncrements } from './increments';
import { NumberingError } from './numbering-error';
import { BACKEDGE, removeEdgesForBudget, type CutRecord } from './path-budget';
import { computePathValues, type SuccessorOrder } from './path-count';
import { plainArray } from './plain-array';
import type { PathOp } from './path-op';
import { placeDagOps, type PlacementMode } from './placement';
import { registerRange, type RegisterRange } from './register-range';
import { maximumSpanningTree } from './spanning-tree';
import { chooseStorage, type StorageDecision } from './storage';
import { validateFlowGraph } from './validate';
import { checkEdgeWeights, estimateEdgeWeights } from './weights';

/** V8 keeps integers in [-2^30, 2^30) unboxed; path counts default to that range. */
export const DEFAULT_MAX_PATHS = 2 ** 30;
export const DEFAULT_ARRAY_THRESHOLD = 4096;

export interface NumberingOptions {
  /**
   * Estimated execution count per original edge, for the spanning tree (heavy edges stay uninstrumented):
   * counts from an earlier profile, or by default Ball's static estimate (`staticEdgeWeights`).
   */
  readonly weights?: ArrayLike<number>;
  /** The most paths a function may have; above it edges are cut like backedges. Default 2^30. */
  readonly maxPaths?: number;
  /** Functions with at most this many paths count into an array, others into a hash table. Default 4096. */
  readonly arrayThreshold?: number;
  readonly placement?: PlacementMode;
  readonly successorOrder?: SuccessorOrder;
}

export interface RemovedEdge {
  readonly edge: number;
  readonly kind: 'backedge' | 'cut';
}

/** The overflow policy's report, present when the function did not fit `maxPaths` without cuts. */
export interface OverflowReport {
  readonly maxPaths: number;
  /** The per-block path-count threshold above which every cuttable out-edge of a block was cut. */
  readonly threshold: number;
  readonly cuts: readonly CutRecord[];
}

/** The numbered DAG, kept so that a report can decode path numbers without recomputing anything. */
export interface NumberedDag {
  readonly edgeCount: number;
  readonly src: readonly number[];
  readonly dst: readonly number[];
  /** `REAL_EDGE` (0), `ENTRY_DUMMY` (1) or `EXIT_DUMMY` (2). */
  readonly kind: readonly number[];
  /** The original edge of a real edge, the removed original edge of an exit dummy, -1 for an entry dummy. */
  readonly origin: readonly number[];
  readonly val: readonly number[];
  /** 1 for chords of the spanning tree (the edges whose increment is not 0 by construction). */
  readonly chord: readonly number[];
  readonly increment: readonly number[];
}

/** Everything the instrumenter emits and the report needs for one function; plain data, JSON-serialisable. */
export interface PathNumbering {
  readonly format: 'pathprof-numbering/1';
  readonly blockCount: number;
  readonly entry: number;
  readonly exit: number;
  readonly edgeCount: number;
  /** The original graph's edges, so that decoding needs nothing else. */
  readonly edgeSrc: readonly number[];
  readonly edgeDst: readonly number[];
  readonly edgeExceptional: readonly number[];
  readonly edgeSilent: readonly number[];
  /** N: path numbers are `0 .. pathCount-1`. */
  readonly pathCount: number;
  readonly placement: PlacementMode;
  readonly successorOrder: SuccessorOrder;
  /** Runs once at function entry, before the body (and outside its `try`). */
  readonly prologue: readonly PathOp[];
  /** Per original edge, the ops to run when the edge is taken, in order. */
  readonly edgeOps: readonly (readonly PathOp[])[];
  readonly removedEdges: readonly RemovedEdge[];
  readonly overflow: OverflowReport | null;
  readonly storage: StorageDecision;
  readonly dag: NumberedDag;
  /** Per block `v`: while a path is in progress at `v`, its `Val` sum so far is `r + queryIncrement[v]`. */
  readonly queryIncrement: readonly number[];
  readonly registerRange: RegisterRange;
}

/**
 * Ball-Larus path numbering and efficient placement for one function's graph: backedges by DFS, the overflow
 * policy, `Val` in reverse topological order, a maximum spanning tree with EXIT→ENTRY and every exceptional
 * edge forced in, chord increments by event counting, Figure 8 placement, and the ops mapped back onto the
 * original edges (a backedge or cut edge runs the ops of its dummy `v→EXIT`, then those of `ENTRY→w`).
 */
export function numberPaths(graph: FlowGraph, options: NumberingOptions = {}): PathNumbering {
  const maxPaths = options.maxPaths ?? DEFAULT_MAX_PATHS;
  const arrayThreshold = options.arrayThreshold ?? DEFAULT_ARRAY_THRESHOLD;
  const placement = options.placement ?? 'prologue';
  const successorOrder = options.successorOrder ?? 'most-paths-last';
  if (!Number.isSafeInteger(maxPaths) || maxPaths < 1) invalidOption(`maxPaths must be a positive integer`);
  if (!Number.isSafeInteger(arrayThreshold) || arrayThreshold < 0) {
    invalidOption('arrayThreshold must be a non-negative integer');
  }
  if (placement !== 'prologue' && placement !== 'paper') invalidOption(`unknown placement ${placement}`);
  if (successorOrder !== 'most-paths-last' && successorOrder !== 'edge-id') {
    invalidOption(`unknown successorOrder ${successorOrder}`);
  }
  const adjacency = validateFlowGraph(graph);
  if (placement === 'paper' && (graph.edgeExceptional.includes(1) || graph.edgeSilent?.includes(1))) {
    invalidOption("placement 'paper' pushes r = 0 onto merge edges, which codeless edges cannot carry");
  }
  const dfs = depthFirstSearch(graph, adjacency.out);
  const weights = options.weights ?? estimateEdgeWeights(graph, adjacency, dfs);
  checkEdgeWeights(weights, graph.edgeCount);

  const removal = removeEdgesForBudget(graph, adjacency.out, dfs, maxPaths);
  const dag = buildDag(graph, removal.removed);
  const { val, pathCount } = computePathValues(dag, dfs.topologicalOrder, successorOrder);

  // The tree spans the DAG plus EXIT→ENTRY, which is forced in with every exceptional and silent edge.
  const { rootEdge, src, dst, forced } = withExitEntryEdge(
    dag.src,
    dag.dst,
    dag.codeless,
    dag.entry,
    dag.exit,
  );
  const inTree = maximumSpanningTree({
    nodeCount: dag.nodeCount,
    edgeCount: rootEdge + 1,
    src,
    dst,
    weight: dagWeights(dag, weights),
    forced,
    describe: (e) =>
      e === rootEdge
        ? 'EXIT→ENTRY'
        : `${dag.exceptional[e] === 1 ? 'exceptional' : 'silent'} edge ${dag.origin[e]}`,
  });
  const { increment, queryIncrement } = eventIncrements(
    { nodeCount: dag.nodeCount, edgeCount: rootEdge + 1, src, dst, root: dag.entry, inTree },
    { edge: val },
  );
  const dagOps = placeDagOps(dag, inTree, increment, placement);
  const edgeOps = originalEdgeOps(graph, dag, dagOps);
  const range = registerRange(dag, dfs.topologicalOrder, val, queryIncrement);
  checkExact(pathCount, [increment, queryIncrement], range);

  const removedEdges: RemovedEdge[] = [];
  for (let e = 0; e < graph.edgeCount; e++) {
    if (dag.exitDummyOf[e] >= 0)
      removedEdges.push({ edge: e, kind: removal.removed[e] === BACKEDGE ? 'backedge' : 'cut' });
  }
  return {
    format: 'pathprof-numbering/1',
    blockCount: graph.blockCount,
    entry: graph.entry,
    exit: graph.exit,
    edgeCount: graph.edgeCount,
    edgeSrc: plainArray(graph.edgeSrc),
    edgeDst: plainArray(graph.edgeDst),
    edgeExceptional: plainArray(graph.edgeExceptional),
    edgeSilent: plainArray(graph.edgeSilent ?? new Uint8Array(graph.edgeCount)),
    pathCount,
    placement,
    successorOrder,
    prologue: placement === 'prologue' ? [{ kind: 'set', value: 0 }] : [],
    edgeOps,
    removedEdges,
    overflow:
      removal.threshold === null ? null : { maxPaths, threshold: removal.threshold, cuts: removal.cuts },
    storage: chooseStorage(pathCount, arrayThreshold),
    dag: {
      edgeCount: dag.edgeCount,
      src: plainArray(dag.src),
      dst: plainArray(dag.dst),
      kind: plainArray(dag.kind),
      origin: plainArray(dag.origin),
      val: plainArray(val),
      chord: plainArray(inTree, rootEdge).map((t) => 1 - t),
      increment: plainArray(increment, rootEdge),
    },
    queryIncrement: plainArray(queryIncrement),
    registerRange: range,
  };
}

function invalidOption(message: string): never {
  throw new NumberingError('invalid-option', message);
}

/**
 * A dummy runs where its removed edges run: `v→EXIT` weighs what its removed edge weighs, `ENTRY→w` what all
 * removed edges into `w` weigh together.
 */
function dagWeights(dag: Dag, weights: ArrayLike<number>): Float64Array {
  const weight = new Float64Array(dag.edgeCount + 1);
  for (let d = 0; d < dag.edgeCount; d++) {
    if (dag.kind[d] !== ENTRY_DUMMY) weight[d] = weights[dag.origin[d]];
    if (dag.kind[d] === EXIT_DUMMY)
      weight[dag.entryDummyOf[dag.dst[dag.origin[d]]]] += weights[dag.origin[d]];
  }
  return weight;
}

/**
 * Maps DAG ops onto original edges and checks the exception contract the instrumenter relies on: an exceptional
 * edge into a handler inside the function carries nothing, and one into EXIT carries exactly `count[r]`, which
 * the function-level handler runs.
 */
function originalEdgeOps(graph: FlowGraph, dag: Dag, dagOps: PathOp[][]): PathOp[][] {
  const edgeOps: PathOp[][] = new Array(graph.edgeCount);
  for (let e = 0; e < graph.edgeCount; e++) {
    const real = dag.realEdgeOf[e];
    edgeOps[e] =
      real >= 0
        ? dagOps[real]
        : [...dagOps[dag.exitDummyOf[e]], ...dagOps[dag.entryDummyOf[graph.edgeDst[e]]]];
    if (graph.edgeExceptional[e] === 1) {
      const ops = edgeOps[e];
      const valid =
        graph.edgeDst[e] === graph.exit
          ? ops.length === 1 && ops[0].kind === 'count-add' && ops[0].value === 0
          : ops.length === 0;
      if (!valid) throw new Error(`internal: exceptional edge ${e} got ops ${JSON.stringify(ops)}`);
    }
    if (graph.edgeSilent?.[e] === 1 && edgeOps[e].length > 0) {
      throw new Error(`internal: silent edge ${e} got ops ${JSON.stringify(edgeOps[e])}`);
    }
  }
  return edgeOps;
}

/** Doubles are exact integers up to 2^53; beyond that two paths could share a number. */
function checkExact(pathCount: number, values: readonly Float64Array[], range: RegisterRange): void {
  let largest = Math.max(pathCount, -range.min, range.max);
  for (const array of values) for (const x of array) largest = Math.max(largest, Math.abs(x));
  if (largest > Number.MAX_SAFE_INTEGER) {
    throw new NumberingError(
      'inexact-arithmetic',
      `path arithmetic reaches ${largest}, beyond exact doubles; lower maxPaths`,
    );
  }
}
