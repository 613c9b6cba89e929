#!/usr/bin/env node
// Long-mode fuzzing: `npm run fuzz -- --minutes 10 [--seed N]` runs biased random programs plain, traced
// and path-instrumented for that long (packages/babel-plugin/test/reliability/fuzz.test.ts), prints every
// failing seed with its generator profile, and exits non-zero if any failed. Without --seed the first seed
// comes from the clock and is printed, so any run can be repeated.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { minutes: { type: 'string', default: '10' }, seed: { type: 'string' } },
});
const minutes = Number(values.minutes);
if (!(minutes > 0)) {
  console.error(`fuzz: --minutes must be a positive number, not ${JSON.stringify(values.minutes)}`);
  process.exit(2);
}
const seed = values.seed ?? String(Date.now() % 1_000_000_000);
if (!/^\d+$/.test(seed)) {
  console.error(`fuzz: --seed must be a non-negative integer, not ${JSON.stringify(seed)}`);
  process.exit(2);
}
console.log(`fuzz: ${minutes} minutes from seed ${seed}`);
const run = spawnSync(
  join('node_modules', '.bin', 'jest'),
  ['packages/babel-plugin/test/reliability/fuzz.test.ts', '--verbose=false'],
  {
    stdio: 'inherit',
    env: { ...process.env, PATHPROF_FUZZ_MINUTES: String(minutes), PATHPROF_FUZZ_SEED: seed },
  },
);
process.exit(run.status ?? 1);
