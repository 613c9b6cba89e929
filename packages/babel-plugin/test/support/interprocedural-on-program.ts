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

/**
 * Interprocedural mode on any CommonJS source whose `module.exports` is the entry, in both schemes (or those
 * given): for each input the instrumented run behaves as the traced one (graphs with the same calls split),
 * and the counted paths equal the reference profile of the traced run. Adds what happened across calls to
 * `stats`.
 */
export function checkInterproceduralOnSource(
  source: string,
  name: string,
  inputs: readonly unknown[][],
  label: string,
  stats: CrossingStats,
  pluginOptions: PluginOptions = {},
  schemes: readonly Scheme[] = ['piecewise', 'context'],
): void {
  const where = (scheme: Scheme, args: unknown[]) =>
    `${label}, ${scheme}, input ${JSON.stringify(args)}\n${source}`;
  const traced = instrumentForTrace(source, name, { splitCalls: true });
  const instrumented = schemes.map((scheme) => ({
    scheme,
    code: instrument(source, name, { mode: 'interprocedural', scheme, ...pluginOptions }),
    // The numbering and the graphs' correspondence are the same for every input: recomputed once.
    numbered: null as { numbering: InterproceduralNumbering; procedureOf: number[] } | null,
  }));
  for (const args of inputs) {
    const recorder = new TraceRecorder();
    const tracedRun = runPlain(traced.code, args, { globals: { [TRACE_GLOBAL]: recorder } });
    if ('error' in tracedRun && tracedRun.error.startsWith(TIMEOUT)) continue;
    checkTrace(traced.graphs, recorder.events, false);
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
          recorder.events,
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
