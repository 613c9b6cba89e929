// Property tests of precise calling context encoding on seeded random call graphs (recursion, polymorphic and
// unknown call sites, several entries, small budgets). Reproduce with PATHPROF_SEED=<base seed>.
import {
  ContextEncoder,
  decodeContext,
  numberContexts,
  type ContextCallGraph,
  type ContextFrame,
  type ContextNumbering,
} from '@pathprof/numbering';
import { baseSeed, caseCount, type Random } from '@pathprof/testkit';
import { expectSame } from '../support/fast-expect';
import { forEachSeededCase } from '../support/seeded-cases';
import { encodeFrames } from './support/named-call-graph';

const SEED = baseSeed(0xcce);

const forEachCase = (count: number, salt: number, check: (rng: Random) => void): void =>
  forEachSeededCase(SEED, count, salt, check);

/** Up to 9 functions; sites with zero (unknown callee), one or two targets; forward-only when `acyclic`. */
function randomCallGraph(rng: Random, acyclic: boolean): ContextCallGraph {
  const count = rng.range(1, 9);
  const sites: { site: number; caller: number }[] = [];
  const edges: { site: number; callee: number }[] = [];
  for (let caller = 0; caller < count; caller++) {
    for (let k = rng.int(4); k > 0; k--) {
      const site = sites.push({ site: sites.length, caller }) - 1;
      const targets = rng.chance(0.15) ? 0 : rng.chance(0.2) ? 2 : 1;
      const callees = new Set<number>();
      for (let t = 0; t < targets; t++) {
        const callee = acyclic ? rng.range(caller + 1, count) : rng.int(count);
        if (callee < count) callees.add(callee);
      }
      for (const callee of callees) edges.push({ site, callee });
    }
  }
  // Each callee numbers its in-edges in listing order: shuffle it.
  for (let i = edges.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [edges[i], edges[j]] = [edges[j], edges[i]];
  }
  const entries = [0];
  for (let f = 1; f < count; f++) if (rng.chance(0.2)) entries.push(f);
  return { functionNames: Array.from({ length: count }, (_, f) => `f${f}`), entries, sites, edges };
}

/** Every context from the entries of an acyclic graph, at most `limit`. */
function allContexts(numbering: ContextNumbering, limit: number): ContextFrame[][] | null {
  const contexts: ContextFrame[][] = [];
  const walk = (context: ContextFrame[]): boolean => {
    if (contexts.push(context) > limit) return false;
    const fn = context[context.length - 1].function;
    return numbering.edges.every(
      (edge) => edge.caller !== fn || walk([...context, { function: edge.callee, site: edge.site }]),
    );
  };
  return numbering.entries.every((entry) => walk([{ function: entry, site: null }])) ? contexts : null;
}

it('numbers the contexts of each function of an acyclic graph one-to-one onto [0, numCC)', () => {
  let checked = 0;
  forEachCase(caseCount(400), 0, (rng) => {
    const numbering = numberContexts(randomCallGraph(rng, true));
    const contexts = allContexts(numbering, 3000);
    if (contexts === null) return;
    checked++;
    const ids = numbering.functionNames.map((): number[] => []);
    for (const context of contexts) {
      const encoded = encodeFrames(numbering, context);
      expectSame(encoded.stack, []);
      ids[encoded.function].push(encoded.id);
      expectSame(decodeContext(numbering, encoded), context);
    }
    ids.forEach((list, f) => {
      expectSame(
        [...list].sort((a, b) => a - b),
        Array.from({ length: numbering.numCC[f] }, (_, i) => i),
      );
    });
  });
  expect(checked).toBeGreaterThan(caseCount(400) / 2);
});

it('decodes every context of random executions, with recursion, fallbacks and reduction, to itself', () => {
  let snapshots = 0;
  let pushed = 0;
  forEachCase(caseCount(400), 1, (rng) => {
    const graph = randomCallGraph(rng, false);
    const budget = rng.chance(0.3) ? rng.range(1, 6) : undefined;
    const numbering = numberContexts(graph, {
      budget,
      edgeWeights: rng.chance(0.5) ? graph.edges.map(() => rng.int(10)) : undefined,
    });
    if (budget !== undefined) expect(Math.max(...numbering.numCC)).toBeLessThanOrEqual(budget);
    const seen = new Map<string, string>();
    for (let run = 0; run < 4; run++) {
      const encoder = new ContextEncoder(numbering);
      encoder.enter(rng.pick(numbering.entries));
      for (let step = 0, depth = 1; step < 60 && depth > 0; step++) {
        const fn = encoder.context()[depth - 1].function;
        const own = graph.sites.filter((s) => s.caller === fn);
        if (own.length > 0 && depth < 12 && rng.chance(0.6)) {
          const { site } = rng.pick(own);
          const listed = graph.edges.filter((e) => e.site === site).map((e) => e.callee);
          // An unknown or unprofiled target can only be a function with a dummy edge: an entry.
          const callee =
            listed.length > 0 && rng.chance(0.9) ? rng.pick(listed) : rng.pick(numbering.entries);
          encoder.call(site, callee);
          depth++;
        } else {
          encoder.return();
          depth--;
          if (depth === 0) break;
        }
        const encoded = encoder.encoded();
        const context = encoder.context();
        expectSame(decodeContext(numbering, encoded), context);
        const key = JSON.stringify(encoded);
        const previous = seen.get(key);
        if (previous !== undefined) expectSame(previous, JSON.stringify(context));
        seen.set(key, JSON.stringify(context));
        snapshots++;
        pushed += encoded.stack.length > 0 ? 1 : 0;
      }
    }
  });
  expect(snapshots).toBeGreaterThan(caseCount(400) * 10);
  expect(pushed).toBeGreaterThan(caseCount(400));
});
