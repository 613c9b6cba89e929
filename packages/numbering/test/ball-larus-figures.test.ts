// The numeric oracles of Ball & Larus 1996 as rebuilt in shared/docs/seeds/001-ball-larus.md §8.
import { decodePath, numberPaths, type PathNumbering, type PathOp } from '@pathprof/numbering';
import { namedGraph, weightsOf, type NamedGraph } from './support/named-graph';
import { dagMaps, execute, expectedPaths } from './support/simulate';

/** Figure 1/6: ENTRY A, EXIT F. D→F is listed before D→E so that the tie at D (one path each) orders (F, E). */
const figure6 = (): NamedGraph =>
  namedGraph('A', 'F', ['A->B', 'A->C', 'B->C', 'B->D', 'C->D', 'D->F', 'D->E', 'E->F']);

const blocksOf = (named: NamedGraph, numbering: PathNumbering, n: number): string =>
  decodePath(numbering, n)
    .blocks.map((b) => named.blockNames[b])
    .join('');

const opsByLabel = (named: NamedGraph, numbering: PathNumbering): Record<string, readonly PathOp[]> =>
  Object.fromEntries(numbering.edgeOps.map((ops, e) => [named.edgeLabel(e), ops]));

const valByLabel = (named: NamedGraph, numbering: PathNumbering): Record<string, number> => {
  const maps = dagMaps(numbering);
  return Object.fromEntries(
    Array.from({ length: named.graph.edgeCount }, (_, e) => [
      named.edgeLabel(e),
      numbering.dag.val[maps.realEdgeOf[e]],
    ]),
  );
};

/** Query increments by block name: with `Val` as the events they are the tree potentials from ENTRY. */
const potentials = (named: NamedGraph, numbering: PathNumbering): Record<string, number> =>
  Object.fromEntries(named.blockNames.map((name, b) => [name, numbering.queryIncrement[b]]));

const set = (value: number): PathOp => ({ kind: 'set', value });
const add = (value: number): PathOp => ({ kind: 'add', value });
const countAdd = (value: number): PathOp => ({ kind: 'count-add', value });

describe('Figures 1, 6, 7, 9: the six-path graph', () => {
  const named = figure6();
  // Figure 7's tree A→B, C→D, D→F, E→F (+ F→A): the heavier edges.
  const figure7Tree = weightsOf(named, { 'A->B': 3, 'C->D': 3, 'D->F': 3, 'E->F': 3 });

  it('numbers the six paths as Figure 6 does (successor orders A:(C,B), B:(C,D), D:(F,E))', () => {
    const numbering = numberPaths(named.graph, { weights: figure7Tree });
    expect(numbering.pathCount).toBe(6);
    expect(valByLabel(named, numbering)).toEqual({
      'A->C': 0,
      'A->B': 2,
      'B->C': 0,
      'B->D': 2,
      'C->D': 0,
      'D->F': 0,
      'D->E': 1,
      'E->F': 0,
    });
    expect([0, 1, 2, 3, 4, 5].map((n) => blocksOf(named, numbering, n))).toEqual([
      'ACDF',
      'ACDEF',
      'ABCDF',
      'ABCDEF',
      'ABDF',
      'ABDEF',
    ]);
  });

  it('decodes R = 3 to ABCDEF, a path from entry that returns', () => {
    const decoded = decodePath(numberPaths(named.graph), 3);
    expect(decoded.edges.map((e) => named.edgeLabel(e))).toEqual(['A->B', 'B->C', 'C->D', 'D->E', 'E->F']);
    expect(decoded.start).toEqual({ kind: 'entry' });
    expect(decoded.end).toEqual({ kind: 'return', edge: named.edge('E->F') });
  });

  it("computes Figure 7's chord increments (B→D is 'four')", () => {
    const numbering = numberPaths(named.graph, { weights: figure7Tree });
    const maps = dagMaps(numbering);
    const chords = Object.fromEntries(
      numbering.edgeOps
        .map((_, e) => maps.realEdgeOf[e])
        .filter((d) => numbering.dag.chord[d] === 1)
        .map((d) => [named.edgeLabel(numbering.dag.origin[d]), numbering.dag.increment[d]]),
    );
    expect(chords).toEqual({ 'A->C': 0, 'B->C': 2, 'B->D': 4, 'D->E': 1 });
    expect(potentials(named, numbering)).toEqual({ A: 0, B: 2, C: 0, D: 0, E: 0, F: 0 });
  });

  it("places Figure 9's instrumentation under the paper's placement", () => {
    const numbering = numberPaths(named.graph, { weights: figure7Tree, placement: 'paper' });
    expect(numbering.prologue).toEqual([]);
    expect(opsByLabel(named, numbering)).toEqual({
      'A->B': [],
      'A->C': [set(0)],
      'B->C': [set(2)],
      'B->D': [set(4)],
      'C->D': [],
      'D->F': [countAdd(0)],
      'D->E': [countAdd(1)],
      'E->F': [],
    });
  });

  it('under the prologue placement drops the r = 0 the prologue already did', () => {
    const numbering = numberPaths(named.graph, { weights: figure7Tree });
    expect(numbering.prologue).toEqual([set(0)]);
    expect(opsByLabel(named, numbering)['A->C']).toEqual([]);
    expect(opsByLabel(named, numbering)['B->D']).toEqual([set(4)]);
  });

  describe('the alternative tree A→C, B→D, D→E, E→F with negative increments', () => {
    const alternative = weightsOf(named, { 'A->C': 3, 'B->D': 3, 'D->E': 3, 'E->F': 3 });

    it('gets potentials B = -3, D = -1 and increments A→B 5, B→C -3, C→D 1, D→F -1', () => {
      const numbering = numberPaths(named.graph, { weights: alternative });
      const maps = dagMaps(numbering);
      const inc = (label: string): number => numbering.dag.increment[maps.realEdgeOf[named.edge(label)]];
      expect(['A->B', 'B->C', 'C->D', 'D->F'].map(inc)).toEqual([5, -3, 1, -1]);
      expect(potentials(named, numbering)).toEqual({ A: 0, B: -3, C: 0, D: -1, E: 0, F: 0 });
    });

    it('places r=0, r=5, r+=-3, r+=1, count[r], count[r-1] (paper placement)', () => {
      const numbering = numberPaths(named.graph, { weights: alternative, placement: 'paper' });
      expect(opsByLabel(named, numbering)).toEqual({
        'A->B': [set(5)],
        'A->C': [set(0)],
        'B->C': [add(-3)],
        'B->D': [],
        'C->D': [add(1)],
        'D->F': [countAdd(-1)],
        'D->E': [countAdd(0)],
        'E->F': [],
      });
    });

    it('gives every path the same number as Figure 7 tree does, under both placements', () => {
      const walks: Record<string, string[]> = {
        ACDF: ['A->C', 'C->D', 'D->F'],
        ACDEF: ['A->C', 'C->D', 'D->E', 'E->F'],
        ABCDF: ['A->B', 'B->C', 'C->D', 'D->F'],
        ABCDEF: ['A->B', 'B->C', 'C->D', 'D->E', 'E->F'],
        ABDF: ['A->B', 'B->D', 'D->F'],
        ABDEF: ['A->B', 'B->D', 'D->E', 'E->F'],
      };
      for (const weights of [alternative, figure7Tree]) {
        for (const placement of ['paper', 'prologue'] as const) {
          const numbering = numberPaths(named.graph, { weights, placement });
          const counted = Object.values(walks).map(
            (labels) =>
              execute(
                numbering,
                labels.map((l) => named.edge(l)),
              ).counted,
          );
          expect(counted).toEqual([[0], [1], [2], [3], [4], [5]]);
        }
      }
    });
  });
});

describe('Figure 10: the loop B-C-D-E with backedge E→B', () => {
  // Listing order gives the digest's successor orders under `edge-id`: A:(real, dummy), B:(C,D), E:(F, dummy), F:(G,H).
  const named = namedGraph('A', 'I', [
    'A->B',
    'B->C',
    'B->D',
    'C->E',
    'D->E',
    'E->F',
    'F->G',
    'F->H',
    'G->I',
    'H->I',
    'E->B',
  ]);
  const backedgeHeavy = weightsOf(named, { 'E->B': 9 });
  const numbering = numberPaths(named.graph, { successorOrder: 'edge-id', weights: backedgeHeavy });
  const maps = dagMaps(numbering);

  it('finds E→B as the backedge and adds dummies A→B and E→I', () => {
    expect(numbering.removedEdges).toEqual([{ edge: named.edge('E->B'), kind: 'backedge' }]);
    const { dag } = numbering;
    const entryDummy = maps.entryDummyOf[named.block('B')];
    const exitDummy = maps.exitDummyOf[named.edge('E->B')];
    expect([dag.src[entryDummy], dag.dst[entryDummy]]).toEqual([named.block('A'), named.block('B')]);
    expect([dag.src[exitDummy], dag.dst[exitDummy]]).toEqual([named.block('E'), named.block('I')]);
  });

  it('gets N = 12 and the Vals dummy A→B 6, B→D 3, dummy E→I 2, F→H 1, all others 0', () => {
    expect(numbering.pathCount).toBe(12);
    const { val } = numbering.dag;
    expect(val[maps.entryDummyOf[named.block('B')]]).toBe(6);
    expect(val[maps.exitDummyOf[named.edge('E->B')]]).toBe(2);
    const realVals = valByLabel(named, numbering);
    delete realVals['E->B'];
    expect(realVals).toEqual({
      'A->B': 0,
      'B->C': 0,
      'B->D': 3,
      'C->E': 0,
      'D->E': 0,
      'E->F': 0,
      'F->G': 0,
      'F->H': 1,
      'G->I': 0,
      'H->I': 0,
    });
  });

  it('decodes the twelve paths of the table, with how each starts and ends', () => {
    const table = [
      'ABCEFGI entry return',
      'ABCEFHI entry return',
      'ABCE entry backedge',
      'ABDEFGI entry return',
      'ABDEFHI entry return',
      'ABDE entry backedge',
      'BCEFGI after-removed-edge return',
      'BCEFHI after-removed-edge return',
      'BCE after-removed-edge backedge',
      'BDEFGI after-removed-edge return',
      'BDEFHI after-removed-edge return',
      'BDE after-removed-edge backedge',
    ];
    const decoded = table.map((_, n) => {
      const path = decodePath(numbering, n);
      return `${path.blocks.map((b) => named.blockNames[b]).join('')} ${path.start.kind} ${path.end.kind}`;
    });
    expect(decoded).toEqual(table);
    const resumed = decodePath(numbering, 8).start;
    expect(resumed).toEqual({
      kind: 'after-removed-edge',
      block: named.block('B'),
      candidates: [{ edge: named.edge('E->B'), kind: 'backedge' }],
    });
  });

  it('places the digest’s Figure 8 instrumentation on the tree I→A, dummies, B→C, B→D, E→F, F→G, F→H', () => {
    for (const placement of ['paper', 'prologue'] as const) {
      const placed = numberPaths(named.graph, {
        successorOrder: 'edge-id',
        weights: backedgeHeavy,
        placement,
      });
      expect(opsByLabel(named, placed)).toEqual({
        'A->B': [set(-6)],
        'B->C': [],
        'B->D': [],
        'C->E': [add(8)],
        'D->E': [add(11)],
        'E->F': [],
        'F->G': [],
        'F->H': [],
        'G->I': [countAdd(-2)],
        'H->I': [countAdd(-1)],
        'E->B': [countAdd(0), set(0)],
      });
      expect(placed.registerRange.min).toBe(-6);
    }
  });

  it('records every iteration of a looping execution as its own path', () => {
    const walk = [
      'A->B',
      'B->C',
      'C->E',
      'E->B',
      'B->D',
      'D->E',
      'E->B',
      'B->D',
      'D->E',
      'E->F',
      'F->H',
      'H->I',
    ];
    const edges = walk.map((l) => named.edge(l));
    expect(execute(numbering, edges).counted).toEqual([2, 11, 10]);
    expect(expectedPaths(numbering, maps, edges).numbers).toEqual([2, 11, 10]);
  });

  it('numbers differently, but as densely, under the default most-paths-last order', () => {
    const byPaths = numberPaths(named.graph);
    expect(byPaths.pathCount).toBe(12);
    const seen = new Set(Array.from({ length: 12 }, (_, n) => decodePath(byPaths, n).blocks.join()));
    expect(seen.size).toBe(12);
  });
});
