import { Random } from '@pathprof/testkit';

/**
 * Runs `check` on `count` cases, each with its own generator seeded from `seed`, `salt` and the case index, and
 * names the base seed and case of a failure (`PATHPROF_SEED=<base seed>` reproduces it).
 */
export function forEachSeededCase(
  seed: number,
  count: number,
  salt: number,
  check: (rng: Random) => void,
): void {
  for (let i = 0; i < count; i++) {
    try {
      check(new Random((seed + salt + i * 7919) >>> 0));
    } catch (error) {
      throw new Error(`base seed ${seed}, case ${i}: ${(error as Error).message}`);
    }
  }
}
