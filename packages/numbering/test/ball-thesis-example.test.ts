// The running loop example of Ball's thesis (Figs 2.1, 3.3, 3.5, 4.1, 4.6), as rebuilt in
// shared/docs/seeds/003-ball-thesis.md §8.1 and §8.4.
import {
  deriveEdgeCounts,
  eventIncrements,
  maximumSpanningTree,
  planEdgeProfile,
  staticEdgeWeights,
  UNLIKELY_ODDS,
  type EdgeProfilePlan,
} from '@pathprof/numbering';
import { namedGraph, weightsOf, type NamedGraph } from './support/named-graph';

/** The thesis's own graph: root P, with the non-executable EXIT→P as an ordinary listed edge. */
const thesis = namedGraph('P', 'EXIT', [
  'P->Q',
  'P->EXIT',
  'Q->A',
  'Q->B',
  'A->R',
  'B->R',
  'R->C',
  'R->EXIT',
  'C->P',
  'EXIT->P',
]);

/** The same function as a `FlowGraph`: an empty ENTRY block stands where EXIT→P entered P. */
const flow = namedGraph('ENTRY', 'EXIT', [
  'ENTRY->P',
  'P->Q',
  'P->EXIT',
  'Q->A',
  'Q->B',
  'A->R',
  'B->R',
  'R->C',
  'R->EXIT',
  'C->P',
]);

const labelsWhere = (named: NamedGraph, flags: ArrayLike<number>, value: number): string[] =>
  Array.from(flags)
    .map((flag, e) => (flag === value ? named.edgeLabel(e) : null))
    .filter((label): label is string => label !== null);

const treeOf = (labels: readonly string[]): Uint8Array =>
  Uint8Array.from({ length: thesis.graph.edgeCount }, (_, e) =>
    labels.includes(thesis.edgeLabel(e)) ? 1 : 0,
  );

const figure41Tree = treeOf(['EXIT->P', 'P->Q', 'A->R', 'B->R', 'R->C', 'C->P']);
const maximumTree = treeOf(['EXIT->P', 'P->Q', 'Q->A', 'Q->B', 'R->C', 'C->P']);

/** Symbolic vertex events as distinct powers of ten, so that sums like P+Q+A+R+C stay readable digit by digit. */
const [P, Q, A, B, R, C, EXIT] = [1, 10, 100, 1000, 1e4, 1e5, 1e6];
const vertexEvents = Float64Array.from(
  thesis.blockNames,
  (name) => ({ P, Q, A, B, R, C, EXIT })[name] as number,
);

const eventGraph = (inTree: Uint8Array) => ({
  nodeCount: thesis.graph.blockCount,
  edgeCount: thesis.graph.edgeCount,
  src: thesis.graph.edgeSrc,
  dst: thesis.graph.edgeDst,
  root: thesis.block('P'),
  inTree,
});

const byLabel = (values: ArrayLike<number>, labels: readonly string[]): number[] =>
  labels.map((label) => values[thesis.edge(label)]);
const byBlock = (values: ArrayLike<number>, names: readonly string[]): number[] =>
  names.map((name) => values[thesis.block(name)]);

describe('static weighting (thesis §3.3)', () => {
  it('gives the loop example the weights of the digest', () => {
    const weights = staticEdgeWeights(flow.graph);
    expect(Object.fromEntries(Array.from(weights, (w, e) => [flow.edgeLabel(e), w]))).toEqual({
      'ENTRY->P': 1,
      'P->Q': 9.5,
      'P->EXIT': 0.5,
      'Q->A': 4.75,
      'Q->B': 4.75,
      'A->R': 4.75,
      'B->R': 4.75,
      'R->C': 9,
      'R->EXIT': 0.5,
      'C->P': 9,
    });
  });

  it('loop exits share the entry weight and a loop entry multiplies by ten, also for nested loops', () => {
    // ENTRY → H1 (outer) → H2 (inner) → X → H2 | X → L → H1 | H1 → EXIT
    const nested = namedGraph('ENTRY', 'EXIT', [
      'ENTRY->H1',
      'H1->H2',
      'H1->EXIT',
      'H2->X',
      'X->H2',
      'X->L',
      'L->H1',
    ]);
    const weights = staticEdgeWeights(nested.graph);
    const w = (label: string): number => weights[nested.edge(label)];
    expect(w('H1->EXIT')).toBe(1);
    expect(w('H1->H2')).toBe(9);
    expect(w('X->L')).toBe(9);
    expect(w('H2->X')).toBe(90);
    expect(w('X->H2')).toBe(90 - 9);
    expect(w('L->H1')).toBe(9);
  });

  it('splits a branch by the odds against an unlikely edge, so the counters go on those edges', () => {
    // `return c === 10 || c === 13 || c === 8232 || c === 8233` (acorn's isNewLine) evaluated for its value:
    // each `||` joins its two ways at J and tests what it got, and every test's true edge is unlikely.
    const chain = namedGraph('ENTRY', 'EXIT', [
      'ENTRY->T1',
      'T1->J1',
      'T1->T2',
      'T2->J1',
      'J1->J2',
      'J1->T3',
      'T3->J2',
      'J2->J3',
      'J2->T4',
      'T4->J3',
      'J3->EXIT',
    ]);
    const unlikely = ['T1->J1', 'J1->J2', 'J2->J3'].map((label) => chain.edge(label));
    const flags = Uint8Array.from(chain.graph.edgeSrc, (_, e) => (unlikely.includes(e) ? 1 : 0));
    const weights = staticEdgeWeights(chain.graph, flags);
    expect(weights[chain.edge('T1->J1')]).toBeCloseTo(1 / (1 + UNLIKELY_ODDS));
    expect(weights[chain.edge('T1->T2')]).toBeCloseTo(UNLIKELY_ODDS / (1 + UNLIKELY_ODDS));
    // The predicted path, every test failing, runs one counter (the least any path can); evenly split, three.
    const allFail = ['ENTRY->T1', 'T1->T2', 'T2->J1', 'J1->T3', 'T3->J2', 'J2->T4', 'T4->J3', 'J3->EXIT'];
    const countersOn = (plan: EdgeProfilePlan) =>
      allFail.filter((label) => plan.edgeCounter[chain.edge(label)] >= 0);
    expect(countersOn(planEdgeProfile(chain.graph, { unlikely }))).toEqual(['T4->J3']);
    expect(countersOn(planEdgeProfile(chain.graph))).toEqual(['T2->J1', 'T3->J2', 'T4->J3']);
    expect(() => planEdgeProfile(chain.graph, { unlikely: [11] })).toThrow('unlikely edge 11 is not an edge');
  });
});

describe('maximum spanning tree (thesis §3.1.2)', () => {
  const heuristic = weightsOf(thesis, {
    'EXIT->P': 1,
    'P->Q': 9.5,
    'P->EXIT': 0.5,
    'Q->A': 4.75,
    'Q->B': 4.75,
    'A->R': 4.75,
    'B->R': 4.75,
    'R->C': 9,
    'R->EXIT': 0.5,
    'C->P': 9,
  });
  const chordCost = (inTree: Uint8Array): number =>
    Array.from(inTree).reduce((sum, t, e) => (t === 1 ? sum : sum + heuristic[e]), 0);

  it('picks EXIT→P, P→Q, Q→A, Q→B, R→C, C→P (ties by edge order), chord cost 10.5', () => {
    const inTree = maximumSpanningTree({
      nodeCount: thesis.graph.blockCount,
      edgeCount: thesis.graph.edgeCount,
      src: thesis.graph.edgeSrc,
      dst: thesis.graph.edgeDst,
      weight: heuristic,
      forced: treeOf(['EXIT->P']),
    });
    expect(labelsWhere(thesis, inTree, 1)).toEqual(['P->Q', 'Q->A', 'Q->B', 'R->C', 'C->P', 'EXIT->P']);
    expect(chordCost(inTree)).toBe(10.5);
    expect(chordCost(figure41Tree)).toBe(10.5);
  });

  it('refuses forced edges that close a cycle', () => {
    expect(() =>
      maximumSpanningTree({
        nodeCount: 2,
        edgeCount: 2,
        src: [0, 1],
        dst: [1, 0],
        weight: [1, 1],
        forced: [1, 1],
      }),
    ).toThrow(expect.objectContaining({ code: 'forced-edges-cycle' }));
  });
});

describe('event counting (thesis chapter 4)', () => {
  it('computes the Fig 4.1 chord increments P+EXIT, P+Q+A+R+C, P+Q+B+R+C, EXIT-C', () => {
    const { increment } = eventIncrements(eventGraph(figure41Tree), { vertex: vertexEvents });
    expect(byLabel(increment, ['P->EXIT', 'Q->A', 'Q->B', 'R->EXIT'])).toEqual([
      P + EXIT,
      P + Q + A + R + C,
      P + Q + B + R + C,
      EXIT - C,
    ]);
    expect(labelsWhere(thesis, increment, 0)).toEqual(['P->Q', 'A->R', 'B->R', 'R->C', 'C->P', 'EXIT->P']);
    // The thesis's example path P→Q→A→R→EXIT.
    expect(increment[thesis.edge('Q->A')] + increment[thesis.edge('R->EXIT')]).toBe(P + Q + A + R + EXIT);
  });

  it('computes the query increments of both trees', () => {
    const names = ['P', 'Q', 'A', 'B', 'R', 'C', 'EXIT'];
    const thesisTree = eventIncrements(eventGraph(figure41Tree), { vertex: vertexEvents }).queryIncrement;
    expect(byBlock(thesisTree, names)).toEqual([P, P + Q, -R - C, -R - C, -C, 0, 0]);
    const other = eventIncrements(eventGraph(maximumTree), { vertex: vertexEvents });
    expect(byBlock(other.queryIncrement, names)).toEqual([P, P + Q, P + Q + A, P + Q + B, -C, 0, 0]);
    expect(byLabel(other.increment, ['A->R', 'B->R', 'P->EXIT', 'R->EXIT'])).toEqual([
      P + Q + A + R + C,
      P + Q + B + R + C,
      P + EXIT,
      EXIT - C,
    ]);
  });

  it('makes counter + QueryInc exact at the end of every root prefix of up to 10 edges (37 of them)', () => {
    const trees = [figure41Tree, maximumTree].map((t) =>
      eventIncrements(eventGraph(t), { vertex: vertexEvents }),
    );
    const root = thesis.block('P');
    const exitEdge = thesis.edge('EXIT->P');
    let prefixes = 0;
    const extend = (v: number, counters: number[], events: number, length: number): void => {
      prefixes++;
      trees.forEach((tree, i) => expect(counters[i] + tree.queryIncrement[v]).toBe(events + vertexEvents[v]));
      if (length === 10) return;
      for (let e = 0; e < thesis.graph.edgeCount; e++) {
        if (thesis.graph.edgeSrc[e] !== v || e === exitEdge) continue;
        const w = thesis.graph.edgeDst[e];
        extend(
          w,
          counters.map((c, i) => c + trees[i].increment[e]),
          events + vertexEvents[v],
          length + 1,
        );
      }
    };
    extend(root, [0, 0], 0, 0);
    expect(prefixes).toBe(37);
  });

  it('turns edge values into chord increments 4, 9, 14, -5 (digest §8.4) with path sums preserved', () => {
    const val = weightsOf(thesis, {
      'P->Q': 1,
      'P->EXIT': 4,
      'Q->A': 0,
      'Q->B': 2,
      'A->R': 0,
      'B->R': 3,
      'R->C': 3,
      'R->EXIT': 3,
      'C->P': 5,
      'EXIT->P': 0,
    });
    const { increment } = eventIncrements(eventGraph(figure41Tree), { edge: val });
    expect(byLabel(increment, ['P->EXIT', 'Q->A', 'Q->B', 'R->EXIT'])).toEqual([4, 9, 14, -5]);
    const paths = [
      ['P->EXIT'],
      ['P->Q', 'Q->A', 'A->R', 'R->EXIT'],
      ['P->Q', 'Q->B', 'B->R', 'R->EXIT'],
      ['P->Q', 'Q->B', 'B->R', 'R->C', 'C->P', 'P->Q', 'Q->A', 'A->R', 'R->EXIT'],
      ['P->Q', 'Q->A', 'A->R', 'R->C', 'C->P', 'P->EXIT'],
    ];
    for (const path of paths) {
      expect(path.reduce((s, l) => s + increment[thesis.edge(l)], 0)).toBe(
        path.reduce((s, l) => s + val[thesis.edge(l)], 0),
      );
    }
  });
});

describe('count propagation and early termination (thesis Figs 3.4, 3.5)', () => {
  // Fig 4.1's tree in the FlowGraph form: ENTRY→P plays EXIT→P's part next to the forced EXIT→ENTRY.
  const figure41Plan = planEdgeProfile(flow.graph, {
    weights: weightsOf(flow, { 'ENTRY->P': 100, 'P->Q': 9, 'A->R': 9, 'B->R': 9, 'R->C': 9, 'C->P': 9 }),
  });
  const countersOf = (plan: EdgeProfilePlan, walks: readonly string[][]): number[] => {
    const counters = new Array<number>(plan.counterCount).fill(0);
    for (const walk of walks)
      for (const label of walk)
        if (plan.edgeCounter[flow.edge(label)] >= 0) counters[plan.edgeCounter[flow.edge(label)]]++;
    return counters;
  };
  const countsByLabel = (counts: readonly number[]): Record<string, number> =>
    Object.fromEntries(counts.map((count, e) => [flow.edgeLabel(e), count]));
  const threeInvocations = [
    // P Q A R C P Q B R C P Q B R EXIT | P EXIT | P Q A R C P EXIT
    [
      'ENTRY->P',
      'P->Q',
      'Q->A',
      'A->R',
      'R->C',
      'C->P',
      'P->Q',
      'Q->B',
      'B->R',
      'R->C',
      'C->P',
      'P->Q',
      'Q->B',
      'B->R',
      'R->EXIT',
    ],
    ['ENTRY->P', 'P->EXIT'],
    ['ENTRY->P', 'P->Q', 'Q->A', 'A->R', 'R->C', 'C->P', 'P->EXIT'],
  ];
  const fullProfile = {
    'ENTRY->P': 3,
    'P->Q': 4,
    'P->EXIT': 2,
    'Q->A': 2,
    'Q->B': 2,
    'A->R': 2,
    'B->R': 2,
    'R->C': 3,
    'R->EXIT': 1,
    'C->P': 3,
  };

  it('instruments the chords P→EXIT, Q→A, Q→B, R→EXIT of Fig 4.1 and derives the rest', () => {
    expect(
      labelsWhere(
        flow,
        figure41Plan.edgeCounter.map((c) => (c >= 0 ? 1 : 0)),
        1,
      ),
    ).toEqual(['P->EXIT', 'Q->A', 'Q->B', 'R->EXIT']);
    expect(countersOf(figure41Plan, threeInvocations)).toEqual([2, 2, 2, 1]);
    const derived = deriveEdgeCounts(figure41Plan, [2, 2, 2, 1]);
    expect(countsByLabel(derived.edgeCounts)).toEqual(fullProfile);
    expect(derived.activations).toBe(3);
    expect(derived.violations).toEqual([]);
  });

  it('derives the same profile from the other maximum tree (chords P→EXIT, A→R, B→R, R→EXIT)', () => {
    const plan = planEdgeProfile(flow.graph);
    expect(
      labelsWhere(
        flow,
        plan.edgeCounter.map((c) => (c >= 0 ? 1 : 0)),
        1,
      ),
    ).toEqual(['P->EXIT', 'A->R', 'B->R', 'R->EXIT']);
    expect(countsByLabel(deriveEdgeCounts(plan, countersOf(plan, threeInvocations)).edgeCounts)).toEqual(
      fullProfile,
    );
  });

  it('invents a phantom loop for a crash in A unless the early exit is counted', () => {
    const counters = countersOf(figure41Plan, [['ENTRY->P', 'P->Q', 'Q->A']]);
    expect(counters).toEqual([0, 1, 0, 0]);
    const naive = deriveEdgeCounts(figure41Plan, counters);
    expect(countsByLabel(naive.edgeCounts)).toMatchObject({
      'P->Q': 1,
      'A->R': 1,
      'R->C': 1,
      'C->P': 1,
      'ENTRY->P': 0,
    });
    expect(naive.activations).toBe(0);
    const earlyExits = flow.blockNames.map((name) => (name === 'A' ? 1 : 0));
    const fixed = deriveEdgeCounts(figure41Plan, counters, earlyExits);
    expect(countsByLabel(fixed.edgeCounts)).toMatchObject({
      'P->Q': 1,
      'A->R': 0,
      'R->C': 0,
      'C->P': 0,
      'ENTRY->P': 1,
    });
    expect(fixed.activations).toBe(1);
  });

  it('reports counts that break conservation instead of hiding them', () => {
    const derived = deriveEdgeCounts(figure41Plan, [0, 0, 0, 1]);
    expect(derived.violations).toContainEqual({ edge: flow.edge('R->C'), count: -1 });
  });
});
