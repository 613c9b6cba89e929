// Property tests on thousands of seeded random graphs. A failure names its base seed and case; reproduce it with
// PATHPROF_SEED=<base seed>, soak with PATHPROF_SOAK=<multiplier>.
import {
  blockCountsFromPaths,
  deriveEdgeCounts,
  edgeProfileOps,
  edgeCountsFromPaths,
  LOOP_MULTIPLIER,
  numberPaths,
  planEdgeProfile,
  staticEdgeWeights,
  type FlowGraph,
} from '@pathprof/numbering';
import { baseSeed, caseCount, type Random } from '@pathprof/testkit';
import { forEachSeededCase } from './support/seeded-cases';
import { expectSame } from './support/fast-expect';
import { bruteForceCounts, checkNumbering, pathProfile, WALKS_PER_GRAPH } from './support/numbering-checks';
import { GRAPH_FAMILIES } from './support/random-graphs';
import { referenceWeights } from './support/reference-weights';
import { execute } from './support/simulate';
import { GraphRoutes } from './support/walks';

const SEED = baseSeed(0x5eed);

/**
 * A budget the overflow policy always meets: at the last threshold (1) every block with more than one path has
 * all cuttable out-edges cut, leaving it one path per normal out-edge plus those of its exceptional target.
 * Summed over the entry's out-edges and one entry dummy per block, that bounds the path count.
 */
function cutPolicyBound(graph: FlowGraph): number {
  const { blockCount, edgeCount, edgeSrc, edgeDst, edgeExceptional, entry } = graph;
  const normalOut = new Array<number>(blockCount).fill(0);
  const handler = new Array<number>(blockCount).fill(-1);
  for (let e = 0; e < edgeCount; e++) {
    if (edgeExceptional[e] === 1) handler[edgeSrc[e]] = edgeDst[e];
    else normalOut[edgeSrc[e]]++;
  }
  const bound = (v: number): number => Math.max(1, normalOut[v] + (handler[v] >= 0 ? bound(handler[v]) : 0));
  let total = 0;
  for (let e = 0; e < edgeCount; e++) if (edgeSrc[e] === entry) total += bound(edgeDst[e]);
  for (let v = 0; v < blockCount; v++) if (v !== entry) total += bound(v);
  return total;
}

/** Runs `check` on `count` graphs, each from its own seed, naming the seed when it fails. */
function forEachCase(count: number, salt: number, check: (rng: Random) => void): void {
  forEachSeededCase(SEED, count, salt, check);
}

const generators = GRAPH_FAMILIES;

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
      const fits = cutPolicyBound(graph);
      const maxPaths = rng.range(fits, fits + 2 * graph.edgeCount);
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

  it("estimates static weights exactly as Ball's rules applied literally", () => {
    forEachCase(caseCount(300), salt + 5, (rng) => {
      const graph = generate(rng);
      expectSame(Array.from(staticEdgeWeights(graph)), referenceWeights(graph, LOOP_MULTIPLIER));
    });
  });

  it('edge mode: chord counters and conservation give every edge count, early exits included', () => {
    forEachCase(caseCount(300), salt + 4, (rng) => {
      const graph = generate(rng);
      const weights = rng.chance(0.5)
        ? undefined
        : Float64Array.from({ length: graph.edgeCount }, () => rng.int(50));
      // Without weights, the static estimate with some branches predicted unlikely.
      const unlikely = [...Array(graph.edgeCount).keys()].filter(() => rng.chance(0.2));
      const plan = planEdgeProfile(graph, { weights, unlikely });
      expectSame(
        plan.counterCount,
        graph.edgeCount - graph.blockCount + 2 + (plan.discardCounter >= 0 ? 1 : 0),
      );
      // The emitted ops, run along each walk, increment exactly the counters the plan gives the edges taken
      // (a throw: its block's throw counter, counted where it lands).
      const ops = edgeProfileOps(plan);
      const routes = new GraphRoutes(graph);
      const counters = new Array<number>(plan.counterCount).fill(0);
      const earlyExits = new Array<number>(graph.blockCount).fill(0);
      const walks: number[][] = [];
      for (let k = 0; k < WALKS_PER_GRAPH; k++) {
        const { edges, abandonedAt } = routes.walk(rng, rng.range(0, 40), 0.2, rng.chance(0.3) ? 0.05 : 0);
        walks.push(edges);
        if (abandonedAt >= 0) earlyExits[abandonedAt]++;
        const counted = execute(ops, edges).counted;
        const expected = edges
          .map((e) =>
            graph.edgeExceptional[e] === 1 ? plan.throwCounter[graph.edgeSrc[e]] : plan.edgeCounter[e],
          )
          .filter((c) => c >= 0);
        expectSame(counted, expected);
        for (const c of counted) counters[c]++;
      }
      const derived = deriveEdgeCounts(plan, counters, earlyExits);
      expectSame(derived.edgeCounts, bruteForceCounts(graph, walks).edges);
      expectSame(derived.activations, WALKS_PER_GRAPH);
      expectSame(derived.violations, []);
    });
  });
});
