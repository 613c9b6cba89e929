import { countPathEnds, decodePath, NumberingError, numberPaths } from '@pathprof/numbering';
import { baseSeed, caseCount } from '@pathprof/testkit';
import { structuredGraph, unstructuredGraph } from './support/random-graphs';
import { forEachSeededCase } from './support/seeded-cases';

/** countPathEnds against decoding every path of random graphs and tallying how each one ends. */
describe('countPathEnds', () => {
  test.each([
    [
      'unstructured graphs with exceptions',
      (r: Parameters<typeof structuredGraph>[0]) => unstructuredGraph(r, 14, true),
    ],
    ['structured graphs', (r: Parameters<typeof structuredGraph>[0]) => structuredGraph(r, 30)],
  ])('%s: every path counted once, by how it ends', (_name, generate) => {
    const seen = { return: 0, exception: 0, backedge: 0, cut: 0, fromEntry: 0 };
    forEachSeededCase(baseSeed(0xe4d5), caseCount(300), 17, (rng) => {
      const graph = generate(rng);
      let numbering = numberPaths(graph);
      // Sometimes with a budget that forces cuts, so paths also end on cut edges.
      const budget = Math.ceil(numbering.pathCount / 2);
      if (rng.chance(0.4) && budget > 1) {
        try {
          numbering = numberPaths(graph, { maxPaths: budget });
        } catch (error) {
          if (!(error instanceof NumberingError && error.code === 'path-budget-too-small')) throw error;
        }
      }
      if (numbering.pathCount > 3000) return;
      const expected = { return: 0, exception: 0, backedge: 0, cut: 0, fromEntry: 0 };
      for (let p = 0; p < numbering.pathCount; p++) {
        const decoded = decodePath(numbering, p);
        expected[decoded.end.kind]++;
        if (decoded.start.kind === 'entry') expected.fromEntry++;
      }
      expect(countPathEnds(numbering)).toEqual(expected);
      for (const k of Object.keys(seen) as (keyof typeof seen)[]) seen[k] += expected[k];
    });
    // The cases must exercise every way a path can end.
    for (const n of Object.values(seen)) expect(n).toBeGreaterThan(0);
  });
});
