import { checkTrace, instrumentForTrace, TraceRecorder, TRACE_GLOBAL } from '@pathprof/cfg';
import {
  generateProgram,
  propertyInputs,
  Random,
  runPlain,
  TIMEOUT,
  type ProgramOptions,
} from '@pathprof/testkit';
import { resetCounts, runtimeGlobals } from './counted-paths';
import { instrument } from './instrument';
import {
  countedInterproceduralPaths,
  expectedInterproceduralCounts,
  procedureIndex,
  type CrossingStats,
} from './interprocedural-oracle';
import type { PluginOptions, Scheme } from '../../src';

/**
 * Interprocedural mode on one generated program, in both schemes: for each input the instrumented run
 * behaves as the traced one (which the tracing oracle's suite checks against the plain run), and the counted
 * paths equal the reference profile of the traced run. Adds what happened across calls to `stats`.
 */
export function checkInterproceduralOnProgram(
  seed: number,
  stats: CrossingStats,
  options: ProgramOptions = {},
): void {
  const program = generateProgram(new Random(seed), options);
  for (const scheme of ['piecewise', 'context'] as const) {
    checkInterproceduralOnSource(
      program.source,
      `generated-${seed}.js`,
      propertyInputs(program.inputs),
      `seed ${seed}, ${scheme}`,
      scheme,
      stats,
    );
  }
}

/** The same check on any CommonJS source whose `module.exports` is the entry. */
export function checkInterproceduralOnSource(
  source: string,
  name: string,
  inputs: readonly unknown[][],
  label: string,
  scheme: Scheme,
  stats: CrossingStats,
  pluginOptions: PluginOptions = {},
): void {
  const where = (args: unknown[]) => `${label}, input ${JSON.stringify(args)}\n${source}`;
  const traced = instrumentForTrace(source, name, { splitCalls: true });
  const instrumented = instrument(source, name, { mode: 'interprocedural', scheme, ...pluginOptions });
  for (const args of inputs) {
    const recorder = new TraceRecorder();
    const tracedRun = runPlain(traced.code, args, { globals: { [TRACE_GLOBAL]: recorder } });
    if ('error' in tracedRun && tracedRun.error.startsWith(TIMEOUT)) continue;
    checkTrace(traced.graphs, recorder.events, false);
    resetCounts();
    const run = runPlain(instrumented, args, { globals: runtimeGlobals() });
    if (JSON.stringify(run) !== JSON.stringify(tracedRun)) {
      throw new Error(
        `behaviour differs: traced ${JSON.stringify(tracedRun)}, interprocedural ${JSON.stringify(run)}\n${where(args)}`,
      );
    }
    const { meta, numbering, paths } = countedInterproceduralPaths(`virtual/${name}`);
    const procedureOf = procedureIndex(meta, traced.graphs);
    let expected: [number, number][];
    try {
      expected = expectedInterproceduralCounts(numbering, traced.graphs, procedureOf, recorder.events, stats);
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${where(args)}`);
    }
    if (JSON.stringify(paths) !== JSON.stringify(expected)) {
      throw new Error(`counted ${JSON.stringify(paths)}, traced ${JSON.stringify(expected)}\n${where(args)}`);
    }
  }
}
