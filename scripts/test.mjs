#!/usr/bin/env node
// The one test command (README, .ci/run): format, lint, type-check, build, then every jest test.
// Jest's own summary is not what CI reads, so this ends with a plain "N passed, N failed" line where the
// static checks count as one test each.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const bin = (name) => join('node_modules', '.bin', name);
const checks = [
  ['prettier', [bin('prettier'), '--check', '.']],
  ['eslint', [bin('eslint'), '--max-warnings', '0', '.']],
  ['tsc build', [bin('tsc'), '-b']],
  ['tsc tests', [bin('tsc'), '-p', 'tsconfig.test.json']],
];
let passed = 0;
let failed = 0;
for (const [name, [cmd, ...args]] of checks) {
  console.log(`\n== ${name}`);
  const run = spawnSync(cmd, args, { stdio: 'inherit' });
  if (run.status === 0) passed++;
  else {
    failed++;
    console.log(`FAILED: ${name}`);
  }
}

const out = mkdtempSync(join(tmpdir(), 'pathprof-jest-'));
const report = join(out, 'jest.json');
console.log('\n== jest');
// Jest's default (cores - 1 workers) runs serially on a 2-core CI machine; the long property suites are split
// in halves precisely so that two workers can share them.
const jestArgs = ['--json', `--outputFile=${report}`, '--maxWorkers=2', ...process.argv.slice(2)];
// The workers inherit node's flags. The suites allocate heavily (thousands of ASTs); a larger young
// generation spends less time collecting it: 6% of the generated-program suites' CPU.
spawnSync(process.execPath, ['--max-semi-space-size=64', bin('jest'), ...jestArgs], { stdio: 'inherit' });
try {
  const results = JSON.parse(readFileSync(report, 'utf8'));
  passed += results.numPassedTests;
  failed += results.numFailedTests;
  // A test file that fails to load has no failed tests, but is a failure.
  failed += results.numRuntimeErrorTestSuites ?? 0;
} catch {
  failed++;
  console.log('FAILED: jest produced no report');
}
rmSync(out, { recursive: true, force: true });
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
