#!/usr/bin/env node
// The one test command (README, .ci/run): format, lint, type-check, build, then every jest test.
// Jest's own summary is not what CI reads, so this ends with a plain "N passed, N failed" line where the
// static checks count as one test each.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const bin = (name) => join('node_modules', '.bin', name);
let passed = 0;
let failed = 0;
const tally = (name, ok) => {
  if (ok) passed++;
  else {
    failed++;
    console.log(`FAILED: ${name}`);
  }
};

// The build comes first: the end-to-end tests run the packages from `dist`.
console.log('\n== tsc build');
tally('tsc build', spawnSync(bin('tsc'), ['-b'], { stdio: 'inherit' }).status === 0);

// The other static checks are single-threaded; they run beside jest (whose workers spend most of the run on
// the long property suites) rather than before it, with their output held back until jest is done.
const staticChecks = [
  ['prettier', [bin('prettier'), '--check', '.']],
  ['eslint', [bin('eslint'), '--max-warnings', '0', '.']],
  ['tsc tests', [bin('tsc'), '-p', 'tsconfig.test.json']],
];
const staticResults = (async () => {
  const results = [];
  for (const [name, [cmd, ...args]] of staticChecks) {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const status = await new Promise((resolve) => {
      child.on('error', (error) => {
        output += `${error.message}\n`;
        resolve(null);
      });
      child.on('close', resolve);
    });
    results.push({ name, output, ok: status === 0 });
  }
  return results;
})();

const out = mkdtempSync(join(tmpdir(), 'pathprof-jest-'));
const report = join(out, 'jest.json');
console.log('\n== jest');
// Jest's default (cores - 1 workers) runs serially on a 2-core CI machine; the long property suites are split
// in quarters precisely so that two workers can share them.
const jestArgs = ['--json', `--outputFile=${report}`, '--maxWorkers=2', ...process.argv.slice(2)];
// The workers inherit node's flags. The suites allocate heavily (thousands of ASTs); a larger young
// generation spends less time collecting it: 6% of the generated-program suites' CPU.
const jest = spawn(process.execPath, ['--max-semi-space-size=64', bin('jest'), ...jestArgs], {
  stdio: 'inherit',
});
await new Promise((resolve) => jest.on('close', resolve));

for (const { name, output, ok } of await staticResults) {
  console.log(`\n== ${name}`);
  process.stdout.write(output);
  tally(name, ok);
}

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
