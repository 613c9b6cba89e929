import { checkTrace, instrumentForTrace, TraceRecorder, TRACE_GLOBAL } from '@pathprof/cfg';
import { listFixtures, runScript, toScript } from '@pathprof/testkit';
import { getStore, HASH_FRONT_SLOTS } from '@pathprof/runtime';
import type { FileMetadata } from '../src';
import { resetCounts, runtimeGlobals } from './support/counted-paths';
import { instrument } from './support/instrument';
import {
  countedInterproceduralPaths,
  expectedInterproceduralCounts,
  procedureIndex,
  type CrossingStats,
} from './support/interprocedural-oracle';

// Instrumenting a large fixture takes seconds alone, far longer beside the rest of the suite on two cores.
jest.setTimeout(60_000);

const stats: CrossingStats = { crossedEntries: 0, crossedThrows: 0, handlerRestarts: 0 };
/** Components of the crossed call graph counted in array slices and in hash tables, over all fixtures. */
const storage = { slices: 0, tables: 0, multiple: 0 };

/**
 * Interprocedural mode on every graph fixture, in both schemes: the instrumented program prints exactly what
 * the plain one prints, and the counted paths equal the reference profile (Melski & Reps' definitions) of
 * the same run traced edge by edge and call by call.
 */
describe.each(
  listFixtures()
    .filter((f) => !f.source.startsWith('// graph-only'))
    .map((f) => [f.name, f] as const),
)('interprocedural mode on %s', (name, fixture) => {
  // A small hashThreshold counts the larger components in hash tables, the others in the array.
  test.each([
    ['piecewise', 2 ** 30, 4096],
    ['context', 2 ** 30, 16],
    ['piecewise', 256, 16],
  ] as const)(
    '%s scheme, maxPaths %d, hashThreshold %d: behaves like the plain run, counts equal the traced ones',
    async (scheme, maxPaths, hashThreshold) => {
      const plain = await runScript(toScript(fixture.source, name), name);
      const traced = instrumentForTrace(fixture.source, name, { splitCalls: true });
      const recorder = new TraceRecorder();
      await runScript(toScript(traced.code, name), name, { [TRACE_GLOBAL]: recorder });
      checkTrace(traced.graphs, recorder.events, plain.error !== null);

      resetCounts();
      const run = await runScript(
        instrument(fixture.source, name, { mode: 'interprocedural', scheme, maxPaths, hashThreshold }),
        name,
        runtimeGlobals(),
      );
      expect(run).toEqual(plain);
      // A file whose paths do not fit a small budget is counted per function: the path-mode tests cover that.
      const record = getStore().files[`virtual/${name}`];
      if (maxPaths < 2 ** 30 && (JSON.parse(record.meta) as FileMetadata).mode === 'path') return;
      const { meta, numbering, paths } = countedInterproceduralPaths(`virtual/${name}`);
      const { arrayOffset, table } = meta.interprocedural!.storage;
      storage.slices += arrayOffset.filter((offset) => offset >= 0).length;
      storage.tables += table.filter((k) => k >= 0).length;
      if (arrayOffset.length > 1) storage.multiple++;
      const procedureOf = procedureIndex(meta, traced.graphs);
      expect(paths).toEqual(
        expectedInterproceduralCounts(numbering, traced.graphs, procedureOf, recorder.events, stats),
      );
    },
  );
});

test('the fixtures cross calls, throw out of crossed callees and restart in handlers', () => {
  expect(stats.crossedEntries).toBeGreaterThan(50);
  expect(stats.crossedThrows).toBeGreaterThan(0);
  expect(stats.handlerRestarts).toBeGreaterThan(0);
});

test('the fixtures count components of the crossed call graph in array slices and in hash tables', () => {
  expect(storage.multiple).toBeGreaterThan(10);
  expect(storage.slices).toBeGreaterThan(100);
  expect(storage.tables).toBeGreaterThan(10);
});

test('a hash table counts what an array counts, with paths evicting each other from the cache in front of it', async () => {
  // 2,048 paths through `bits`, each entered from `run`'s loop twice: paths 1,024 apart share a cache slot.
  const decisions = Array.from({ length: 11 }, (_, k) => `if (x & ${1 << k}) n++;`).join('\n  ');
  const source = `function bits(x) {\n  let n = 0;\n  ${decisions}\n  return n;\n}\nfunction run() {\n  let total = 0;\n  for (let i = 0; i < 4096; i++) total += bits(i);\n  return total;\n}\nrun();\n`;
  const counted = async (hashThreshold: number) => {
    resetCounts();
    await runScript(
      instrument(source, 'bits.js', { mode: 'interprocedural', hashThreshold }),
      'bits.js',
      runtimeGlobals(),
    );
    const { meta, paths } = countedInterproceduralPaths('virtual/bits.js');
    return { tables: meta.interprocedural!.storage.table.filter((k) => k >= 0).length, paths };
  };
  const inArray = await counted(2 ** 20);
  const inTable = await counted(1);
  expect([inArray.tables, inTable.tables]).toEqual([0, 1]);
  const slots = new Set(inTable.paths.map(([p]) => p % HASH_FRONT_SLOTS));
  expect(inTable.paths.length).toBeGreaterThan(2 * slots.size - 10);
  expect(inTable.paths).toEqual(inArray.paths);
});
