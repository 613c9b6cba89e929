// The integer oracles of Vaswani, Nori & Chilimbi (digest §4): the running example (Figs. 3 and 13), the
// Lemma 2 and Lemma 3 graphs; and the refusals of stale or invalid interesting sets.
import {
  classifyPreferentialPath,
  decodePreferentialSlot,
  InterestingPathsError,
  numberPaths,
  numberPreferentialPaths,
  preferentialIdOf,
  type PathNumbering,
  type PreferentialNumbering,
} from '@pathprof/numbering';
import { namedGraph, type NamedGraph } from '../support/named-graph';

interface Example {
  readonly named: NamedGraph;
  readonly numbering: PathNumbering;
  /** The Ball-Larus id of a path written as its blocks, `'sacdt'`. */
  id(blocks: string): number;
  ppp(paths: readonly string[]): PreferentialNumbering;
  /** PPP weight per edge label, `null` for ⊥. */
  weights(ppp: PreferentialNumbering): Record<string, number | null>;
}

/** A DAG with one-letter blocks, numbered with successors in listing order (the figures' order). */
function example(edges: string[]): Example {
  const named = namedGraph('s', 't', edges);
  const numbering = numberPaths(named.graph, { successorOrder: 'edge-id' });
  const dagEdge = (label: string): number => numbering.dag.origin.indexOf(named.edge(label));
  const id = (blocks: string): number =>
    [...blocks].slice(1).reduce((sum, b, i) => sum + numbering.dag.val[dagEdge(`${blocks[i]}->${b}`)], 0);
  return {
    named,
    numbering,
    id,
    ppp: (paths) =>
      numberPreferentialPaths(
        { functionName: 'f', fingerprint: 'g1', numbering },
        { functionName: 'f', fingerprint: 'g1', pathIds: paths.map(id) },
      ),
    weights: (ppp) => Object.fromEntries(edges.map((label) => [label, ppp.weight[dagEdge(label)]])),
  };
}

/** Fig. 6: s→{a,b,c}→d→{e,f,g}→t, whose interesting set cannot be numbered 0..5 (Lemma 3). */
const LEMMA_3_GRAPH = [
  's->a',
  's->b',
  's->c',
  'a->d',
  'b->d',
  'c->d',
  'd->e',
  'd->f',
  'd->g',
  'e->t',
  'f->t',
  'g->t',
];

function classOf(ex: Example, ppp: PreferentialNumbering, path: string): [number, string] {
  const pppId = preferentialIdOf(ppp, ex.numbering, ex.id(path));
  const c = classifyPreferentialPath(ppp, pppId, ex.id(path));
  return [pppId, c.kind === 'interesting' ? 'interesting' : c.reason];
}

describe('the running example (Figs. 3 and 13), I = {sacdt, sact, sbct}', () => {
  const edges = ['s->a', 's->b', 'a->c', 'a->b', 'b->c', 'c->d', 'c->t', 'd->t'];
  const ex = example(edges);
  const ppp = ex.ppp(['sacdt', 'sact', 'sbct']);

  it('has the Ball-Larus ids of Fig. 3(a)', () => {
    expect(['sacdt', 'sact', 'sabcdt', 'sabct', 'sbcdt', 'sbct'].map(ex.id)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('computes the PPP weights of the paper (b→c = −1, a→b = ⊥), ids 0, 1, 2 and an array of 3', () => {
    expect(ex.weights(ppp)).toEqual({
      's->a': 0,
      's->b': 2,
      'a->c': 0,
      'a->b': null,
      'b->c': -1,
      'c->d': 0,
      'c->t': 1,
      'd->t': 0,
    });
    expect([ppp.interestingCount, ppp.arraySize]).toEqual([3, 3]);
    expect(ppp.compactness).toBe(1);
    expect(ppp.slotPathId).toEqual([0, 1, 5]);
    expect(
      decodePreferentialSlot(ppp, ex.numbering, 2)
        .blocks.map((b) => ex.named.blockNames[b])
        .join(''),
    ).toBe('sbct');
  });

  it('classifies the uninteresting paths: two aliases and an underflow', () => {
    expect(['sacdt', 'sact', 'sbct', 'sabct', 'sbcdt', 'sabcdt'].map((p) => classOf(ex, ppp, p))).toEqual([
      [0, 'interesting'],
      [1, 'interesting'],
      [2, 'interesting'],
      [0, 'alias'],
      [1, 'alias'],
      [-1, 'underflow'],
    ]);
  });

  it('gives the same weights and ids with node a’s out-edges in the order of Table 2', () => {
    const swapped = example(['s->a', 's->b', 'a->b', 'a->c', 'b->c', 'c->d', 'c->t', 'd->t']);
    expect(['sabcdt', 'sabct', 'sacdt', 'sact', 'sbcdt', 'sbct'].map(swapped.id)).toEqual([0, 1, 2, 3, 4, 5]);
    const again = swapped.ppp(['sacdt', 'sact', 'sbct']);
    expect(swapped.weights(again)).toEqual(ex.weights(ppp));
    expect(again.slotPathId).toEqual([2, 3, 5]);
  });
});

describe('the lemma graphs (digest §4.5)', () => {
  it('Lemma 2 (Fig. 5): s→b = 1, everything else 0; the other paths alias the interesting ones', () => {
    const ex = example(['s->a', 's->b', 'a->c', 'b->c', 'c->d', 'c->e', 'd->t', 'e->t']);
    const ppp = ex.ppp(['sacet', 'sbcdt']);
    expect(Object.entries(ex.weights(ppp)).filter(([, w]) => w !== 0)).toEqual([['s->b', 1]]);
    expect(['sacet', 'sbcdt', 'sacdt', 'sbcet'].map((p) => classOf(ex, ppp, p))).toEqual([
      [0, 'interesting'],
      [1, 'interesting'],
      [0, 'alias'],
      [1, 'alias'],
    ]);
  });

  it('Lemma 3 (Fig. 6): the join leaves a hole, array 7 for 6 paths (ρ = 7/6, the best possible)', () => {
    const ex = example(LEMMA_3_GRAPH);
    const interesting = ['sadft', 'sadgt', 'sbdet', 'sbdgt', 'scdet', 'scdft'];
    expect(interesting.map(ex.id)).toEqual([1, 2, 3, 5, 6, 7]);
    const ppp = ex.ppp(interesting);
    expect(ex.weights(ppp)).toEqual({
      's->a': 0,
      's->b': 2,
      's->c': 5,
      'a->d': -1,
      'b->d': 0,
      'c->d': 0,
      'd->e': 0,
      'd->f': 1,
      'd->g': 2,
      'e->t': 0,
      'f->t': 0,
      'g->t': 0,
    });
    expect(ppp.slotPathId).toEqual([1, 2, 3, -1, 5, 6, 7]);
    expect(ppp.compactness).toBeCloseTo(7 / 6);
    expect(['sbdft', 'sadet', 'scdgt'].map((p) => classOf(ex, ppp, p))).toEqual([
      [3, 'hole'],
      [-1, 'underflow'],
      [7, 'overflow'],
    ]);
  });

  it('caps the array: interesting paths beyond it are dropped and then classified residual', () => {
    const ex = example(LEMMA_3_GRAPH);
    const ppp = numberPreferentialPaths(
      { functionName: 'f', fingerprint: 'g1', numbering: ex.numbering },
      { functionName: 'f', fingerprint: 'g1', pathIds: [1, 2, 3, 5, 6, 7] },
      { maxArraySize: 5 },
    );
    expect([ppp.arraySize, ppp.droppedPathIds]).toEqual([5, [6, 7]]);
    expect(classOf(ex, ppp, 'scdft')).toEqual([6, 'overflow']);
  });
});

describe('refusing stale or invalid interesting sets', () => {
  const { numbering } = example(['s->a', 's->b', 'a->t', 'b->t']);
  const target = { functionName: 'render', fingerprint: 'cafe0001', numbering };
  const attempt = (functionName: string, fingerprint: string, pathIds: number[]): InterestingPathsError => {
    try {
      numberPreferentialPaths(target, { functionName, fingerprint, pathIds });
    } catch (error) {
      if (error instanceof InterestingPathsError) return error;
      throw error;
    }
    throw new Error('accepted');
  };

  it.each<[string, string, number[], string, RegExp]>([
    ['parse', 'cafe0001', [0], 'wrong-function', /^render: the interesting paths are those of parse/],
    ['render', 'beef0002', [0], 'stale-fingerprint', /^render: .*graph beef0002.*now cafe0001/],
    ['render', 'cafe0001', [2], 'invalid-path-id', /^render: path id 2 is not in \[0, 2\)/],
    ['render', 'cafe0001', [0.5], 'invalid-path-id', /path id 0.5/],
    ['render', 'cafe0001', [1, 1], 'duplicate-path-id', /path id 1 is listed twice/],
  ])('%s %s %j: %s', (name, fingerprint, ids, problem, message) => {
    const error = attempt(name, fingerprint, ids);
    expect([error.functionName, error.problem]).toEqual(['render', problem]);
    expect(error.message).toMatch(message);
  });

  it('accepts an empty set: an empty array, every path residual', () => {
    const ppp = numberPreferentialPaths(target, {
      functionName: 'render',
      fingerprint: 'cafe0001',
      pathIds: [],
    });
    expect([ppp.arraySize, ppp.compactness, ppp.weight.every((w) => w === null)]).toEqual([0, null, true]);
    expect(classifyPreferentialPath(ppp, 0, 0)).toEqual({ kind: 'residual', reason: 'overflow' });
  });
});
