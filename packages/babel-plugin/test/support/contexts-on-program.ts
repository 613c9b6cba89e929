import { canInstrument } from '@pathprof/cfg';
import type { TracedProgram } from '../../../cfg/test/support/random-programs';
import type { PathNumbering } from '@pathprof/numbering';
import type { PluginOptions } from '../../src';
import { runCounted } from './counted-paths';
import { instrument } from './instrument';
import {
  contextReading,
  countedContexts,
  expectedContexts,
  tallyDifferences,
  tracedContexts,
  type ContextReading,
  type ContextStats,
} from './contexts-oracle';

/** How a program is instrumented for the calling-context property tests. */
export type ContextVariant = 'contexts' | 'paths' | 'contexts-small';

/** The variants in turn, one per seed. */
export const CONTEXT_VARIANTS: readonly ContextVariant[] = ['contexts', 'paths', 'contexts-small'];

const OPTIONS: Record<ContextVariant, PluginOptions> = {
  contexts: { mode: 'contexts' },
  paths: { mode: 'path', contexts: true },
  // A budget this small reduces most numbered calls to pushes.
  'contexts-small': { mode: 'contexts', maxContexts: 8 },
};

/**
 * Calling contexts on a program already traced: for each input the instrumented run returns or throws what
 * the traced run does, each context is counted as often as the traced run entered a function with that real
 * stack of instrumented frames (`tracedContexts`), and with paths each path as often as it ran in that
 * context. Given path mode's numberings of the program (checked against the same traced paths), paths per
 * context must be numbered alike, so summed over contexts they equal path mode's counts. Adds what happened
 * to `stats`.
 */
export function checkContextsOnTraced(
  { source, name, label, traced, runs }: TracedProgram,
  variant: ContextVariant,
  stats: ContextStats,
  { pathModeNumberings }: { pathModeNumberings?: readonly PathNumbering[] } = {},
): void {
  const where = (args: unknown[]) => `${label}, ${variant}, input ${JSON.stringify(args)}\n${source}`;
  const options = OPTIONS[variant];
  const code = instrument(source, name, options);
  let next = 0;
  const functionOf = traced.graphs.map((g) => (canInstrument(g) ? next++ : -1));
  let reading: ContextReading | undefined;
  for (const { args, result: tracedRun, events } of runs) {
    const run = runCounted(code, args);
    if (JSON.stringify(run) !== JSON.stringify(tracedRun)) {
      throw new Error(
        `behaviour differs: traced ${JSON.stringify(tracedRun)}, contexts ${JSON.stringify(run)}\n${where(args)}`,
      );
    }
    let problems: string[];
    try {
      const activations = tracedContexts(traced.graphs, events, stats);
      reading ??= contextReading(`virtual/${name}`, pathModeNumberings);
      const counted = countedContexts(reading);
      const expected = expectedContexts(reading, activations, functionOf);
      problems = [
        ...tallyDifferences(counted.entries, expected.entries),
        ...tallyDifferences(counted.paths, expected.paths),
      ];
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${where(args)}`);
    }
    if (problems.length) throw new Error(`${problems.slice(0, 20).join('\n')}\n${where(args)}`);
  }
}
