#!/usr/bin/env node
// Real test suites nobody here wrote, plain and instrumented: `npm run real-suites -- DIR... [--mode M]...
// [--plugin-options JSON]`. Each DIR is a checkout of a known package (RECIPES: how its suite runs, which of
// its files are its own source) with its dependencies installed (`npm install`). The suite runs once plain
// and once per mode with the package's source instrumented by babel-plugin-pathprof; every test's outcome
// must be the same, something must be instrumented and profiles written (trace mode, the tracing oracle's
// instrumentation: events reported to a counting stand-in of its recorder instead). Preferential mode without
// an `interesting` plugin option runs path mode first, takes its hottest paths (`pathprof-report prefer --hot
// 50`) as the interesting set and requires the same counts as path mode's. Nothing of the suites is kept, but
// with `--keep DIR` each instrumented run's profiles (DIR/NAME-MODE), for pathprof-report.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');
const require = createRequire(import.meta.url);
const { countingRecorderSource, TRACE_GLOBAL } = require('../conformance/trace-recorder.cjs');

/**
 * How each known suite runs. `include`: the package's own source, relative to the checkout (what is
 * instrumented); `env`: what its suite assumes (luxon's tests are written for New York time); `random`: why
 * two runs of its suite count different paths (preferential mode's counts are then not compared).
 */
const RECIPES = {
  'js-yaml': {
    style: 'a YAML parser and dumper',
    runner: 'mocha',
    args: [],
    include: ['index.js', 'lib/**'],
    random: 'its fuzzy dumper tests draw random input (fast-check)',
  },
  express: {
    style: 'a web framework: async request handling over HTTP on loopback',
    runner: 'mocha',
    args: ['--require', 'test/support/env', '--check-leaks', 'test/', 'test/acceptance/'],
    include: ['index.js', 'lib/**'],
  },
  luxon: {
    style: 'dates and times: classes (DateTime, Duration, Interval, zones)',
    runner: 'jest',
    include: ['src/**'],
    env: { TZ: 'America/New_York', LANG: 'en_US.UTF-8' },
  },
  ufo: {
    style: 'URL utilities in TypeScript, tested with Vitest',
    runner: 'vitest',
    include: ['src/**'],
  },
  destr: {
    style: 'a faster, safer JSON.parse in TypeScript, tested with Vitest',
    runner: 'vitest',
    include: ['src/**'],
  },
  mlly: {
    style: 'ES module syntax analysis and resolution in TypeScript, tested with Vitest',
    runner: 'vitest',
    include: ['src/**'],
  },
  ohash: {
    style: 'object hashing, SHA-256 and deep diff in TypeScript, tested with Vitest',
    runner: 'vitest',
    include: ['src/**'],
  },
  pathe: {
    style: 'POSIX path utilities for every platform in TypeScript, tested with Vitest',
    runner: 'vitest',
    include: ['src/**'],
  },
  commander: {
    style: 'a command-line parser: classes, getters, option and help objects; tested with node:test',
    runner: 'node-test',
    include: ['index.js', 'lib/**'],
  },
};

const usage = `usage: npm run real-suites -- DIR... [--mode path|edge|interprocedural|contexts|preferential|trace]... [--plugin-options JSON] [--json FILE] [--keep DIR]
known suites: ${Object.keys(RECIPES).join(', ')} (each DIR a checkout with its dependencies installed)`;
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    mode: { type: 'string', multiple: true },
    'plugin-options': { type: 'string' },
    json: { type: 'string' },
    keep: { type: 'string' },
  },
});
const fail = (message) => {
  console.error(`real-suites: ${message}\n${usage}`);
  process.exit(2);
};
if (positionals.length === 0) fail('name at least one checkout');
const modes = values.mode ?? ['path'];
let pluginOptions = {};
try {
  pluginOptions = JSON.parse(values['plugin-options'] ?? '{}');
} catch (error) {
  fail(`--plugin-options is not JSON: ${error.message}`);
}
const plugin = join(root, 'packages', 'babel-plugin', 'dist', 'index.js');
const reportBin = join(root, 'packages', 'report', 'bin', 'pathprof-report.js');
if (!existsSync(plugin)) fail(`${plugin} is missing: build first (npx tsc -b)`);

const report = [];
let failed = false;
for (const dir of positionals.map((d) => resolve(d))) {
  const manifest = join(dir, 'package.json');
  if (!existsSync(manifest)) fail(`${dir} has no package.json`);
  const name = JSON.parse(readFileSync(manifest, 'utf8')).name;
  const recipe = RECIPES[name];
  if (!recipe) fail(`${dir} is ${name}, not a known suite`);
  if (recipe.runner !== 'node-test' && !existsSync(join(dir, 'node_modules')))
    fail(`${dir} has no node_modules: run npm install there first`);
  const plain = runSuite(dir, recipe, null);
  const entry = { name, style: recipe.style, tests: plain.tests.size, plain: tally(plain.tests), modes: {} };
  console.log(`\n${name} (${recipe.style}): ${entry.tests} tests plain, ${JSON.stringify(entry.plain)}`);
  for (const mode of modes) {
    const keep = values.keep && join(resolve(values.keep), `${name}-${mode}`);
    const derived = mode === 'preferential' && pluginOptions.interesting === undefined;
    const reference = derived && mkdtempSync(join(tmpdir(), 'pathprof-preferential-'));
    let options = { ...pluginOptions, mode };
    if (derived) {
      runSuite(dir, recipe, { ...pluginOptions, mode: 'path' }, join(reference, 'path'));
      const interesting = join(reference, 'interesting.json');
      pathprofReport(dir, ['prefer', '--hot', '50', '-o', interesting, join(reference, 'path')]);
      options = { ...options, interesting };
    }
    const run = runSuite(dir, recipe, options, derived ? join(reference, 'preferential') : keep);
    const differences = [];
    for (const key of new Set([...plain.tests.keys(), ...run.tests.keys()])) {
      const [a, b] = [plain.tests.get(key) ?? 'missing', run.tests.get(key) ?? 'missing'];
      if (a !== b) differences.push({ test: key, plain: a, instrumented: b });
    }
    entry.modes[mode] = { ...tally(run.tests), differences, profiles: run.profiles, files: run.files };
    if (mode === 'trace') entry.modes[mode].events = run.events;
    console.log(
      `  [${mode}] ${run.tests.size} tests, ${JSON.stringify(tally(run.tests))}, ${differences.length} differ; ` +
        (mode === 'trace'
          ? `${run.events} events traced`
          : `${run.files} source files counted in ${run.profiles} profiles`),
    );
    for (const d of differences)
      console.log(`    ${d.test}: plain ${d.plain}, instrumented ${d.instrumented}`);
    const counted = mode === 'trace' ? run.events > 0 : run.profiles > 0 && run.files > 0;
    if (differences.length > 0 || !counted || run.tests.size === 0) failed = true;
    if (derived && recipe.random) console.log(`    counts not compared with path mode's: ${recipe.random}`);
    else if (derived) {
      const [path, preferential] = ['path', 'preferential'].map((m) => countsOf(dir, join(reference, m)));
      const same = path === preferential;
      entry.modes[mode].sameCountsAsPathMode = same;
      console.log(
        `    counts ${same ? 'the same as' : 'DIFFER from'} path mode's (interesting: its hottest 50 %)`,
      );
      if (!same) failed = true;
    }
    if (derived) {
      if (keep) {
        rmSync(keep, { recursive: true, force: true });
        cpSync(join(reference, 'preferential'), keep, { recursive: true });
      }
      rmSync(reference, { recursive: true, force: true });
    }
  }
  report.push(entry);
}
if (values.json) writeFileSync(values.json, `${JSON.stringify(report, null, 2)}\n`);
console.log(failed ? '\nreal-suites: FAILED' : '\nreal-suites: every test has the same outcome instrumented');
process.exit(failed ? 1 : 0);

/**
 * Runs a suite; `options` null runs it plain. Returns each test's outcome by its full name. `keep`: where to
 * copy the profiles (replacing what is there).
 */
function runSuite(dir, recipe, options, keep) {
  const work = mkdtempSync(join(tmpdir(), 'pathprof-suite-'));
  const profiles = join(work, 'profiles');
  const env = {
    ...process.env,
    ...recipe.env,
    PATHPROF_DIR: profiles,
    // Instrumented files load the runtime by name: resolve it through this repository.
    NODE_PATH: join(root, 'node_modules'),
  };
  try {
    const run = { mocha: runMocha, jest: runJest, vitest: runVitest, 'node-test': runNodeTest }[
      recipe.runner
    ];
    const tests = run(dir, recipe, options, env, work);
    if (keep && existsSync(profiles)) {
      rmSync(keep, { recursive: true, force: true });
      cpSync(profiles, keep, { recursive: true });
    }
    return { tests, ...countProfiles(profiles), events: countTraceEvents(profiles) };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function runMocha(dir, recipe, options, env, work) {
  const out = join(work, 'mocha.json');
  const register = requires(options, work);
  const run = spawnSync(
    process.execPath,
    [mochaBin(dir), ...register, ...recipe.args, '--reporter', 'json', '--reporter-option', `output=${out}`],
    {
      cwd: dir,
      env: { ...env, PATHPROF_REAL_SUITE: realSuiteSettings(dir, recipe, options) },
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    },
  );
  // mocha before 9 prints the JSON report on stdout (after anything the tests print).
  const text = existsSync(out)
    ? readFileSync(out, 'utf8')
    : run.stdout.slice(run.stdout.lastIndexOf('{\n  "stats":'));
  let results;
  try {
    results = JSON.parse(text);
  } catch {
    throw new Error(`mocha gave no results in ${dir} (exit ${run.status}): ${run.stderr.slice(0, 2000)}`);
  }
  const tests = new Map();
  for (const t of results.passes) addTest(tests, t.fullTitle, 'passed');
  for (const t of results.failures) addTest(tests, t.fullTitle, 'failed');
  for (const t of results.pending) addTest(tests, t.fullTitle, 'pending');
  return tests;
}

/**
 * A `node --test` suite (node:test, its default test files): every test file runs in a process of its own, so
 * the require hook (and trace mode's setup) goes to all of them through NODE_OPTIONS. Outcomes come from a
 * reporter of ours (node-test-reporter.mjs).
 */
function runNodeTest(dir, recipe, options, env, work) {
  const out = join(work, 'node-test.json');
  // A module that `require` loads as an ES module (Node 20.19's require(esm)) is compiled by the CommonJS hook
  // and imports the runtime by name, past the module hooks: the checkout gets the plugin, as a user's project
  // has it installed, for the run.
  const modules = join(dir, 'node_modules');
  const installed = join(modules, 'babel-plugin-pathprof');
  const lent = options && !existsSync(installed);
  const madeModules = lent && !existsSync(modules);
  if (lent) {
    mkdirSync(modules, { recursive: true });
    symlinkSync(join(root, 'packages', 'babel-plugin'), installed, 'dir');
  }
  try {
    return nodeTestOutcomes(dir, recipe, options, env, work, out);
  } finally {
    if (lent) rmSync(madeModules ? modules : installed, { recursive: true });
  }
}

function nodeTestOutcomes(dir, recipe, options, env, work, out) {
  const preloads = requires(options, work).map((arg) => (arg.startsWith('-') ? arg : `"${arg}"`));
  const run = spawnSync(
    process.execPath,
    [
      '--test',
      `--test-reporter=${join(here, 'node-test-reporter.mjs')}`,
      `--test-reporter-destination=${out}`,
    ],
    {
      cwd: dir,
      env: {
        ...env,
        NODE_OPTIONS: [env.NODE_OPTIONS ?? '', ...preloads].join(' ').trim(),
        PATHPROF_REAL_SUITE: realSuiteSettings(dir, recipe, options),
      },
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    },
  );
  let results;
  try {
    results = JSON.parse(readFileSync(out, 'utf8'));
  } catch {
    throw new Error(
      `node --test gave no results in ${dir} (exit ${run.status}): ${run.stderr.slice(0, 2000)}`,
    );
  }
  const tests = new Map();
  for (const t of results) addTest(tests, t.name, t.outcome);
  return tests;
}

/** The `--require`s that instrument a mocha or node:test process (none plain). */
function requires(options, work) {
  const out = options ? ['--require', join(here, 'babel-register.cjs')] : [];
  if (options?.mode === 'trace') out.push('--require', traceSetup('mocha', work));
  return out;
}

/** What babel-register.cjs reads. */
function realSuiteSettings(dir, recipe, options) {
  return JSON.stringify({ dir, plugin, include: recipe.include, pluginOptions: options });
}

function runJest(dir, recipe, options, env, work) {
  const out = join(work, 'jest.json');
  const base = require(join(dir, 'jest.config.js'));
  const babelJest = require.resolve('babel-jest');
  const transformOptions = options
    ? { plugins: [[plugin, { runtime: 'require', exclude: [], ...options }]] }
    : {};
  const config = {
    ...base,
    rootDir: dir,
    cacheDirectory: join(work, 'jest-cache'),
    transform: { '^.+\\.js$': [babelJest, transformOptions] },
    setupFilesAfterEnv: [
      // First: the suite's own setup files are instrumented too.
      ...(options?.mode === 'trace' ? [traceSetup('jest', work)] : []),
      ...(base.setupFilesAfterEnv ?? []),
      ...(options ? [join(root, 'packages', 'babel-plugin', 'jest-setup.js')] : []),
    ],
    moduleNameMapper: {
      ...base.moduleNameMapper,
      '^babel-plugin-pathprof/runtime$': join(root, 'packages', 'babel-plugin', 'runtime.js'),
    },
  };
  const configFile = join(work, 'jest.config.json');
  writeFileSync(configFile, JSON.stringify(config));
  const run = spawnSync(
    process.execPath,
    [
      join(dir, 'node_modules', 'jest', 'bin', 'jest.js'),
      '--config',
      configFile,
      '--json',
      `--outputFile=${out}`,
      '--maxWorkers=2',
    ],
    { cwd: dir, env, encoding: 'utf8', maxBuffer: 1 << 28 },
  );
  return jsonResults('jest', dir, out, run);
}

/**
 * A Vitest suite under the project's own Vitest (2 and later), instrumented by the plugin's coverage provider
 * and setup file as a user sets them up (README, "Vitest"), with TypeScript profiled before its types are
 * stripped. The run's config is the whole config: a project's own (pathe's sets only coverage reporters) is
 * not read, so a recipe's project must need nothing of it.
 */
function runVitest(dir, recipe, options, env, work) {
  const out = join(work, 'vitest.json');
  const coverage = options && {
    enabled: true,
    provider: 'custom',
    customProviderModule: join(root, 'packages', 'babel-plugin', 'vitest.js'),
    pathprof: { ...options, include: recipe.include },
  };
  const config = {
    root: dir,
    // Instrumented files import the runtime by name: resolve it through this repository.
    resolve: {
      alias: { 'babel-plugin-pathprof/runtime': join(root, 'packages', 'babel-plugin', 'runtime.js') },
    },
    test: {
      pool: 'forks',
      ...(coverage
        ? {
            coverage,
            setupFiles: [
              ...(options.mode === 'trace' ? [traceSetup('vitest', work)] : []),
              join(root, 'packages', 'babel-plugin', 'vitest-setup.mjs'),
            ],
          }
        : {}),
    },
  };
  const configFile = join(work, 'vitest.config.mjs');
  writeFileSync(configFile, `export default ${JSON.stringify(config)};\n`);
  const run = spawnSync(
    process.execPath,
    [
      join(dir, 'node_modules', 'vitest', 'vitest.mjs'),
      'run',
      '--config',
      configFile,
      '--reporter=json',
      `--outputFile=${out}`,
    ],
    { cwd: dir, env, encoding: 'utf8', maxBuffer: 1 << 28 },
  );
  return jsonResults('vitest', dir, out, run);
}

/** Each test's outcome from the JSON report jest's `--json` and Vitest's `json` reporter both write. */
function jsonResults(runner, dir, out, run) {
  if (!existsSync(out))
    throw new Error(
      `${runner} wrote no results in ${dir} (exit ${run.status}): ${run.stderr.slice(0, 2000)}`,
    );
  const results = JSON.parse(readFileSync(out, 'utf8'));
  const tests = new Map();
  for (const file of results.testResults) {
    if (file.assertionResults.length === 0)
      addTest(tests, `${file.name}: ${String(file.message).split('\n')[0]}`, 'failed');
    for (const a of file.assertionResults)
      addTest(tests, `${file.name.slice(dir.length + 1)} ${a.fullName}`, a.status);
  }
  return tests;
}

/** Records a test's outcome; tests of the same name are told apart by their order (`#2`, `#3`). */
function addTest(tests, name, state) {
  let key = name;
  for (let n = 2; tests.has(key); n++) key = `${name} #${n}`;
  tests.set(key, state);
}

/**
 * Trace mode's code reports to a recorder the test process must have: a setup file for `runner` installs
 * conformance's counting stand-in (once per global) and, when the test file (jest, Vitest) or the process
 * (mocha) is done, writes how many events it counted into PATHPROF_DIR (trace-events-*.txt).
 */
function traceSetup(runner, work) {
  const file = join(work, runner === 'vitest' ? 'trace-setup.mjs' : 'trace-setup.cjs');
  const modules =
    runner === 'vitest'
      ? "import { afterAll } from 'vitest';\nimport { mkdirSync, writeFileSync } from 'node:fs';\nimport { join } from 'node:path';\n"
      : "const { mkdirSync, writeFileSync } = require('node:fs');\nconst { join } = require('node:path');\n";
  const done = runner === 'mocha' ? "process.on('exit', write);" : 'afterAll(write);';
  const recorder = `globalThis[${JSON.stringify(TRACE_GLOBAL)}]`;
  writeFileSync(
    file,
    `${modules}if (!${recorder}) { ${countingRecorderSource} }\n` +
      // What an earlier test file in the same global wrote is not written again.
      'function write() {\n' +
      `  const recorder = ${recorder};\n` +
      '  const events = recorder.events - (recorder.written ?? 0);\n' +
      '  recorder.written = recorder.events;\n' +
      '  mkdirSync(process.env.PATHPROF_DIR, { recursive: true });\n' +
      '  const name = `trace-events-${process.pid}-${Math.random().toString(36).slice(2)}.txt`;\n' +
      '  writeFileSync(join(process.env.PATHPROF_DIR, name), String(events));\n' +
      `}\n${done}\n`,
  );
  return file;
}

/** Events a traced run reported (what trace-setup files wrote). */
function countTraceEvents(profiles) {
  if (!existsSync(profiles)) return 0;
  let events = 0;
  for (const n of readdirSync(profiles))
    if (/^trace-events-.*\.txt$/.test(n)) events += Number(readFileSync(join(profiles, n), 'utf8'));
  return events;
}

/** Runs pathprof-report in the checkout (where the profiles' sources are); its stdout. */
function pathprofReport(dir, args) {
  const run = spawnSync(process.execPath, [reportBin, ...args], {
    cwd: dir,
    encoding: 'utf8',
    maxBuffer: 1 << 29,
  });
  if (run.status !== 0)
    throw new Error(`pathprof-report ${args[0]} failed in ${dir}: ${run.stderr.slice(0, 2000)}`);
  return run.stdout;
}

/** A run's report JSON without what only a preferential run or one split by test has: its counts, as text. */
function countsOf(dir, profiles) {
  const omitted = new Set(['tests', 'preferential', 'residual']);
  return JSON.stringify(JSON.parse(pathprofReport(dir, ['json', profiles])), (key, value) =>
    omitted.has(key) ? undefined : value,
  );
}

/** Profiles written, and how many distinct source files they counted. */
function countProfiles(profiles) {
  if (!existsSync(profiles)) return { profiles: 0, files: 0 };
  // Not the run's metadata files (pathprof-RUN-meta-DIGEST.json), which profiles name.
  const names = readdirSync(profiles).filter((n) => /^pathprof-.*\.json$/.test(n) && !/-meta-/.test(n));
  const keys = new Set();
  for (const n of names)
    for (const f of JSON.parse(readFileSync(join(profiles, n), 'utf8')).files ?? []) keys.add(f.key);
  return { profiles: names.length, files: keys.size };
}

function tally(tests) {
  const counts = {};
  for (const state of tests.values()) counts[state] = (counts[state] ?? 0) + 1;
  return counts;
}

/** The suite's own mocha (bin/mocha.js since mocha 9, bin/mocha before). */
function mochaBin(dir) {
  const bin = join(dir, 'node_modules', 'mocha', 'bin');
  return existsSync(join(bin, 'mocha.js')) ? join(bin, 'mocha.js') : join(bin, 'mocha');
}
