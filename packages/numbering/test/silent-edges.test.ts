// Silent edges (FlowGraph.edgeSilent): taken normally, but no code can run on them (a destructuring default
// that was not used). They must stay in the spanning tree and carry nothing, and paths must stay exact.
import { NumberingError, numberPaths, planEdgeProfile } from '@pathprof/numbering';
import { Random } from '@pathprof/testkit';
import { namedGraph } from './support/named-graph';
import { checkNumbering } from './support/numbering-checks';
import { dagMaps, execute, expectedPaths } from './support/simulate';

/**
 * const { a = D1, b = D2 } = o; g();
 * Ga reads o.a (may throw), then D1 runs (Da, may throw) or not (silent); Ka is `b`'s computed key, Gb reads
 * o.b, and so on; Cb is the code after the declaration.
 */
const chained = namedGraph('ENTRY', 'EXIT', [
  'ENTRY->Ga',
  'Ga->EXIT!',
  'Ga->Da',
  'Ga->Ba~',
  'Da->EXIT!',
  'Da->Ba',
  'Ba->Gb',
  'Gb->EXIT!',
  'Gb->Db',
  'Gb->Bb~',
  'Db->EXIT!',
  'Db->Bb',
  'Bb->C',
  'C->EXIT',
  'C->EXIT!',
]);

describe('silent edges', () => {
  const numbering = numberPaths(chained.graph);
  const maps = dagMaps(numbering);

  it('are tree edges with increment 0 and no ops', () => {
    for (const label of ['Ga->Ba~', 'Gb->Bb~']) {
      const e = chained.edge(label);
      expect([label, numbering.dag.chord[maps.realEdgeOf[e]], numbering.edgeOps[e]]).toEqual([label, 0, []]);
    }
    expect(numbering.edgeSilent.filter((s) => s === 1)).toHaveLength(2);
  });

  it('number every path exactly, with the register exact wherever a throw can happen', () => {
    const { walks } = checkNumbering(chained.graph, {}, new Random(7));
    expect(walks.length).toBeGreaterThan(0);
    expect(numbering.pathCount).toBe(14);
  });

  it('tell apart a throw before and after a value was found present', () => {
    const before = ['ENTRY->Ga', 'Ga->Da', 'Da->Ba', 'Ba->Gb', 'Gb->EXIT!'].map((l) => chained.edge(l));
    const after = ['ENTRY->Ga', 'Ga->Ba~', 'Ba->Gb', 'Gb->EXIT!'].map((l) => chained.edge(l));
    const counted = [before, after].map((walk) => execute(numbering, walk).counted);
    expect(counted).toEqual([before, after].map((walk) => expectedPaths(numbering, maps, walk).numbers));
    expect(counted[0]).not.toEqual(counted[1]);
  });

  it('are never counters in edge mode', () => {
    const plan = planEdgeProfile(chained.graph);
    expect([chained.edge('Ga->Ba~'), chained.edge('Gb->Bb~')].map((e) => plan.edgeCounter[e])).toEqual([
      -1, -1,
    ]);
  });

  it('are refused where no code could tell the paths apart (a cycle of codeless edges)', () => {
    // The silent edge's target throws: it and its source reach EXIT by exceptional edges.
    const ambiguous = namedGraph('ENTRY', 'EXIT', [
      'ENTRY->A',
      'A->EXIT!',
      'A->B~',
      'A->B',
      'B->EXIT',
      'B->EXIT!',
    ]);
    expect(() => numberPaths(ambiguous.graph)).toThrow(NumberingError);
    expect(() => numberPaths(ambiguous.graph)).toThrow(/forced tree edges contain a cycle/);
  });

  it('are refused as exceptional too, into EXIT, and by the paper placement', () => {
    const both = namedGraph('ENTRY', 'EXIT', ['ENTRY->A', 'A->B~', 'A->B', 'B->EXIT']);
    const intoExit = namedGraph('ENTRY', 'EXIT', ['ENTRY->A', 'A->EXIT~', 'A->EXIT']);
    expect(() => numberPaths({ ...both.graph, edgeExceptional: Uint8Array.of(0, 1, 0, 0) })).toThrow(
      /both exceptional and silent/,
    );
    expect(() => numberPaths(intoExit.graph)).toThrow(/enters the exit block/);
    expect(() => numberPaths(both.graph, { placement: 'paper' })).toThrow(/codeless/);
  });
});
