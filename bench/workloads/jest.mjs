// A jest test suite (bench/jest: semver's own code under test) run in one process, as CI runs a small suite.
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { ROOT, WORK, require } from '../tools.mjs';

const run = spawnSync(
  process.execPath,
  [
    require.resolve('jest/bin/jest'),
    '--config',
    join(ROOT, 'bench/jest/jest.config.cjs'),
    '--runInBand',
    '--ci',
  ],
  { env: { ...process.env, BENCH_JEST_CACHE: join(WORK, 'jest-cache') }, encoding: 'utf8' },
);
if (run.status !== 0) {
  console.error(run.stderr);
  process.exit(1);
}
console.log(run.stderr.match(/Tests:.*/)?.[0]);
