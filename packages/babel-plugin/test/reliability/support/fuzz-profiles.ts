import type { ProgramOptions } from '@pathprof/testkit';
import { checkEveryMode, emptyGeneratedProgramStats } from '../../support/generated-programs';

/**
 * Generator biases for fuzzing, each making one family of hard constructs far more frequent than the
 * property tests' defaults do: they are where an instrumenter most easily changes behaviour or loses a path.
 */
export const FUZZ_PROFILES: readonly { readonly name: string; readonly options: ProgramOptions }[] = [
  { name: 'try-finally', options: { weights: { try: 6, throw: 4, implicitError: 4, return: 3, break: 3 } } },
  { name: 'labeled-jumps', options: { weights: { labeled: 8, break: 5, continue: 5, for: 2, while: 2 } } },
  { name: 'switch-fallthrough', options: { weights: { switch: 8, break: 0.3, labeled: 2 }, maxDepth: 4 } },
  {
    name: 'generators',
    options: { generatorRate: 1, weights: { yield: 6, drive: 4, try: 3, return: 2 } },
  },
  { name: 'async', options: { asyncRate: 1, weights: { await: 6, try: 3, throw: 3, forOf: 2 } } },
  {
    name: 'optional-and-logical',
    options: { weights: { optional: 8, logical: 4, logicalAssign: 4, conditional: 3 } },
  },
  { name: 'exceptions', options: { weights: { throw: 6, implicitError: 6, try: 5, call: 3 } } },
  {
    name: 'eval-and-called-chains',
    options: { weights: { eval: 8, optional: 6, template: 4, implicitError: 3, closure: 2 } },
  },
];

/**
 * One fuzz case: every mode on the biased program (`checkEveryMode`: the tracing oracle, path and edge mode,
 * interprocedural mode against a trace with calls split). Throws a message naming the seed and the program.
 */
export function checkFuzzCase(seed: number, options: ProgramOptions): void {
  checkEveryMode(seed, options, emptyGeneratedProgramStats());
}
