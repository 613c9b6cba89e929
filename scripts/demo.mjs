#!/usr/bin/env node
// The README's main job: build, run an example project's jest tests with path profiling into a fresh
// `.pathprof`, then print the report, and one function's paths decoded into the decisions they take; for
// js-shop, then the same tests with interprocedural paths, the hottest decoded across calls.
// `npm run demo` uses fixtures/js-shop; `npm run demo -- ts-geometry` the TypeScript example.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
const examples = {
  'js-shop': { show: 'src/cart.js:discount', calls: 'src/cart.js:total' },
  'ts-geometry': { show: 'src/shapes.ts:area' },
};
const name = process.argv[2] ?? 'js-shop';
if (!(name in examples)) {
  console.error(`demo: no example project ${name} (one of: ${Object.keys(examples).join(', ')})`);
  process.exit(2);
}
const project = join('fixtures', name);
const run = (title, command, args, options = {}) => {
  console.log(`\n$ ${title}`);
  const result = spawnSync(command, args, { stdio: 'inherit', ...options });
  if (result.status !== 0 && !options.mayFail) process.exit(result.status ?? 1);
};

run('npm run build', process.execPath, [require.resolve('typescript/bin/tsc'), '-b']);
rmSync(join(project, '.pathprof'), { recursive: true, force: true });
// No transform cache: a cached file could have been instrumented by an older build of the plugin.
run(
  `cd ${project} && npx jest --no-cache`,
  process.execPath,
  [require.resolve('jest/bin/jest'), '--no-cache'],
  {
    cwd: project,
  },
);
const report = require.resolve('@pathprof/report/bin/pathprof-report.js');
run('npx pathprof-report', process.execPath, [report], { cwd: project });
const { show, calls } = examples[name];
run(`npx pathprof-report show ${show} --limit 3`, process.execPath, [report, 'show', show, '--limit', '3'], {
  cwd: project,
});
if (calls) {
  // A new jest command starts a new run: its profiles replace path mode's.
  const config = 'jest.interprocedural.config.js';
  run(
    `npx jest --no-cache -c ${config}`,
    process.execPath,
    [require.resolve('jest/bin/jest'), '--no-cache', '-c', config],
    { cwd: project },
  );
  run(
    `npx pathprof-report calls ${calls} --limit 2`,
    process.execPath,
    [report, 'calls', calls, '--limit', '2'],
    {
      cwd: project,
    },
  );
}
console.log(
  `\nMore: in ${project}, npx pathprof-report html | json | lcov | istanbul | check --paths 80 | diff DIR_A DIR_B (see packages/report).`,
);
