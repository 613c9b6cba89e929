import { checkTrace, instrumentForTrace, TraceRecorder, TRACE_GLOBAL } from '@pathprof/cfg';
import { runPlain, TIMEOUT } from '@pathprof/testkit';
import { runCounted } from './counted-paths';
import { instrument } from './instrument';
import {
  countedInterproceduralPaths,
  expectedInterproceduralCounts,
  procedureIndex,
  type CrossingStats,
} from './interprocedural-oracle';
import { getStore } from '@pathprof/runtime';
import type { FileMetadata, PluginOptions, Scheme } from '../../src';
import type { InterproceduralNumbering } from '@pathprof/numbering';
import type { TracedProgram, TracedRun } from '../../../cfg/test/support/random-programs';

/**
 * Interprocedural mode on a traced program (CommonJS, `module.exports` the entry), in both schemes (or those
 * given): for each traced input the instrumented run behaves as the traced one (graphs with the same calls
 * split), and the counted paths equal the reference profile of the traced run. A program with no call that
 * the mode could split has path mode's graphs: its trace serves as it is; any other is traced again with its
 * calls split. Adds what happened across calls to `stats`.
 */
export function checkInterproceduralOnTraced(
  program: TracedProgram,
  stats: CrossingStats,
  pluginOptions: PluginOptions = {},
  schemes: readonly Scheme[] = ['piecewise', 'context'],
): void {
  const { source, name, label } = program;
  const where = (scheme: Scheme, args: unknown[]) =>
    `${label}, ${scheme}, input ${JSON.stringify(args)}\n${source}`;
  const { traced, runs } = program.traced.hasCallsToSplit ? tracedWithCallsSplit(program) : program;
  const instrumented = schemes.map((scheme) => ({
    scheme,
    code: instrument(source, name, { mode: 'interprocedural', scheme, ...pluginOptions }),
    // The numbering and the graphs' correspondence are the same for every input: recomputed once.
    numbered: null as { numbering: InterproceduralNumbering; procedureOf: number[] } | null,
  }));
  for (const { args, result: tracedRun, events } of runs) {
    for (const run of instrumented) {
      const result = runCounted(run.code, args);
      if (JSON.stringify(result) !== JSON.stringify(tracedRun)) {
        throw new Error(
          `behaviour differs: traced ${JSON.stringify(tracedRun)}, interprocedural ${JSON.stringify(result)}\n${where(run.scheme, args)}`,
        );
      }
      // A file whose paths do not fit a small budget is counted per function: the path-mode tests cover that.
      const record = getStore().files[`virtual/${name}`];
      if (pluginOptions.maxPaths && (JSON.parse(record.meta) as FileMetadata).mode === 'path') continue;
      const counted = countedInterproceduralPaths(`virtual/${name}`, run.numbered?.numbering);
      run.numbered ??= {
        numbering: counted.numbering,
        procedureOf: procedureIndex(counted.meta, traced.graphs),
      };
      const { numbering, procedureOf } = run.numbered;
      let expected: [number, number][];
      try {
        expected = expectedInterproceduralCounts(
          numbering,
          traced.graphs,
          procedureOf,
          events,
          run === instrumented[0] ? stats : undefined,
        );
      } catch (error) {
        throw new Error(`${(error as Error).message}\n${where(run.scheme, args)}`);
      }
      if (JSON.stringify(counted.paths) !== JSON.stringify(expected)) {
        throw new Error(
          `counted ${JSON.stringify(counted.paths)}, traced ${JSON.stringify(expected)}\n${where(run.scheme, args)}`,
        );
      }
    }
  }
}

/** The program traced again, on the same inputs, with the calls interprocedural mode splits split. */
function tracedWithCallsSplit(program: TracedProgram): Pick<TracedProgram, 'traced' | 'runs'> {
  const traced = instrumentForTrace(program.source, program.name, { splitCalls: true });
  const runs: TracedRun[] = [];
  for (const { args } of program.runs) {
    const recorder = new TraceRecorder();
    const result = runPlain(traced.code, args, { globals: { [TRACE_GLOBAL]: recorder } });
    if ('error' in result && result.error.startsWith(TIMEOUT)) continue;
    const activations = checkTrace(traced.graphs, recorder.events, false);
    runs.push({ args, result, events: recorder.events, activations });
  }
  return { traced, runs };
}
