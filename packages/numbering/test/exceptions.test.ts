// The exception contract the instrumenter relies on (design-notes §1, README "Exceptions").
import { decodePath, edgeProfileOps, numberPaths, planEdgeProfile } from '@pathprof/numbering';
import { Random } from '@pathprof/testkit';
import { namedGraph } from './support/named-graph';
import { checkNumbering } from './support/numbering-checks';
import { dagMaps, execute, expectedPaths } from './support/simulate';

/**
 * function f(xs) {
 *   for (const x of xs) {          // H
 *     try { a(x); b(x); }          // T1, T2: both may throw into the catch C
 *     catch { log(); }             // C: may throw out of the function
 *   }                              // J: back to H
 *   return done();                 // R: returns, or throws out
 * }
 */
const loopWithCatch = namedGraph('ENTRY', 'EXIT', [
  'ENTRY->H',
  'H->T1',
  'H->R',
  'T1->T2',
  'T1->C!',
  'T2->J',
  'T2->C!',
  'C->J',
  'C->EXIT!',
  'J->H',
  'R->EXIT',
  'R->EXIT!',
]);
const walkOf = (labels: readonly string[]): number[] => labels.map((label) => loopWithCatch.edge(label));

describe('exceptional edges', () => {
  const numbering = numberPaths(loopWithCatch.graph);
  const maps = dagMaps(numbering);
  const ops = (label: string) => numbering.edgeOps[loopWithCatch.edge(label)];

  it('are tree edges: increment 0, never a chord', () => {
    for (const label of ['T1->C!', 'T2->C!', 'C->EXIT!', 'R->EXIT!']) {
      const d = maps.realEdgeOf[loopWithCatch.edge(label)];
      expect([label, numbering.dag.chord[d], numbering.dag.increment[d]]).toEqual([label, 0, 0]);
    }
  });

  it('into a handler inside the function carry no ops; into EXIT exactly count[r], run by the handler', () => {
    expect(ops('T1->C!')).toEqual([]);
    expect(ops('T2->C!')).toEqual([]);
    expect(ops('C->EXIT!')).toEqual([{ kind: 'count-add', value: 0 }]);
    expect(ops('R->EXIT!')).toEqual([{ kind: 'count-add', value: 0 }]);
    expect(numbering.prologue).toEqual([{ kind: 'set', value: 0 }]);
  });

  it('record a path cut short by an exception as its own path, ending in an exception', () => {
    // Two iterations (the first throws in b into the catch), then done() throws.
    const walk = walkOf([
      'ENTRY->H',
      'H->T1',
      'T1->T2',
      'T2->C!',
      'C->J',
      'J->H',
      'H->T1',
      'T1->T2',
      'T2->J',
      'J->H',
      'H->R',
      'R->EXIT!',
    ]);
    const run = execute(numbering, walk);
    expect(run.counted).toEqual(expectedPaths(numbering, maps, walk).numbers);
    const paths = run.counted.map((n) => decodePath(numbering, n));
    expect(paths.map((p) => p.blocks.map((b) => loopWithCatch.blockNames[b]).join(' '))).toEqual([
      'ENTRY H T1 T2 C J',
      'H T1 T2 J',
      'H R EXIT',
    ]);
    expect(paths.map((p) => p.end.kind)).toEqual(['backedge', 'backedge', 'exception']);
    expect(paths[2].end.edge).toBe(loopWithCatch.edge('R->EXIT!'));
  });

  it('leave an exact number in the register wherever a throw can happen, before any chord too', () => {
    const throwers = ['T1', 'T2', 'C', 'R'].map((name) => loopWithCatch.block(name));
    const walk = walkOf([
      'ENTRY->H',
      'H->T1',
      'T1->T2',
      'T2->J',
      'J->H',
      'H->T1',
      'T1->C!',
      'C->J',
      'J->H',
      'H->R',
      'R->EXIT',
    ]);
    const run = execute(numbering, walk);
    const expected = expectedPaths(numbering, maps, walk);
    const blocks = [loopWithCatch.graph.entry, ...walk.map((e) => loopWithCatch.graph.edgeDst[e])];
    let checked = 0;
    blocks.forEach((block, i) => {
      if (!throwers.includes(block)) return;
      expect(run.register[i] + numbering.queryIncrement[block]).toBe(expected.prefix[i]);
      checked++;
    });
    expect(checked).toBe(5);
  });

  it('keep the count of a block that always throws on its exceptional edge, never hoisted before it', () => {
    // ENTRY → A → B, and B's only way out is `throw`: the function-level handler counts, so A→B must not.
    const throwing = namedGraph('ENTRY', 'EXIT', ['ENTRY->A', 'A->B', 'A->EXIT', 'B->EXIT!']);
    const placed = numberPaths(throwing.graph);
    expect(placed.edgeOps[throwing.edge('B->EXIT!')]).toEqual([{ kind: 'count-add', value: 0 }]);
    expect(placed.edgeOps[throwing.edge('A->B')].some((op) => op.kind.startsWith('count'))).toBe(false);
    checkNumbering(throwing.graph, {}, new Random(1));
  });

  it('never carry ops when a handler has a single thrower (the handler starts a first-chord walk)', () => {
    const single = namedGraph('ENTRY', 'EXIT', [
      'ENTRY->A',
      'A->B',
      'A->H!',
      'B->EXIT',
      'H->X',
      'H->Y',
      'X->EXIT',
      'Y->EXIT',
    ]);
    const placed = checkNumbering(single.graph, {}, new Random(2)).numbering;
    expect(placed.edgeOps[single.edge('A->H!')]).toEqual([]);
  });
});

describe('exceptional edges in edge mode', () => {
  const plan = planEdgeProfile(loopWithCatch.graph);
  const exceptional = ['T1->C!', 'T2->C!', 'C->EXIT!', 'R->EXIT!'].map((l) => loopWithCatch.edge(l));

  it('leave the normal edges to the tree: one counter per iteration of the loop, however many blocks throw', () => {
    const iteration = walkOf(['H->T1', 'T1->T2', 'T2->J', 'J->H']);
    expect(iteration.filter((e) => plan.edgeCounter[e] >= 0)).toHaveLength(1);
    expect(exceptional.every((e) => plan.edgeCounter[e] >= 0)).toBe(true);
    expect(plan.discardCounter).toBe(-1);
  });

  it('are counted where the exception lands, the register naming the block that threw', () => {
    // Around once with a throw in T2, then a throw in T1 whose catch throws out.
    const walk = walkOf('ENTRY->H H->T1 T1->T2 T2->C! C->J J->H H->T1 T1->C! C->EXIT!'.split(' '));
    const counted = execute(edgeProfileOps(plan), walk).counted;
    expect(counted).toEqual(walk.map((e) => plan.edgeCounter[e]).filter((c) => c >= 0));
    expect(counted).toEqual(expect.arrayContaining(exceptional.slice(0, 3).map((e) => plan.edgeCounter[e])));
  });

  it('are tree edges only where nothing else joins a block: a catch that always rethrows', () => {
    const rethrow = namedGraph('ENTRY', 'EXIT', ['ENTRY->T', 'T->R', 'T->C!', 'C->EXIT!', 'R->EXIT']);
    const rethrowPlan = planEdgeProfile(rethrow.graph);
    const inTree = ['T->C!', 'C->EXIT!'].filter((l) => rethrowPlan.edgeCounter[rethrow.edge(l)] < 0);
    expect(inTree).toHaveLength(1);
    expect(rethrowPlan.discardCounter).toBeGreaterThanOrEqual(0);
    const thrower = rethrow.block(inTree[0].split('->')[0]);
    expect(rethrowPlan.throwCounter[thrower]).toBe(rethrowPlan.discardCounter);
  });
});

describe('graphs the exception contract cannot serve', () => {
  it('refuses an exceptional edge that is a backedge (a handler dominating its thrower)', () => {
    const cyclic = namedGraph('ENTRY', 'EXIT', ['ENTRY->H', 'H->A', 'A->H!', 'A->EXIT']);
    expect(() => numberPaths(cyclic.graph)).toThrow(
      expect.objectContaining({ code: 'exceptional-backedge' }),
    );
  });

  it('refuses an entry block that throws straight out (EXIT→ENTRY and the edge would form a cycle)', () => {
    const throwingEntry = namedGraph('ENTRY', 'EXIT', ['ENTRY->A', 'ENTRY->EXIT!', 'A->EXIT']);
    expect(() => numberPaths(throwingEntry.graph)).toThrow(
      expect.objectContaining({ code: 'forced-edges-cycle' }),
    );
  });

  it("refuses the paper's placement on a graph with exceptional edges", () => {
    expect(() => numberPaths(loopWithCatch.graph, { placement: 'paper' })).toThrow(
      expect.objectContaining({ code: 'invalid-option' }),
    );
  });
});
