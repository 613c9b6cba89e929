// simplifyPathOps on seeded random graphs: the simplified ops count exactly what the numbering's own ops
// count along every walk, exceptions, cuts and silent edges included. Reproduce a failure with
// PATHPROF_SEED=<base seed>, soak with PATHPROF_SOAK=<multiplier>.
import { numberPaths, simplifyPathOps, type PathNumbering, type PathOp } from '@pathprof/numbering';
import { baseSeed, caseCount } from '@pathprof/testkit';
import { expectSame } from './support/fast-expect';
import { namedGraph } from './support/named-graph';
import { GRAPH_FAMILIES, withSilentEdges } from './support/random-graphs';
import { forEachSeededCase } from './support/seeded-cases';
import { execute } from './support/simulate';
import { GraphRoutes } from './support/walks';

const SEED = baseSeed(0x51e9);
const WALKS = 16;

const countOps = (ops: readonly PathOp[]) =>
  ops.filter((op) => op.kind === 'count-add' || op.kind === 'count-const').length;

const generators = GRAPH_FAMILIES;

describe.each(generators)('simplified ops on %s', (name, generate) => {
  const salt = generators.findIndex(([n]) => n === name) * 1_000_003;

  it('count the same path numbers along every walk, and never add an op', () => {
    let folded = 0;
    let dropped = 0;
    forEachSeededCase(SEED, caseCount(400), salt, (rng) => {
      let graph = generate(rng);
      if (rng.chance(0.3)) graph = withSilentEdges(graph, rng);
      const weights = rng.chance(0.5)
        ? undefined
        : Float64Array.from({ length: graph.edgeCount }, () => rng.int(50));
      const maxPaths = rng.chance(0.3) ? rng.range(1, 40) : undefined;
      let numbering: PathNumbering;
      try {
        numbering = numberPaths(graph, { weights, maxPaths });
      } catch {
        return; // a budget too small for the graph, or silent edges the numbering refuses
      }
      const ops = simplifyPathOps(numbering);
      for (let e = 0; e < graph.edgeCount; e++) {
        const original = numbering.edgeOps[e];
        const now = ops.edgeOps[e];
        expect(now.length).toBeLessThanOrEqual(original.length);
        expectSame(countOps(now), countOps(original));
        if (graph.edgeExceptional[e] === 1)
          expectSame(now, graph.edgeDst[e] === graph.exit ? ops.exceptionalExit : []);
        if (graph.edgeSilent?.[e] === 1) expectSame(now, []);
        folded += now.filter((op, i) => op.kind !== original[i]?.kind).length;
        dropped += original.length - now.length;
      }
      const routes = new GraphRoutes(graph);
      for (let k = 0; k < WALKS; k++) {
        const { edges } = routes.walk(rng, rng.range(0, 40), rng.chance(0.5) ? 0.05 : 0.3);
        expectSame(execute(ops, edges).counted, execute(numbering, edges).counted);
      }
    });
    expect(folded).toBeGreaterThan(0);
    expect(dropped).toBeGreaterThan(0);
  });
});

describe('simplified ops on a fib-like function', () => {
  // fib(n): T tests n < 2 (may throw); A returns n; B calls fib twice (may throw).
  const fib = namedGraph('ENTRY', 'EXIT', [
    'ENTRY->T',
    'T->EXIT!',
    'T->A',
    'T->B',
    'A->EXIT',
    'B->EXIT',
    'B->EXIT!',
  ]);
  const numbering = numberPaths(fib.graph);
  const ops = simplifyPathOps(numbering);

  it('count a constant on the path that cannot throw, and set the register only where a throw reads it', () => {
    const kinds = (label: string) => ops.edgeOps[fib.edge(label)].map((op) => op.kind);
    expect(kinds('T->A').concat(kinds('A->EXIT'))).toEqual(['count-const']);
    expect(kinds('T->B').concat(kinds('B->EXIT'))).toEqual(['set', 'count-const']);
    expect(ops.prologue).toEqual([{ kind: 'set', value: 0 }]);
    expect(ops.exceptionalExit).toEqual([{ kind: 'count-add', value: 0 }]);
  });

  it('fold the handler count too when every block that throws out knows the same register', () => {
    const only = namedGraph('ENTRY', 'EXIT', ['ENTRY->T', 'T->EXIT!', 'T->A', 'T->B', 'A->EXIT', 'B->EXIT']);
    const simple = simplifyPathOps(numberPaths(only.graph));
    expect(simple.exceptionalExit).toEqual([{ kind: 'count-const', value: expect.any(Number) }]);
    expect(simple.prologue).toEqual([]);
    expect(simple.edgeOps.flat().every((op) => op.kind === 'count-const')).toBe(true);
  });
});
