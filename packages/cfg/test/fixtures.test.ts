import {
  buildInstrumentedCfgs,
  checkTrace,
  formatArrows,
  instrumentForTrace,
  parseSource,
  TraceRecorder,
  TRACE_GLOBAL,
  validateCfg,
} from '@pathprof/cfg';
import { listFixtures, runScript, toScript, writeExpected } from '@pathprof/testkit';

const update = process.env.UPDATE === '1';

/**
 * ESLint-style graph fixtures: each file is code plus calls that exercise it, followed by the expected
 * graph of every function as text arrows. Each is checked three ways: the graph equals the expectation,
 * the traced run's edge sequences are paths of the graph, and the traced run prints what the plain one does.
 */
describe.each(listFixtures().map((f) => [f.name, f] as const))('fixture %s', (_name, fixture) => {
  const program = parseSource(fixture.source, fixture.name).program;
  const graphs = buildInstrumentedCfgs(program, fixture.name);
  const keyed = graphs.map((g, i) => ({ key: `${i} ${g.name}`, arrows: formatArrows(g) }));

  test('graph matches the expected arrows', () => {
    if (update) writeExpected(fixture, keyed);
    else
      expect(Object.fromEntries(keyed.map((g) => [g.key, g.arrows]))).toEqual(
        Object.fromEntries(fixture.expected),
      );
  });

  test('every graph keeps the invariants', () => {
    for (const g of graphs) expect([g.name, validateCfg(g)]).toEqual([g.name, []]);
  });

  const runnable = !fixture.source.startsWith('// graph-only');
  (runnable ? test : test.skip)('traced run follows graph paths and behaves like the plain run', async () => {
    const plain = await runScript(toScript(fixture.source, fixture.name), fixture.name);
    const traced = instrumentForTrace(fixture.source, fixture.name);
    const recorder = new TraceRecorder();
    const run = await runScript(toScript(traced.code, fixture.name), fixture.name, {
      [TRACE_GLOBAL]: recorder,
    });
    expect(run).toEqual(plain);
    const activations = checkTrace(traced.graphs, recorder.events, run.error !== null);
    expect(activations.length).toBeGreaterThan(0);
  });
});
