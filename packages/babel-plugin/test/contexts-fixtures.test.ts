import { canInstrument, instrumentForTrace, TraceRecorder, TRACE_GLOBAL } from '@pathprof/cfg';
import { listFixtures, runScript, toScript } from '@pathprof/testkit';
import { resetCounts, runtimeGlobals } from './support/counted-paths';
import { instrument } from './support/instrument';
import {
  contextReading,
  countedContexts,
  emptyContextStats,
  expectedContexts,
  tallyDifferences,
  tracedContexts,
} from './support/contexts-oracle';

const stats = emptyContextStats();

/**
 * Calling contexts on every graph fixture, alone and with paths per context: the instrumented program prints
 * exactly what the plain one prints, every context is counted as often as the traced run entered a function
 * in it (its real stack of instrumented frames), and each path as often as it ran in that context.
 */
describe.each(
  listFixtures()
    .filter((f) => !f.source.startsWith('// graph-only'))
    .map((f) => [f.name, f] as const),
)('calling contexts on %s', (name, fixture) => {
  test.each([
    ['contexts', { mode: 'contexts' }],
    ['paths per context', { mode: 'path', contexts: true }],
    ['paths per context, small context budget', { mode: 'path', contexts: true, maxContexts: 4 }],
  ] as const)('%s: behaves like the plain run, counts equal the traced ones', async (_label, options) => {
    const plain = await runScript(toScript(fixture.source, name), name);
    const traced = instrumentForTrace(fixture.source, name);
    const recorder = new TraceRecorder();
    await runScript(toScript(traced.code, name), name, { [TRACE_GLOBAL]: recorder });
    const activations = tracedContexts(traced.graphs, recorder.events, stats);

    resetCounts();
    const run = await runScript(instrument(fixture.source, name, options), name, runtimeGlobals());
    expect(run).toEqual(plain);
    const reading = contextReading(`virtual/${name}`);
    const counted = countedContexts(reading);
    let next = 0;
    const functionOf = traced.graphs.map((g) => (canInstrument(g) ? next++ : -1));
    const expected = expectedContexts(reading, activations, functionOf);
    expect(tallyDifferences(counted.entries, expected.entries)).toEqual([]);
    expect(tallyDifferences(counted.paths, expected.paths)).toEqual([]);
  });
});

test('the fixtures nest calls, recurse, suspend and throw out of frames', () => {
  expect(stats.nestedEntries).toBeGreaterThan(50);
  expect(stats.recursiveEntries).toBeGreaterThan(0);
  expect(stats.resumptions).toBeGreaterThan(0);
  expect(stats.throwsOut).toBeGreaterThan(0);
});
