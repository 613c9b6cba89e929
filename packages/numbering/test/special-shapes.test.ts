// Graph shapes the paper singles out: one path, self-loops, parallel backedges; and the metadata as JSON.
import { blockCountsFromPaths, decodePath, edgeCountsFromPaths, numberPaths } from '@pathprof/numbering';
import { Random } from '@pathprof/testkit';
import { namedGraph } from './support/named-graph';
import { checkNumbering } from './support/numbering-checks';
import { execute } from './support/simulate';

describe('a function with a single path', () => {
  it('still counts it: EXIT→ENTRY in the tree makes ENTRY→EXIT a chord, first and last: count[0]++', () => {
    const graph = namedGraph('ENTRY', 'EXIT', ['ENTRY->EXIT']).graph;
    const numbering = numberPaths(graph);
    expect(numbering.pathCount).toBe(1);
    expect(numbering.edgeOps).toEqual([[{ kind: 'count-const', value: 0 }]]);
    expect(decodePath(numbering, 0).end).toEqual({ kind: 'return', edge: 0 });
  });
});

describe('a self-loop', () => {
  const named = namedGraph('ENTRY', 'EXIT', ['ENTRY->L', 'L->L', 'L->EXIT']);

  it('is a backedge ending one path and starting the next, each iteration counted', () => {
    const numbering = checkNumbering(named.graph, {}, new Random(3)).numbering;
    expect(numbering.removedEdges).toEqual([{ edge: named.edge('L->L'), kind: 'backedge' }]);
    expect(numbering.pathCount).toBe(4);
    const walk = ['ENTRY->L', 'L->L', 'L->L', 'L->EXIT'].map((l) => named.edge(l));
    const paths = execute(numbering, walk).counted.map((n) => decodePath(numbering, n));
    expect(paths.map((p) => [p.start.kind, p.end.kind])).toEqual([
      ['entry', 'backedge'],
      ['after-removed-edge', 'backedge'],
      ['after-removed-edge', 'return'],
    ]);
    expect(blockCountsFromPaths(numbering, new Map(paths.map((p) => [p.pathNumber, 1])))).toEqual([1, 1, 3]);
  });
});

describe('parallel backedges out of one block', () => {
  // while (c) { if (d) continue; else continue; } as a CFG that keeps both edges to the header.
  const named = namedGraph('ENTRY', 'EXIT', ['ENTRY->H', 'H->B', 'B->H', 'B->H', 'H->EXIT']);

  it('get a dummy v→EXIT each, so a path profile tells them apart', () => {
    const numbering = checkNumbering(named.graph, {}, new Random(4)).numbering;
    const first = named.edge('B->H', 0);
    const second = named.edge('B->H', 1);
    const walk = [named.edge('ENTRY->H'), named.edge('H->B'), second, named.edge('H->B'), second];
    walk.push(named.edge('H->B'), first, named.edge('H->EXIT'));
    const counted = execute(numbering, walk).counted;
    expect(counted.map((n) => decodePath(numbering, n).end.edge)).toEqual([
      second,
      second,
      first,
      named.edge('H->EXIT'),
    ]);
    const profile = new Map<number, number>();
    for (const n of counted) profile.set(n, (profile.get(n) ?? 0) + 1);
    const counts = edgeCountsFromPaths(numbering, profile);
    expect([counts[first], counts[second]]).toEqual([1, 2]);
  });
});

describe('the numbering as metadata', () => {
  it('survives JSON: a parsed copy decodes and derives the same', () => {
    const named = namedGraph('ENTRY', 'EXIT', [
      'ENTRY->H',
      'H->A',
      'H->B',
      'A->J',
      'B->J',
      'J->H',
      'H->EXIT',
      'A->EXIT!',
    ]);
    const numbering = numberPaths(named.graph);
    const parsed = JSON.parse(JSON.stringify(numbering));
    expect(parsed).toEqual(numbering);
    for (let n = 0; n < numbering.pathCount; n++)
      expect(decodePath(parsed, n)).toEqual(decodePath(numbering, n));
    const counts = Array.from({ length: numbering.pathCount }, (_, n) => n + 1);
    expect(edgeCountsFromPaths(parsed, counts)).toEqual(
      edgeCountsFromPaths(numbering, new Map(counts.entries())),
    );
  });

  it('refuses to decode a number outside [0, N)', () => {
    const numbering = numberPaths(namedGraph('ENTRY', 'EXIT', ['ENTRY->A', 'ENTRY->EXIT', 'A->EXIT']).graph);
    for (const bad of [-1, 2, 0.5]) expect(() => decodePath(numbering, bad)).toThrow(RangeError);
  });
});
