import { FUZZ_PROFILES, checkFuzzCase } from './support/fuzz-profiles';

/**
 * Biased random programs, plain against traced against path-instrumented. The test command runs a fixed
 * slice; `npm run fuzz -- --minutes 10` (scripts/fuzz.mjs) sets `PATHPROF_FUZZ_MINUTES` and this file then
 * draws fresh seeds for that long, reports every failing seed with its profile, and fails if any did. The
 * profile follows from the seed, so `--seed <failing seed>` repeats a failure first thing.
 */
const FIXED_SEED = 8_000_000;
const PER_PROFILE = 3;
const minutes = Number(process.env.PATHPROF_FUZZ_MINUTES);

if (minutes > 0) {
  test(
    `fuzz for ${minutes} minutes`,
    () => {
      const start = Number(process.env.PATHPROF_FUZZ_SEED ?? Date.now() % 1_000_000_000);
      const deadline = Date.now() + minutes * 60_000;
      const failures: string[] = [];
      let runs = 0;
      for (let seed = start; Date.now() < deadline; seed++) {
        const profile = FUZZ_PROFILES[seed % FUZZ_PROFILES.length];
        try {
          checkFuzzCase(seed, profile.options);
        } catch (error) {
          const line = `FAILED profile ${profile.name} seed ${seed}: ${(error as Error).message.split('\n')[0]}`;
          // Straight to the terminal (jest holds console output until the test ends).
          process.stderr.write(`${line}\n`);
          failures.push(line);
        }
        runs++;
      }
      console.log(`fuzzed ${runs} programs from seed ${start}; ${failures.length} failed`);
      expect(failures).toEqual([]);
    },
    (minutes + 2) * 60_000,
  );
} else {
  describe.each(FUZZ_PROFILES.map((p, i) => [p.name, p, i] as const))(
    'fuzz profile %s',
    (_name, profile, i) => {
      test(`${PER_PROFILE} programs from seed ${FIXED_SEED + i * 1000}`, () => {
        for (let k = 0; k < PER_PROFILE; k++) checkFuzzCase(FIXED_SEED + i * 1000 + k, profile.options);
      }, 60_000);
    },
  );
}
