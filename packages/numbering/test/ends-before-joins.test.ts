// endsBeforeJoins on seeded random graphs: moving the ops of an edge into EXIT back before a join that cannot
// throw counts the same path numbers along every walk, exceptions and silent edges included, before and after
// simplifyPathOps. Reproduce a failure with PATHPROF_SEED=<base seed>, soak with PATHPROF_SOAK=<multiplier>.
import {
  endsBeforeJoins,
  numberPaths,
  simplifyPathOps,
  type FlowGraph,
  type OpProgram,
  type PathOp,
} from '@pathprof/numbering';
import { baseSeed, caseCount, type Random } from '@pathprof/testkit';
import { expectSame } from './support/fast-expect';
import { namedGraph } from './support/named-graph';
import { GRAPH_FAMILIES, withSilentEdges } from './support/random-graphs';
import { forEachSeededCase } from './support/seeded-cases';
import { execute } from './support/simulate';
import { GraphRoutes } from './support/walks';

const SEED = baseSeed(0xe4d5);
const WALKS = 16;

/**
 * Ops as Melski and Reps' numbering places them for a root: register increments on normal edges (some
 * `set`s, as restarts), the path recorded on every edge into EXIT, by the handler where an exception leaves.
 */
function recordedAtExit(graph: FlowGraph, rng: Random): OpProgram {
  const edgeOps = Array.from({ length: graph.edgeCount }, (_, e): PathOp[] => {
    const intoExit = graph.edgeDst[e] === graph.exit;
    if (graph.edgeExceptional[e] === 1) return intoExit ? [{ kind: 'count-add', value: 0 }] : [];
    if (graph.edgeSilent?.[e] === 1) return [];
    const ops: PathOp[] = [];
    if (rng.chance(0.6)) ops.push({ kind: rng.chance(0.2) ? 'set' : 'add', value: rng.int(9) });
    if (intoExit) ops.push({ kind: 'count-add', value: rng.int(3) });
    return ops;
  });
  return { ...graph, prologue: [{ kind: 'set', value: 0 }], edgeOps };
}

describe.each(GRAPH_FAMILIES)('ends before joins on %s', (name, generate) => {
  const salt = GRAPH_FAMILIES.findIndex(([n]) => n === name) * 1_000_003;

  it('count the same path numbers along every walk, before and after simplifying', () => {
    let moved = 0;
    forEachSeededCase(SEED, caseCount(400), salt, (rng) => {
      let graph = generate(rng);
      if (rng.chance(0.3)) graph = withSilentEdges(graph, rng);
      let program: OpProgram = recordedAtExit(graph, rng);
      if (rng.chance(0.3)) {
        try {
          program = numberPaths(graph);
        } catch {
          return; // silent edges the numbering refuses
        }
      }
      const before = endsBeforeJoins(program);
      for (let e = 0; e < graph.edgeCount; e++) {
        if (graph.edgeExceptional[e] === 1 || graph.edgeSilent?.[e] === 1)
          expectSame(before.edgeOps[e], program.edgeOps[e]);
        if (before.edgeOps[e].length > program.edgeOps[e].length) moved++;
      }
      const simplified = simplifyPathOps(before);
      const routes = new GraphRoutes(graph);
      for (let k = 0; k < WALKS; k++) {
        const { edges } = routes.walk(rng, rng.range(0, 40), rng.chance(0.5) ? 0.05 : 0.3);
        const expected = execute(program, edges).counted;
        expectSame(execute(before, edges).counted, expected);
        expectSame(execute(simplified, edges).counted, expected);
      }
    });
    expect(moved).toBeGreaterThan(0);
  });
});

describe('ends before joins on a fib-like function counted at its exit', () => {
  // fib(n) as Melski and Reps number it: T tests n < 2; A returns n; B calls fib twice; J joins the two
  // values and returns (it cannot throw); the path is recorded on J->EXIT.
  const fib = namedGraph('ENTRY', 'EXIT', [
    'ENTRY->T',
    'T->EXIT!',
    'T->A',
    'T->B',
    'A->J',
    'B->J',
    'B->EXIT!',
    'J->EXIT',
  ]);
  const placed: Record<string, PathOp[]> = {
    'T->A': [{ kind: 'add', value: 1 }],
    'T->B': [{ kind: 'add', value: 2 }],
    'J->EXIT': [{ kind: 'count-add', value: 0 }],
  };
  const program: OpProgram = {
    ...fib.graph,
    prologue: [{ kind: 'set', value: 0 }],
    edgeOps: Array.from({ length: fib.graph.edgeCount }, (_, e): PathOp[] =>
      fib.graph.edgeExceptional[e] === 1 && fib.graph.edgeDst[e] === fib.graph.exit
        ? [{ kind: 'count-add', value: 0 }]
        : (placed[fib.edgeLabel(e)] ?? []),
    ),
  };

  it('counts each return at a constant index once the ops are simplified', () => {
    const simplified = simplifyPathOps(endsBeforeJoins(program));
    const kinds = (label: string) => simplified.edgeOps[fib.edge(label)].map((op) => op.kind);
    expect(kinds('J->EXIT')).toEqual([]);
    expect(kinds('A->J')).toEqual(['count-const']);
    expect(kinds('B->J')).toEqual(['count-const']);
  });
});
