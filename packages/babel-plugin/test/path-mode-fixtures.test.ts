import { canInstrument, checkTrace, instrumentForTrace, TraceRecorder, TRACE_GLOBAL } from '@pathprof/cfg';
import { listFixtures, runScript, toScript } from '@pathprof/testkit';
import { countedPaths, derivedEdgeCounts, resetCounts, runtimeGlobals } from './support/counted-paths';
import { instrument } from './support/instrument';
import { pathsFromTrace, tally } from './support/paths-from-trace';

/**
 * Fixtures only sloppy mode parses (`with`, Annex B functions in blocks, a call as an assignment target), or that
 * call a script's functions as properties of the global object.
 */
const SLOPPY = new Set([
  'annex-b-function-declarations.js',
  'call-assignment-target.js',
  'name-reads.js',
  'hoisted-reads.js',
]);

/**
 * Path mode on every graph fixture: the instrumented program prints exactly what the plain one prints, and
 * each function's path counts equal the paths of the same run's traced edge sequences, numbered from `Val`.
 */
describe.each(
  listFixtures()
    .filter((f) => !f.source.startsWith('// graph-only'))
    .map((f) => [f.name, f] as const),
)('path mode on %s', (name, fixture) => {
  test('behaves like the plain run; path and edge counts equal the traced ones', async () => {
    const plain = await runScript(toScript(fixture.source, name), name);
    const traced = instrumentForTrace(fixture.source, name);
    const recorder = new TraceRecorder();
    await runScript(toScript(traced.code, name), name, { [TRACE_GLOBAL]: recorder });
    const activations = checkTrace(traced.graphs, recorder.events, plain.error !== null);

    resetCounts();
    const run = await runScript(instrument(fixture.source, name), name, runtimeGlobals());
    expect(run).toEqual(plain);
    const { meta, numberings, paths } = countedPaths(`virtual/${name}`);
    const graphs = traced.graphs.map((g, i) => ({ g, i })).filter(({ g }) => canInstrument(g));
    expect(meta.functions.map((f) => f.name)).toEqual(graphs.map(({ g }) => g.name));
    const expected = meta.functions.map((_fn, k) =>
      tally(
        activations
          .filter((a) => a.graph === graphs[k].i)
          .flatMap((a) => pathsFromTrace(numberings[k], a.edges)),
      ),
    );
    expect(paths).toEqual(expected);

    // As CommonJS, path mode counts at constant indexes in module variables, which the runtime adds into the
    // file's array when the counts are read: the same counts.
    if (name.endsWith('.js')) {
      resetCounts();
      const cjs = `${name.slice(0, -3)}.cjs`;
      const variablesCode = instrument(fixture.source, cjs);
      const cjsRun = await runScript(variablesCode, cjs, runtimeGlobals());
      expect(cjsRun).toEqual(plain);
      expect(countedPaths(`virtual/${cjs}`).paths).toEqual(expected);

      // So does a `.js` file parsed as a module (Babel's default) without import or export, as a user's
      // CommonJS file is: wherever the `.cjs` build counts in variables, this one does too.
      if (!SLOPPY.has(name)) {
        resetCounts();
        const moduleCode = instrument(fixture.source, name, {}, 'module');
        if (/_pp_take/.test(variablesCode)) expect(moduleCode).toMatch(/_pp_take/);
        expect(await runScript(moduleCode, name, runtimeGlobals())).toEqual(plain);
        expect(countedPaths(`virtual/${name}`).paths).toEqual(expected);
      }
    }

    // Every function in a hash table (last-path cache included) counts the same paths.
    resetCounts();
    const hashRun = await runScript(
      instrument(fixture.source, name, { hashThreshold: 1 }),
      name,
      runtimeGlobals(),
    );
    expect(hashRun).toEqual(plain);
    const hashed = countedPaths(`virtual/${name}`);
    expect(
      hashed.meta.functions.every((f) => f.path!.storage.kind === 'hash' || f.path!.pathCount === 1),
    ).toBe(true);
    expect(hashed.paths).toEqual(expected);

    // Edge mode on the same program: every edge count, derived from chord counters, equals the traced count.
    resetCounts();
    const edgeRun = await runScript(
      instrument(fixture.source, name, { mode: 'edge' }),
      name,
      runtimeGlobals(),
    );
    expect(edgeRun).toEqual(plain);
    const derived = derivedEdgeCounts(`virtual/${name}`, (k) => {
      const exits = new Array<number>(graphs[k].g.blockCount).fill(0);
      for (const a of activations) if (a.graph === graphs[k].i && a.end === 'open') exits[a.block]++;
      return exits;
    });
    const tracedEdges = graphs.map(({ g, i }) => {
      const counts = new Array<number>(g.edgeCount).fill(0);
      for (const a of activations) if (a.graph === i) for (const e of a.edges) counts[e]++;
      return counts;
    });
    expect(derived).toEqual(tracedEdges);
  });
});
