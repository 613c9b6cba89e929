import { baseSeed, caseCount } from './random';

/** The generated-program property tests' size and seed: the issue asks for at least 2,000 programs a run. */
export const GENERATED_PROGRAMS = 2000;
export const GENERATED_SEED = 20261121;
const BATCH = 250;

/**
 * Declares jest tests checking part `part` of `parts` of the seeded programs, in batches: the parts live in
 * as many test files so jest's workers share them. `check(seed)` throws to fail; its message should name the
 * seed (`PATHPROF_SEED` reproduces, `PATHPROF_SOAK` multiplies the count).
 */
export function describeSeededBatches(part: number, parts: number, check: (seed: number) => void): void {
  const total = caseCount(GENERATED_PROGRAMS);
  const seed = baseSeed(GENERATED_SEED);
  const from = Math.ceil((total * part) / parts);
  const to = Math.ceil((total * (part + 1)) / parts);
  for (let start = from; start < to; start += BATCH) {
    const end = Math.min(to, start + BATCH);
    test(`programs ${start}..${end - 1} (seed ${seed})`, () => {
      for (let i = start; i < end; i++) check(seed + i);
    }, 300_000);
  }
}

/**
 * The inputs a property test runs a generated program on: the first two keep a 2,000-program run within
 * minutes; a soak run (`PATHPROF_SOAK`) uses them all.
 */
export function propertyInputs<T>(inputs: readonly T[]): readonly T[] {
  return caseCount(1) > 1 ? inputs : inputs.slice(0, 2);
}
