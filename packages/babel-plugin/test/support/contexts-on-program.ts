import { canInstrument, instrumentForTrace, TraceRecorder, TRACE_GLOBAL } from '@pathprof/cfg';
import {
  generateProgram,
  propertyInputs,
  Random,
  runPlain,
  TIMEOUT,
  type ProgramOptions,
} from '@pathprof/testkit';
import type { PluginOptions } from '../../src';
import { countedPaths, resetCounts, runtimeGlobals } from './counted-paths';
import { instrument } from './instrument';
import {
  countedContexts,
  expectedContexts,
  tallyDifferences,
  tracedContexts,
  type ContextStats,
} from './contexts-oracle';

/** How a program is instrumented for the calling-context property tests. */
export type ContextVariant = 'contexts' | 'paths' | 'paths-small';

/** The variants in turn, one per seed. */
export const CONTEXT_VARIANTS: readonly ContextVariant[] = ['contexts', 'paths', 'paths-small'];

const OPTIONS: Record<ContextVariant, PluginOptions> = {
  contexts: { mode: 'contexts' },
  paths: { mode: 'path', contexts: true },
  // A budget this small reduces most numbered calls to pushes.
  'paths-small': { mode: 'path', contexts: true, maxContexts: 8 },
};

/** Calling contexts on one generated program (see `checkContextsOnSource`); `options` bias the generator. */
export function checkContextsOnProgram(
  seed: number,
  variant: ContextVariant,
  stats: ContextStats,
  options: ProgramOptions = {},
): void {
  const program = generateProgram(new Random(seed), options);
  checkContextsOnSource(
    program.source,
    `generated-${seed}.js`,
    propertyInputs(program.inputs),
    `seed ${seed}, ${variant}`,
    variant,
    stats,
  );
}

/**
 * Calling contexts on a CommonJS source whose `module.exports` is the entry: for each input the instrumented
 * run returns or throws what the traced run does, each context is counted as often as the traced run entered
 * a function with that real stack of instrumented frames (`tracedContexts`), and with paths each path as often
 * as it ran in that context. `paths-small` also runs path mode and checks that the paths per context sum to
 * its counts.
 */
export function checkContextsOnSource(
  source: string,
  name: string,
  inputs: readonly unknown[][],
  label: string,
  variant: ContextVariant,
  stats: ContextStats,
): void {
  const where = (args: unknown[]) => `${label}, input ${JSON.stringify(args)}\n${source}`;
  const traced = instrumentForTrace(source, name);
  const options = OPTIONS[variant];
  const code = instrument(source, name, options);
  const plainPaths = variant === 'paths-small' ? instrument(source, name, { mode: 'path' }) : null;
  let next = 0;
  const functionOf = traced.graphs.map((g) => (canInstrument(g) ? next++ : -1));
  for (const args of inputs) {
    const recorder = new TraceRecorder();
    const tracedRun = runPlain(traced.code, args, { globals: { [TRACE_GLOBAL]: recorder } });
    if ('error' in tracedRun && tracedRun.error.startsWith(TIMEOUT)) continue;
    resetCounts();
    const run = runPlain(code, args, { globals: runtimeGlobals() });
    if (JSON.stringify(run) !== JSON.stringify(tracedRun)) {
      throw new Error(
        `behaviour differs: traced ${JSON.stringify(tracedRun)}, contexts ${JSON.stringify(run)}\n${where(args)}`,
      );
    }
    let problems: string[];
    let counted: ReturnType<typeof countedContexts>;
    try {
      const activations = tracedContexts(traced.graphs, recorder.events, stats);
      counted = countedContexts(`virtual/${name}`);
      const expected = expectedContexts(counted.meta, activations, functionOf, options.mode === 'path');
      problems = [
        ...tallyDifferences(counted.entries, expected.entries),
        ...tallyDifferences(counted.paths, expected.paths),
      ];
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${where(args)}`);
    }
    if (problems.length) throw new Error(`${problems.slice(0, 20).join('\n')}\n${where(args)}`);
    if (plainPaths) {
      const sums = new Map<string, number>();
      for (const [key, n] of counted.paths) {
        const fnPath = `${key.split('|')[0].split(' ').at(-1)}|${key.split('|')[1]}`;
        sums.set(fnPath, (sums.get(fnPath) ?? 0) + n);
      }
      resetCounts();
      runPlain(plainPaths, args, { globals: runtimeGlobals() });
      const pathMode = new Map<string, number>();
      countedPaths(`virtual/${name}`).paths.forEach((pairs, fn) => {
        for (const [p, n] of pairs) pathMode.set(`${fn}|${p}`, n);
      });
      const differences = tallyDifferences(sums, pathMode);
      if (differences.length)
        throw new Error(`paths per context summed ≠ path mode:\n${differences.join('\n')}\n${where(args)}`);
    }
  }
}
