#!/usr/bin/env node
// The README's main job: build, run an example project's jest tests with path profiling into a fresh
// `.pathprof`, then print the report, and one function's paths decoded into the decisions they take.
// `npm run demo` uses fixtures/js-shop; `npm run demo -- ts-geometry` the TypeScript example.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
const examples = {
  'js-shop': 'src/cart.js:discount',
  'ts-geometry': 'src/shapes.ts:area',
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
run(
  `npx pathprof-report show ${examples[name]} --limit 3`,
  process.execPath,
  [report, 'show', examples[name], '--limit', '3'],
  {
    cwd: project,
  },
);
console.log(
  `\nMore: in ${project}, npx pathprof-report json | lcov | istanbul | check --paths 80 | diff DIR_A DIR_B (see packages/report).`,
);
