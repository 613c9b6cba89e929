import { CorrelatedDecisions, decodePath, numberPaths, PathEnds } from '@pathprof/numbering';
import { baseSeed, caseCount } from '@pathprof/testkit';
import { structuredGraph } from './support/random-graphs';
import { forEachSeededCase } from './support/seeded-cases';

test('a path is infeasible when its decisions on one value leave it no class, as the count finds', () => {
  // Random values (2 to 5 classes) decided on random edges, and random correlated conditions: the paths
  // `contradiction` finds infeasible are those `feasibleCounts` leaves out, end by end.
  let infeasible = 0;
  forEachSeededCase(baseSeed(0xc0de), caseCount(60), 23, (rng) => {
    const graph = structuredGraph(rng, 24);
    const numbering = numberPaths(graph);
    if (numbering.pathCount > 400) return;
    const edges = Array.from({ length: graph.edgeCount }, (_, e) => e).filter(() => rng.chance(0.4));
    const implied: number[][] = [];
    const correlated: number[][] = [];
    for (const e of edges) {
      if (rng.chance(0.3)) {
        // Some correlated conditions reuse an implied value's edge: those constrain nothing more.
        const group = correlated[rng.int(correlated.length + 1)] ?? (correlated[correlated.length] = []);
        group.push(2 * e + rng.int(2));
        continue;
      }
      if (implied.length === 0 || rng.chance(0.3)) implied.push([2 + rng.int(4)]);
      const group = implied[rng.int(implied.length)];
      group.push(e, 1 + rng.int((1 << group[0]) - 1));
    }
    const decisions = new CorrelatedDecisions(graph.edgeCount, correlated, implied);
    const ends = new PathEnds(numbering);
    const enumerated = { return: 0, throw: 0, exception: 0, backedge: 0, cut: 0 };
    for (let id = 0; id < numbering.pathCount; id++) {
      const path = decodePath(numbering, id).edges;
      const against = decisions.contradiction(path);
      if (!against) {
        enumerated[ends.kindOfNumber(id)]++;
        continue;
      }
      infeasible++;
      // The decisions named are on the path, in its order, on one value, and leave it no class together.
      expect(against.length).toBeGreaterThanOrEqual(2);
      expect(against.map((e) => path.indexOf(e))).toEqual(
        [...against.map((e) => path.indexOf(e))].sort((a, b) => a - b),
      );
      const value = decisions.valueOf[against[0]];
      expect(against.every((e) => decisions.valueOf[e] === value)).toBe(true);
      expect(against.reduce((m, e) => m & decisions.mask[e], -1)).toBe(0);
    }
    expect(ends.feasibleCounts(decisions)).toEqual(enumerated);
  });
  expect(infeasible).toBeGreaterThan(100);
});

test('an implied value with three decisions, no two of which contradict', () => {
  // Three classes; each decision excludes one: only all three together leave none.
  const decisions = new CorrelatedDecisions(4, [], [[3, 0, 0b110, 1, 0b101, 2, 0b011]]);
  expect(decisions.contradiction([0, 1, 3])).toBeNull();
  expect(decisions.contradiction([0, 3, 1, 2])).toEqual([0, 1, 2]);
  expect(decisions.classTotal).toBe(3);
  expect(() => new CorrelatedDecisions(4, [], [[1, 0, 1]])).toThrow(RangeError);
});
