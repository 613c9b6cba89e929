// Property tests on thousands of seeded random graphs. Reproduce a failure with PATHPROF_SEED=<seed printed in
// the failure>; soak with PATHPROF_SOAK=<multiplier>.
import {
  blockCountsFromPaths,
  decodePath,
  deriveEdgeCounts,
  edgeCountsFromPaths,
  numberPaths,
  planEdgeProfile,
  type FlowGraph,
  type NumberingOptions,
  type PathNumbering,
} from '@pathprof/numbering';
import { baseSeed, caseCount, Random } from '@pathprof/testkit';
import { allDagPaths, isAcyclicWithout } from './support/dag-paths';
import { expectSame } from './support/fast-expect';
import { structuredGraph, unstructuredGraph } from './support/random-graphs';
import { dagMaps, execute, expectedPaths, walkBlocks, type DagMaps } from './support/simulate';
import { GraphRoutes } from './support/walks';

const SEED = baseSeed(0x5eed);
/** Graphs with at most this many paths are checked path by path; all graphs are checked by random walks. */
const ENUMERATION_LIMIT = 400;
const WALKS_PER_GRAPH = 12;

interface Checked {
  readonly numbering: PathNumbering;
  readonly walks: number[][];
  readonly counted: number[][];
}

/**
 * Numbers `graph` and checks every property that does not depend on the spanning tree: a feedback set of
 * removed edges, dense unique numbers, decoding, the exception contract, and that executing the emitted ops
 * counts each path of each walk exactly once with its number (the register exact wherever a throw could happen).
 */
function checkNumbering(graph: FlowGraph, options: NumberingOptions, rng: Random): Checked {
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
function checkWalk(numbering: PathNumbering, maps: DagMaps, walk: readonly number[]): number[] {
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
function bruteForceCounts(
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

function pathProfile(counted: readonly number[][]): Map<number, number> {
  const profile = new Map<number, number>();
  for (const numbers of counted) for (const n of numbers) profile.set(n, (profile.get(n) ?? 0) + 1);
  return profile;
}

/** Runs `check` on `count` graphs, each from its own seed, naming the seed when it fails. */
function forEachCase(count: number, salt: number, check: (rng: Random, seed: number) => void): void {
  for (let i = 0; i < count; i++) {
    const seed = (SEED + salt + i * 7919) >>> 0;
    try {
      check(new Random(seed), seed);
    } catch (error) {
      throw new Error(`case seed ${seed} (salt ${salt}, case ${i}): ${(error as Error).message}`);
    }
  }
}

const generators: [string, (rng: Random) => FlowGraph][] = [
  ['unstructured graphs without exceptions', (rng) => unstructuredGraph(rng, 16, false)],
  ['unstructured graphs with exceptional edges', (rng) => unstructuredGraph(rng, 16, true)],
  ['structured graphs (try/catch in loops, irreducible regions)', (rng) => structuredGraph(rng, 36)],
];

describe.each(generators)('%s', (name, generate) => {
  const salt = generators.findIndex(([n]) => n === name) * 1_000_003;
  const hasExceptions = name !== generators[0][0];

  it('numbers densely, decodes, and counts every path exactly once; derived counts are exact', () => {
    forEachCase(caseCount(500), salt, (rng) => {
      const graph = generate(rng);
      const successorOrder = rng.chance(0.5) ? 'most-paths-last' : 'edge-id';
      const { numbering, walks, counted } = checkNumbering(graph, { successorOrder }, rng);
      const brute = bruteForceCounts(graph, walks);
      expectSame(edgeCountsFromPaths(numbering, pathProfile(counted)), brute.edges);
      expectSame(blockCountsFromPaths(numbering, pathProfile(counted)), brute.blocks);
    });
  });

  it('gives the same numbers under every spanning tree (random weights)', () => {
    forEachCase(caseCount(250), salt + 1, (rng) => {
      const graph = generate(rng);
      const reference = numberPaths(graph);
      const weights = Float64Array.from({ length: graph.edgeCount }, () => rng.int(100));
      const { numbering, walks, counted } = checkNumbering(graph, { weights }, rng);
      expectSame(numbering.dag.val, reference.dag.val);
      expectSame(numbering.removedEdges, reference.removedEdges);
      expectSame(
        walks.map((walk) => execute(reference, walk).counted),
        counted,
      );
    });
  });

  if (!hasExceptions) {
    it("places correctly under the paper's own placement", () => {
      forEachCase(caseCount(250), salt + 2, (rng) => {
        checkNumbering(generate(rng), { placement: 'paper' }, rng);
      });
    });
  }

  it('cuts edges to fit a small path budget and still numbers and counts exactly', () => {
    let cutGraphs = 0;
    forEachCase(caseCount(250), salt + 3, (rng) => {
      const graph = generate(rng);
      const maxPaths = rng.range(2 * graph.edgeCount, 4 * graph.edgeCount);
      const { numbering, walks, counted } = checkNumbering(graph, { maxPaths }, rng);
      expect(numbering.pathCount).toBeLessThanOrEqual(maxPaths);
      const cuts = numbering.overflow?.cuts ?? [];
      if (cuts.length > 0) cutGraphs++;
      expectSame(
        numbering.removedEdges.filter((r) => r.kind === 'cut').map((r) => r.edge),
        cuts.map((c) => c.edge).sort((a, b) => a - b),
      );
      for (const cut of cuts) {
        expectSame(graph.edgeSrc[cut.edge], cut.block);
        expect(graph.edgeDst[cut.edge]).not.toBe(graph.exit);
        expect(cut.pathsFromBlock).toBeGreaterThan(cut.threshold);
      }
      expectSame(edgeCountsFromPaths(numbering, pathProfile(counted)), bruteForceCounts(graph, walks).edges);
    });
    expect(cutGraphs).toBeGreaterThan(0);
  });

  it('edge mode: chord counters and conservation give every edge count, early exits included', () => {
    forEachCase(caseCount(300), salt + 4, (rng) => {
      const graph = generate(rng);
      const weights = rng.chance(0.5)
        ? undefined
        : Float64Array.from({ length: graph.edgeCount }, () => rng.int(50));
      const plan = planEdgeProfile(graph, { weights });
      for (let e = 0; e < graph.edgeCount; e++)
        if (graph.edgeExceptional[e] === 1) expectSame(plan.edgeCounter[e], -1);
      expectSame(plan.counterCount, graph.edgeCount - graph.blockCount + 1 + 1);
      const routes = new GraphRoutes(graph);
      const counters = new Array<number>(plan.counterCount).fill(0);
      const earlyExits = new Array<number>(graph.blockCount).fill(0);
      const walks: number[][] = [];
      for (let k = 0; k < WALKS_PER_GRAPH; k++) {
        const { edges, abandonedAt } = routes.walk(rng, rng.range(0, 40), 0.2, rng.chance(0.3) ? 0.05 : 0);
        walks.push(edges);
        if (abandonedAt >= 0) earlyExits[abandonedAt]++;
        for (const e of edges) if (plan.edgeCounter[e] >= 0) counters[plan.edgeCounter[e]]++;
      }
      const derived = deriveEdgeCounts(plan, counters, earlyExits);
      expectSame(derived.edgeCounts, bruteForceCounts(graph, walks).edges);
      expectSame(derived.activations, WALKS_PER_GRAPH);
      expectSame(derived.violations, []);
    });
  });
});
