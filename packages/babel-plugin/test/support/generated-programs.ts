import { generateProgram, propertyInputs, Random, type ProgramOptions } from '@pathprof/testkit';
import { tracedRuns } from '../../../cfg/test/support/random-programs';
import { CONTEXT_VARIANTS, checkContextsOnTraced } from './contexts-on-program';
import { emptyContextStats, type ContextStats } from './contexts-oracle';
import { checkInterproceduralOnTraced } from './interprocedural-on-program';
import type { CrossingStats } from './interprocedural-oracle';
import { checkPathModeOnTraced } from './path-mode-on-program';
import { checkPreferentialOnTraced, type PreferentialTally } from './preferential-on-program';

/** What the generated programs did in every mode, so the suites can assert the hard cases really occurred. */
export interface GeneratedProgramStats {
  readonly crossing: CrossingStats;
  readonly preferential: PreferentialTally;
  readonly contexts: ContextStats;
}

export function emptyGeneratedProgramStats(): GeneratedProgramStats {
  return {
    crossing: { crossedEntries: 0, crossedThrows: 0, handlerRestarts: 0 },
    preferential: { interesting: 0, residual: 0, dropped: 0, changed: 0, unlisted: 0 },
    contexts: emptyContextStats(),
  };
}

/**
 * Every mode on one generated program, from one trace where the modes can share it: the tracing oracle (the
 * traced run behaves like the plain one, its activations are paths of their graphs); path mode, with the
 * counts of the traced paths; edge mode on every other seed; preferential mode on one seed in three, against
 * a random interesting set; interprocedural mode in one scheme per seed, against a trace with calls split,
 * with a small path budget on one seed in four (crossed calls are cut and functions' paths split to fit) and
 * hash tables on another; calling contexts against the tracer's stacks, in one variant per seed in turn
 * (contexts alone; paths per context, numbered as path mode numbers them; contexts with a budget so small that
 * most calls push). Each mode sees every program or a share of them, at the cost of one.
 * `options` bias the generator (the fuzz tests weight the hardest constructs). A failure names the seed:
 * `PATHPROF_SEED=<seed> npx jest generated-programs` reproduces it.
 */
export function checkEveryMode(seed: number, options: ProgramOptions, stats: GeneratedProgramStats): void {
  const program = generateProgram(new Random(seed), options);
  const name = `generated-${seed}.js`;
  const traced = tracedRuns(program.source, name, propertyInputs(program.inputs), `seed ${seed}`);
  const numberings = checkPathModeOnTraced(traced, {}, { edgeMode: seed % 2 === 0 });
  if (seed % 3 === 1) {
    const rng = new Random(seed ^ 0x5eed);
    checkPreferentialOnTraced(traced, numberings, rng, stats.preferential);
  }
  // One seed in four, as many in each scheme, with a small path budget; another in four with most components
  // of the crossed call graph counted in hash tables.
  const maxPaths = seed % 8 === 3 || seed % 8 === 6 ? 2 ** 16 : undefined;
  const hashThreshold = seed % 8 === 1 || seed % 8 === 4 ? 8 : undefined;
  checkInterproceduralOnTraced(
    traced,
    stats.crossing,
    { ...(maxPaths ? { maxPaths } : {}), ...(hashThreshold ? { hashThreshold } : {}) },
    [seed % 2 === 0 ? 'piecewise' : 'context'],
  );
  checkContextsOnTraced(traced, CONTEXT_VARIANTS[seed % 3], stats.contexts, {
    pathModeNumberings: numberings,
  });
}
