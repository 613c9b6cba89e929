// Melski & Reps §7, intraprocedural context profiling: the digest's worked example, refusals, and property
// tests on random reducible graphs (each recorded path decodes to the iteration it was, with its context).
import {
  decodeContextPath,
  numberIntraproceduralContext,
  NumberingError,
  type ContextPathStep,
  type FlowGraph,
  type IntraproceduralContextNumbering,
} from '@pathprof/numbering';
import { baseSeed, caseCount, Random } from '@pathprof/testkit';
import { expectSame } from '../support/fast-expect';
import { namedGraph } from '../support/named-graph';
import { structuredGraph } from '../support/random-graphs';
import { GraphRoutes } from '../support/walks';

/** Executes the ops along a walk of original edges; returns the recorded numbers. */
function runOps(numbering: IntraproceduralContextNumbering, walk: readonly number[]): number[] {
  const records: number[] = [];
  const saved = new Map<number, number>();
  let r = 0;
  for (const e of walk) {
    for (const op of numbering.edgeOps[e]) {
      if (op.kind === 'add') r += op.value;
      else if (op.kind === 'save') saved.set(op.header, r);
      else if (op.kind === 'record') records.push(r + op.value);
      else r = (saved.get(op.header) as number) + op.value;
    }
  }
  return records;
}

/** Whether every route from the entry to `to` passes `through`. */
function dominates(graph: FlowGraph, through: number, to: number): boolean {
  const seen = new Set([graph.entry, through]);
  const stack = [graph.entry];
  while (stack.length > 0) {
    const v = stack.pop() as number;
    if (v === to) return false;
    for (let e = 0; e < graph.edgeCount; e++) {
      if (graph.edgeSrc[e] === v && !seen.has(graph.edgeDst[e])) {
        seen.add(graph.edgeDst[e]);
        stack.push(graph.edgeDst[e]);
      }
    }
  }
  return true;
}

/** The loops of a reducible graph, by dominance alone: backedges are the edges into a dominator of their source. */
function loopsOf(graph: FlowGraph): { backedges: Set<number>; reducible: boolean } {
  const backedges = new Set<number>();
  const state = new Uint8Array(graph.blockCount);
  let reducible = true;
  const visit = (v: number): void => {
    state[v] = 1;
    for (let e = 0; e < graph.edgeCount; e++) {
      if (graph.edgeSrc[e] !== v) continue;
      const w = graph.edgeDst[e];
      if (state[w] === 1) {
        backedges.add(e);
        if (!dominates(graph, w, v)) reducible = false;
      } else if (state[w] === 0) visit(w);
    }
    state[v] = 2;
  };
  visit(graph.entry);
  return { backedges, reducible };
}

/** The paths a walk produces by the definition: a backedge ends the path and restarts with the loop's context. */
function expectedPaths(
  graph: FlowGraph,
  backedges: Set<number>,
  walk: readonly number[],
): ContextPathStep[][] {
  const headers = new Set([...backedges].map((e) => graph.edgeDst[e]));
  const paths: ContextPathStep[][] = [];
  const context = new Map<number, ContextPathStep[]>();
  let steps: ContextPathStep[] = [];
  for (const e of walk) {
    const target = graph.edgeDst[e];
    steps.push({ kind: 'edge', edge: e });
    if (target === graph.exit) paths.push(steps);
    else if (backedges.has(e)) {
      paths.push(steps);
      steps = [...(context.get(target) as ContextPathStep[]), { kind: 'restart', header: target }];
    } else if (headers.has(target)) context.set(target, [...steps]);
  }
  return paths;
}

describe('the digest’s worked example (§7)', () => {
  const named = namedGraph('Entry', 'Exit', [
    'Entry->A',
    'A->B',
    'A->C',
    'B->H',
    'C->H',
    'H->D',
    'H->X',
    'D->E',
    'D->F',
    'E->W',
    'F->W',
    'W->H',
    'X->Exit',
  ]);
  const numbering = numberIntraproceduralContext(named.graph);
  const walk = (...labels: string[]): number[] => labels.map((l) => named.edge(l));
  const loop = (branch: 'E' | 'F'): string[] => ['H->D', `D->${branch}`, `${branch}->W`, 'W->H'];

  it('has 12 paths; the first iteration keeps whether B or C led into the loop', () => {
    expect(numbering.pathCount).toBe(12);
    expect(numbering.headers).toEqual([named.block('H')]);
    expect(
      runOps(numbering, walk('Entry->A', 'A->C', 'C->H', ...loop('E'), ...loop('F'), 'H->X', 'X->Exit')),
    ).toEqual([6, 10, 11]);
    expect(
      runOps(
        numbering,
        walk('Entry->A', 'A->B', 'B->H', ...loop('F'), ...loop('F'), ...loop('E'), 'H->X', 'X->Exit'),
      ),
    ).toEqual([1, 4, 3, 5]);
  });

  it('decodes a restarted iteration into its context prefix and active suffix', () => {
    const decoded = decodeContextPath(numbering, 10);
    const name = (step: ContextPathStep): string =>
      step.kind === 'edge' ? named.edgeLabel(step.edge) : `restart ${named.blockNames[step.header]}`;
    expect(decoded.steps.slice(0, decoded.contextLength).map(name)).toEqual([
      'Entry->A',
      'A->C',
      'C->H',
      'restart H',
    ]);
    expect(decoded.steps.slice(decoded.contextLength).map(name)).toEqual(['H->D', 'D->F', 'F->W', 'W->H']);
  });
});

it('refuses irreducible loops and exceptions into a loop header, naming the edge', () => {
  const irreducible = namedGraph('Entry', 'Exit', ['Entry->A', 'Entry->B', 'A->B', 'B->A', 'A->Exit']);
  expect(() => numberIntraproceduralContext(irreducible.graph)).toThrow(/irreducible/);
  const intoHeader = namedGraph('Entry', 'Exit', ['Entry->A', 'A->H!', 'A->H', 'H->H', 'H->Exit']);
  expect(() => numberIntraproceduralContext(intoHeader.graph)).toThrow(NumberingError);
});

describe('random structured graphs', () => {
  const SEED = baseSeed(0xc0de);

  it('numbers each iteration with its context, decodes it back, and refuses exactly the irreducible graphs', () => {
    let checked = 0;
    let refused = 0;
    for (let i = 0; i < caseCount(400); i++) {
      const rng = new Random((SEED + i * 7919) >>> 0);
      const graph = structuredGraph(rng, 28);
      const { backedges, reducible } = loopsOf(graph);
      const intoHeader = Array.from(graph.edgeExceptional).some(
        (x, e) => x === 1 && [...backedges].some((b) => graph.edgeDst[b] === graph.edgeDst[e]),
      );
      if (!reducible || intoHeader) {
        expect(() => numberIntraproceduralContext(graph)).toThrow(NumberingError);
        refused++;
        continue;
      }
      const numbering = numberIntraproceduralContext(graph);
      const routes = new GraphRoutes(graph);
      for (let k = 0; k < 6; k++) {
        const walk = routes.walk(rng, rng.range(0, 40), 0.1).edges;
        const numbers = runOps(numbering, walk);
        const expected = expectedPaths(graph, backedges, walk);
        try {
          expectSame(
            numbers.map((n) => decodeContextPath(numbering, n).steps),
            expected,
          );
        } catch (error) {
          throw new Error(`base seed ${SEED}, case ${i}: ${(error as Error).message}`);
        }
      }
      checked++;
    }
    expect(checked).toBeGreaterThan(caseCount(400) / 3);
    expect(refused).toBeGreaterThan(0);
  });
});
