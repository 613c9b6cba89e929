// Property tests of preferential path profiling on seeded random graphs (loops, exceptions, irreducible
// regions). Reproduce a failure with PATHPROF_SEED=<base seed>, soak with PATHPROF_SOAK=<multiplier>.
import {
  classifyPreferentialPath,
  numberPaths,
  numberPreferentialPaths,
  preferentialIdOf,
  type FlowGraph,
  type PathNumbering,
  type PathOp,
  type PreferentialNumbering,
} from '@pathprof/numbering';
import { baseSeed, caseCount, type Random } from '@pathprof/testkit';
import { allDagPaths } from '../support/dag-paths';
import { expectSame } from '../support/fast-expect';
import { structuredGraph, unstructuredGraph, withSilentEdges } from '../support/random-graphs';
import { forEachSeededCase } from '../support/seeded-cases';
import { execute } from '../support/simulate';
import { GraphRoutes } from '../support/walks';

const SEED = baseSeed(0x9d9);
const ENUMERATION_LIMIT = 300;

function forEachGraph(count: number, salt: number, check: (rng: Random, graph: FlowGraph) => void): void {
  forEachSeededCase(SEED, count, salt, (rng) =>
    check(rng, rng.chance(0.5) ? unstructuredGraph(rng, 14, rng.chance(0.5)) : structuredGraph(rng, 28)),
  );
}

function ppp(numbering: PathNumbering, pathIds: number[]): PreferentialNumbering {
  const target = { functionName: 'f', fingerprint: 'x', numbering };
  return numberPreferentialPaths(target, { functionName: 'f', fingerprint: 'x', pathIds });
}

it('with every path interesting, PPP is Ball-Larus: same weights, ids and array size', () => {
  let compared = 0;
  forEachGraph(caseCount(300), 0, (rng, graph) => {
    const numbering = numberPaths(graph, { successorOrder: rng.chance(0.5) ? 'edge-id' : 'most-paths-last' });
    if (numbering.pathCount > ENUMERATION_LIMIT) return;
    compared++;
    const all = ppp(
      numbering,
      Array.from({ length: numbering.pathCount }, (_, i) => numbering.pathCount - 1 - i),
    );
    expectSame(all.weight, numbering.dag.val);
    expectSame(
      all.slotPathId,
      all.slotPathId.map((_, i) => i),
    );
    expectSame([all.arraySize, all.compactness], [numbering.pathCount, 1]);
  });
  expect(compared).toBeGreaterThan(caseCount(300) / 2);
});

it('gives a random interesting set unique ids from 0, and classifies every path by membership', () => {
  let classified = 0;
  forEachGraph(caseCount(300), 1, (rng, graph) => {
    const numbering = numberPaths(graph);
    const paths = allDagPaths(numbering, ENUMERATION_LIMIT);
    if (paths === null) return;
    const chosen = paths.map((_, id) => id).filter(() => rng.chance(rng.next()));
    const numbered = ppp(numbering, chosen);
    const slots = chosen.map((id) => preferentialIdOf(numbered, numbering, id));
    expectSame(new Set(slots).size, chosen.length);
    if (chosen.length > 0) expectSame(Math.min(...slots), 0);
    expectSame(Math.max(-1, ...slots) + 1, numbered.arraySize);
    const interesting = new Set(chosen);
    for (let id = 0; id < numbering.pathCount; id++) {
      const c = classifyPreferentialPath(numbered, preferentialIdOf(numbered, numbering, id), id);
      expectSame(c.kind === 'interesting', interesting.has(id));
      classified++;
    }
  });
  expect(classified).toBeGreaterThan(caseCount(300) * 5);
});

it('instruments the PPP register beside Ball-Larus: paths end on the same edges, and the pair classifies them right', () => {
  let counted = 0;
  let silent = 0;
  forEachGraph(caseCount(300), 2, (rng, unsilent) => {
    // Silent edges carry no code: the PPP register must be placed around them exactly as Ball-Larus is.
    let graph = rng.chance(0.4) ? withSilentEdges(unsilent, rng) : unsilent;
    let numbering: PathNumbering;
    try {
      numbering = numberPaths(graph);
    } catch {
      // A silent edge the numbering refuses (one closing a cycle); the graph builder never makes one.
      graph = unsilent;
      numbering = numberPaths(graph);
    }
    if (graph.edgeSilent?.includes(1)) silent++;
    const chosen = Array.from({ length: Math.min(numbering.pathCount, 64) }, () =>
      rng.int(numbering.pathCount),
    );
    const numbered = ppp(numbering, [...new Set(chosen)]);
    const ends = (ops: readonly PathOp[]) =>
      ops.map((op) => (op.kind === 'count-add' || op.kind === 'count-const' ? 'end' : 'update'));
    for (let e = 0; e < graph.edgeCount; e++) {
      const blEnds = ends(numbering.edgeOps[e]).filter((k) => k === 'end').length;
      expectSame(ends(numbered.edgeOps[e]).filter((k) => k === 'end').length, blEnds);
    }
    const interesting = new Set(numbered.slotPathId);
    const routes = new GraphRoutes(graph);
    for (let k = 0; k < 8; k++) {
      const walk = routes.walk(rng, rng.range(0, 30)).edges;
      const pathIds = execute(numbering, walk).counted;
      const pppIds = execute(
        { ...numbering, prologue: numbered.prologue, edgeOps: numbered.edgeOps },
        walk,
      ).counted;
      expectSame(
        pppIds,
        pathIds.map((id) => preferentialIdOf(numbered, numbering, id)),
      );
      pathIds.forEach((id, i) => {
        const c = classifyPreferentialPath(numbered, pppIds[i], id);
        expectSame(c.kind === 'interesting', interesting.has(id));
      });
      counted += pathIds.length;
    }
  });
  expect(counted).toBeGreaterThan(caseCount(300) * 8);
  expect(silent).toBeGreaterThan(caseCount(300) / 10);
});
