import {
  decodePath,
  numberPaths,
  PathDecoder,
  type FlowGraph,
  type NumberingOptions,
  type PathNumbering,
} from '@pathprof/numbering';
import type { Random } from '@pathprof/testkit';
import { allDagPaths, isAcyclicWithout } from './dag-paths';
import { expectSame } from './fast-expect';
import { dagMaps, execute, expectedPaths, walkBlocks, type DagMaps } from './simulate';
import { GraphRoutes } from './walks';

/** Graphs with at most this many paths are checked path by path; all graphs are checked by random walks. */
const ENUMERATION_LIMIT = 400;
export const WALKS_PER_GRAPH = 12;

export interface Checked {
  readonly numbering: PathNumbering;
  readonly walks: number[][];
  readonly counted: number[][];
}

/**
 * Numbers `graph` and checks every property that does not depend on the spanning tree: a feedback set of
 * removed edges, dense unique numbers, decoding, the exception contract, and that executing the emitted ops
 * counts each path of each walk exactly once with its number (the register exact wherever a throw could happen).
 */
export function checkNumbering(graph: FlowGraph, options: NumberingOptions, rng: Random): Checked {
  const numbering = numberPaths(graph, options);
  const maps = dagMaps(numbering);
  const routes = new GraphRoutes(graph);
  const removed = new Set(numbering.removedEdges.map((r) => r.edge));
  expectSame(isAcyclicWithout(numbering, removed), true);
  for (const { edge } of numbering.removedEdges) {
    expectSame(graph.edgeExceptional[edge], 0);
  }
  for (let e = 0; e < graph.edgeCount; e++) {
    if (graph.edgeExceptional[e] === 0) continue;
    expectSame(numbering.dag.chord[maps.realEdgeOf[e]], 0);
    expectSame(
      numbering.edgeOps[e],
      graph.edgeDst[e] === graph.exit ? [{ kind: 'count-add', value: 0 }] : [],
    );
  }

  const paths = allDagPaths(numbering, ENUMERATION_LIMIT);
  if (paths !== null) {
    expectSame(paths.length, numbering.pathCount);
    const numbers = paths.map((p) => p.reduce((sum, d) => sum + numbering.dag.val[d], 0));
    expectSame(
      [...numbers].sort((a, b) => a - b),
      numbers.map((_, i) => i),
    );
    paths.forEach((p, i) => {
      expectSame(decodePath(numbering, numbers[i]).dagEdges, p);
      checkWalk(numbering, maps, coveringWalk(numbering, routes, p));
    });
    // In increasing order, as a report decodes counted paths: each keeps what it shares with the one before.
    const byNumber: number[][] = [];
    paths.forEach((p, i) => (byNumber[numbers[i]] = p));
    const decoder = new PathDecoder(numbering);
    byNumber.forEach((p, n) => expectSame(Array.from(decoder.dagEdges.subarray(0, decoder.decode(n))), p));
  }

  const walks: number[][] = [];
  const counted: number[][] = [];
  for (let k = 0; k < WALKS_PER_GRAPH; k++) {
    const walk = routes.walk(rng, rng.range(0, 40), rng.chance(0.5) ? 0.05 : 0.3).edges;
    walks.push(walk);
    counted.push(checkWalk(numbering, maps, walk));
  }
  return { numbering, walks, counted };
}

/** Executes the ops along `walk` and compares with the numbers the DAG's `Val` assigns to its paths. */
export function checkWalk(numbering: PathNumbering, maps: DagMaps, walk: readonly number[]): number[] {
  const run = execute(numbering, walk);
  const expected = expectedPaths(numbering, maps, walk);
  expectSame(run.counted, expected.numbers);
  if (numbering.placement === 'prologue') {
    // Until its count, a path's register is exact: r + queryIncrement[v] is the Val sum so far.
    const blocks = walkBlocks(numbering, walk);
    for (let i = 0; i < blocks.length; i++) {
      if (expected.pathIndex[i] !== run.countedBefore[i] || blocks[i] === numbering.exit) continue;
      expectSame(run.register[i] + numbering.queryIncrement[blocks[i]], expected.prefix[i]);
    }
  }
  // Each decoded path ends on the edge where the walk's corresponding path ended.
  const endings = walk.filter((e) => maps.realEdgeOf[e] < 0 || numbering.edgeDst[e] === numbering.exit);
  expectSame(
    expected.numbers.map((n) => decodePath(numbering, n).end.edge),
    endings,
  );
  return run.counted;
}

/** A walk that runs DAG path `p` as one of its paths: reach its start, run it, then leave for the exit. */
function coveringWalk(numbering: PathNumbering, routes: GraphRoutes, p: readonly number[]): number[] {
  const { dag } = numbering;
  const walk: number[] = [];
  if (dag.kind[p[0]] === 1) {
    const into = numbering.removedEdges.find((r) => numbering.edgeDst[r.edge] === dag.dst[p[0]]);
    if (into === undefined) throw new Error('entry dummy without a removed edge');
    walk.push(...routes.fromEntryTo(numbering.edgeSrc[into.edge]), into.edge);
  }
  for (const d of p) if (dag.kind[d] !== 1) walk.push(dag.origin[d]);
  const last = p[p.length - 1];
  if (dag.kind[last] === 2) walk.push(...routes.toExitFrom(numbering.edgeDst[dag.origin[last]]));
  return walk;
}

/** Edge and block counts of walks, counted directly. */
export function bruteForceCounts(
  graph: FlowGraph,
  walks: readonly (readonly number[])[],
): { edges: number[]; blocks: number[] } {
  const edges = new Array<number>(graph.edgeCount).fill(0);
  const blocks = new Array<number>(graph.blockCount).fill(0);
  for (const walk of walks) {
    blocks[graph.entry]++;
    for (const e of walk) {
      edges[e]++;
      blocks[graph.edgeDst[e]]++;
    }
  }
  return { edges, blocks };
}

export function pathProfile(counted: readonly number[][]): Map<number, number> {
  const profile = new Map<number, number>();
  for (const numbers of counted) for (const n of numbers) profile.set(n, (profile.get(n) ?? 0) + 1);
  return profile;
}
