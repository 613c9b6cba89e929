import {
  countPathEnds,
  decodePath,
  NumberingError,
  numberPaths,
  PathEnds,
  type DecodedPath,
  type ExceptionOrigins,
  type FlowGraph,
  type PathEndKind,
  type PathNumbering,
} from '@pathprof/numbering';
import { baseSeed, caseCount, type Random } from '@pathprof/testkit';
import { structuredGraph, unstructuredGraph } from './support/random-graphs';
import { forEachSeededCase } from './support/seeded-cases';

type Tally = Record<PathEndKind | 'fromEntry', number>;
const zero = (): Tally => ({ return: 0, throw: 0, exception: 0, backedge: 0, cut: 0, fromEntry: 0 });

/** Random origins: some exceptional edges are explicit throws, some rethrow what is pending. */
function randomOrigins(rng: Random, graph: FlowGraph): ExceptionOrigins {
  const explicit = new Uint8Array(graph.edgeCount);
  const rethrow = new Uint8Array(graph.edgeCount);
  for (let e = 0; e < graph.edgeCount; e++) {
    if (graph.edgeExceptional[e] !== 1) continue;
    const pick = rng.int(3);
    if (pick === 1) explicit[e] = 1;
    if (pick === 2) rethrow[e] = 1;
  }
  return { explicit, rethrow };
}

/**
 * The oracle, written from the definition: a path ending on an exceptional edge ends as the last exceptional
 * edge on it that is not a rethrow raised it (an explicit one: `throw`), or `exception` when there is none.
 */
function endOf(path: DecodedPath, numbering: PathNumbering, origins: ExceptionOrigins | null): PathEndKind {
  if (path.end.kind !== 'exception') return path.end.kind;
  if (!origins) return 'exception';
  const raisers = path.edges.filter((e) => numbering.edgeExceptional[e] === 1 && origins.rethrow[e] !== 1);
  const last = raisers[raisers.length - 1];
  return last !== undefined && origins.explicit[last] === 1 ? 'throw' : 'exception';
}

/** countPathEnds and PathEnds against decoding every path of random graphs and tallying how each one ends. */
describe('PathEnds', () => {
  test.each([
    ['unstructured graphs with exceptions', (r: Random) => unstructuredGraph(r, 14, true)],
    ['structured graphs', (r: Random) => structuredGraph(r, 30)],
  ])('%s: every path counted once, by how it ends; classified and enumerated alike', (_name, generate) => {
    const seen = zero();
    let throughSome = 0;
    forEachSeededCase(baseSeed(0xe4d5), caseCount(300), 17, (rng) => {
      const graph = generate(rng);
      let numbering = numberPaths(graph);
      // Sometimes with a budget that forces cuts, so paths also end on cut edges.
      const budget = Math.ceil(numbering.pathCount / 2);
      if (rng.chance(0.4) && budget > 1) {
        try {
          numbering = numberPaths(graph, { maxPaths: budget });
        } catch (error) {
          if (!(error instanceof NumberingError && error.code === 'path-budget-too-small')) throw error;
        }
      }
      if (numbering.pathCount > 3000) return;
      const origins = rng.chance(0.7) ? randomOrigins(rng, graph) : null;
      const ends = new PathEnds(numbering, origins ?? undefined);
      const expected = zero();
      const byKind = new Map<PathEndKind, number[]>();
      for (let p = 0; p < numbering.pathCount; p++) {
        const decoded = decodePath(numbering, p);
        const kind = endOf(decoded, numbering, origins);
        expect(ends.kindOf(decoded)).toBe(kind);
        expected[kind]++;
        byKind.set(kind, [...(byKind.get(kind) ?? []), p]);
        if (decoded.start.kind === 'entry') expected.fromEntry++;
      }
      expect(ends.counts).toEqual(expected);
      expect(countPathEnds(numbering, origins ?? undefined)).toEqual(expected);
      // Any set of ends: exactly the paths that end so, in increasing order.
      const kinds = (['return', 'throw', 'exception', 'backedge', 'cut'] as const).filter(() =>
        rng.chance(0.5),
      );
      const wanted = [...byKind].filter(([k]) => kinds.includes(k)).flatMap(([, ps]) => ps);
      expect([...ends.numbersEndingBy(kinds)]).toEqual(wanted.sort((a, b) => a - b));
      for (const k of Object.keys(seen) as (keyof Tally)[]) seen[k] += expected[k];
      // Through a few blocks and edges (the code and jumps on a line): the paths whose blocks or edges meet
      // them, counted and listed alike.
      const inner = Array.from({ length: graph.blockCount }, (_, b) => b).filter(
        (b) => b !== numbering.entry && b !== numbering.exit,
      );
      const blocks = new Set(inner.filter(() => rng.chance(0.1)));
      const edges = new Set(
        Array.from({ length: graph.edgeCount }, (_, e) => e).filter(() => rng.chance(0.05)),
      );
      const restricted = new PathEnds(numbering, origins ?? undefined, { blocks, edges });
      const passing = zero();
      const passingWanted: number[] = [];
      for (let p = 0; p < numbering.pathCount; p++) {
        const decoded = decodePath(numbering, p);
        if (!decoded.blocks.some((b) => blocks.has(b)) && !decoded.edges.some((e) => edges.has(e))) continue;
        const kind = endOf(decoded, numbering, origins);
        passing[kind]++;
        if (decoded.start.kind === 'entry') passing.fromEntry++;
        if (kinds.includes(kind)) passingWanted.push(p);
      }
      expect(restricted.counts).toEqual(passing);
      expect([...restricted.numbersEndingBy(kinds)]).toEqual(passingWanted);
      throughSome += passingWanted.length > 0 && passingWanted.length < wanted.length ? 1 : 0;
    });
    // The cases must exercise every way a path can end, and blocks some but not all wanted paths run.
    for (const n of Object.values(seen)) expect(n).toBeGreaterThan(0);
    expect(throughSome).toBeGreaterThan(10);
  });
});
