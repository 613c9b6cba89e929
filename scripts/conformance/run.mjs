#!/usr/bin/env node
// The conformance runner: `npm run conformance -- --test262 DIR [--mode path|edge|interprocedural|contexts|trace]… [--filter GLOB]…
// [--sample N] [--plugin-options JSON] [--engine vm|harness]`. Runs every scenario of the chosen test262 tests
// (default: test/language and test/built-ins), plain and instrumented by babel-plugin-pathprof in each mode
// (each test, harness includes and all, instrumented under its own filename), and lists every scenario whose
// outcome differs. Two engines: `vm` (default; vm-engine.mjs: worker threads running scenarios in fresh `vm`
// contexts, module tests through test262-harness) and `harness` (test262-harness, one Node process per
// scenario, with the preprocessor instrument-test.cjs), slower, kept to check the vm engine against. A difference is either fixed or one of the documented exceptions
// (exceptions.mjs, README). Fails when a difference is unexplained, when the plugin fails on a test, or when
// nothing was instrumented or nothing counted: no profile written, no trace event (a run that counted nothing
// proves nothing).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import picomatch from 'picomatch';
import { EXCEPTIONS } from './exceptions.mjs';
import { testFiles } from './test-files.mjs';
import { runVm } from './vm-engine.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');
const usage = `usage: npm run conformance -- --test262 DIR [--mode path|edge|interprocedural|contexts|trace]... [--filter GLOB]... [--sample N]
  [--plugin-options JSON] [--engine vm|harness] [--threads N] [--chunk N] [--timeout MS] [--out DIR] [--json FILE]`;

const { values } = parseArgs({
  options: {
    test262: { type: 'string' },
    mode: { type: 'string', multiple: true },
    filter: { type: 'string', multiple: true },
    sample: { type: 'string' },
    'plugin-options': { type: 'string' },
    engine: { type: 'string', default: 'vm' },
    threads: { type: 'string', default: '2' },
    chunk: { type: 'string', default: '400' },
    timeout: { type: 'string', default: '30000' },
    out: { type: 'string' },
    json: { type: 'string' },
    help: { type: 'boolean' },
  },
});
if (values.help) {
  console.log(usage);
  process.exit(0);
}
const fail = (message) => {
  console.error(`conformance: ${message}\n${usage}`);
  process.exit(2);
};
const test262 = values.test262 ?? process.env.PATHPROF_TEST262;
if (!test262) fail('--test262 DIR is required (a checkout of tc39/test262; see the README)');
const dir = resolve(test262);
if (!existsSync(join(dir, 'harness', 'assert.js')) || !existsSync(join(dir, 'test')))
  fail(`${dir} is not a test262 checkout (no harness/assert.js or test/)`);
const positive = (name) => {
  const n = Number(values[name]);
  if (!Number.isInteger(n) || n <= 0) fail(`--${name} must be a positive integer, not ${values[name]}`);
  return n;
};
let pluginOptions = {};
if (values['plugin-options']) {
  try {
    pluginOptions = JSON.parse(values['plugin-options']);
  } catch (error) {
    fail(`--plugin-options is not JSON: ${error.message}`);
  }
}
const modes = values.mode ?? ['path'];
const filters = values.filter ?? ['test/language/**/*.js', 'test/built-ins/**/*.js'];
const threads = positive('threads');
const engine = values.engine;
if (engine !== 'vm' && engine !== 'harness') fail(`--engine must be vm or harness, not ${engine}`);
// A traced run writes no profile: the vm engine counts the events each scenario reported instead.
if (engine === 'harness' && modes.includes('trace')) fail('--mode trace runs with the vm engine only');
const chunkSize = positive('chunk');
const timeout = positive('timeout');
const began = Date.now();
const plugin = join(root, 'packages', 'babel-plugin', 'dist', 'index.js');
if (!existsSync(plugin)) fail(`${plugin} is missing: build first (npx tsc -b)`);
const out = resolve(values.out ?? join(tmpdir(), 'pathprof-conformance'));
mkdirSync(out, { recursive: true });

const files = selectFiles();
if (files.length === 0) fail(`no test matches ${filters.join(', ')} in ${dir}`);
console.log(
  `conformance: ${files.length} test files of ${dir} (${filters.join(', ')}), modes ${modes.join(', ')}, ` +
    `engine ${engine}` +
    (Object.keys(pluginOptions).length ? `, plugin options ${JSON.stringify(pluginOptions)}` : ''),
);

const plain = await runPlain(files);
const report = { test262: dir, engine, files: files.length, plain: summary(plain), modes: {} };
let failed = false;
for (const mode of modes) {
  const options = { ...pluginOptions, mode };
  const result = await runInstrumented(files, options, plain);
  let compared = compare(plain, result.outcomes, mode);
  const rechecked = await recheck(compared, plain, result.outcomes, options);
  if (rechecked.length > 0) compared = compare(plain, result.outcomes, mode);
  report.modes[mode] = {
    ...result.counts,
    ...compared.counts,
    rechecked,
    differences: compared.differences,
    unparsedScenarios: result.unparsed,
  };
  const c = report.modes[mode];
  console.log(
    `\n[${mode}] ${c.scenarios} scenarios: ${c.same} same outcome, ${c.explained} documented exceptions, ` +
      `${c.unexplained} unexplained differences, ${c.unsupported} unsupported by the engine (not compared); ` +
      `${c.instrumented} instrumented, ${c.unparsed} left to the ` +
      `engine as Babel cannot parse them (${c.unparsed - c.unparsedPositive} negative syntax tests, ` +
      `${c.unparsedPositive} others, of which ${c.refused} parsed but refused by Babel with no plugin), ` +
      `${c.crashed} plugin failures; ${c.profiles} ${mode === 'trace' ? 'scenarios traced' : 'profiles written'}; ` +
      `${c.timeouts} timeouts; ${c.seconds} s (${c.msPerScenario} ms per scenario in a worker)`,
  );
  for (const d of compared.differences) {
    const why = d.exception ? `documented: ${d.exception}` : 'UNEXPLAINED';
    console.log(`  ${d.file} (${d.scenario}): plain ${d.plain}, instrumented ${d.instrumented} [${why}]`);
    if (!d.exception && d.message) console.log(`    ${d.message}`);
  }
  for (const r of rechecked)
    console.log(
      `  ${r.file} (${r.scenario}): vm engine plain ${r.vm.plain}, instrumented ${r.vm.instrumented}; ` +
        `test262-harness plain ${r.harness.plain}, instrumented ${r.harness.instrumented} [rechecked]`,
    );
  for (const c of result.crashed) console.log(`  plugin failed on ${c.file} (${c.scenario}): ${c.message}`);
  if (c.unexplained > 0 || c.crashed > 0) failed = true;
  if (c.instrumented === 0 || c.profiles === 0) {
    console.log(`  nothing was instrumented or nothing counted in ${mode} mode: this run proves nothing`);
    failed = true;
  }
}
report.seconds = Math.round((Date.now() - began) / 1000);
if (values.json) writeFileSync(values.json, `${JSON.stringify(report, null, 2)}\n`);
console.log(failed ? '\nconformance: FAILED' : '\nconformance: every difference is a documented exception');
process.exit(failed ? 1 : 0);

/** The test files the filters select, sorted; every Nth of them with --sample. */
function selectFiles() {
  const all = testFiles(dir, filters);
  if (!values.sample) return all;
  const n = positive('sample');
  if (n >= all.length) return all;
  return Array.from({ length: n }, (_, i) => all[Math.floor((i * all.length) / n)]);
}

/** Runs test262-harness on `list` (relative to the checkout), in chunks; returns outcomes by file and scenario. */
function harness(list, env, preprocessor) {
  const outcomes = new Map();
  for (let i = 0; i < list.length; i += chunkSize) {
    const chunk = list.slice(i, i + chunkSize);
    const args = [
      join(root, 'node_modules', 'test262-harness', 'bin', 'run.js'),
      '--test262-dir',
      dir,
      '--threads',
      String(threads),
      '--timeout',
      String(timeout),
      '--reporter',
      'json',
      '--reporter-keys',
      'file,scenario,result',
      ...(preprocessor ? ['--preprocessor', preprocessor] : []),
      ...chunk,
    ];
    const run = spawnSync(process.execPath, args, {
      cwd: dir,
      env: { ...process.env, ...env },
      encoding: 'utf8',
      maxBuffer: 1 << 30,
    });
    let results;
    try {
      results = JSON.parse(run.stdout);
    } catch {
      throw new Error(`test262-harness gave no results (exit ${run.status}): ${run.stderr.slice(0, 2000)}`);
    }
    for (const r of results) {
      const message = r.result.pass
        ? ''
        : String(r.result.message ?? '')
            .split('\n')[0]
            .slice(0, 300);
      outcomes.set(`${r.file}\0${r.scenario}`, { pass: r.result.pass, message });
    }
    process.stdout.write(`  ${Math.min(i + chunkSize, list.length)}/${list.length} files\r`);
  }
  process.stdout.write('\n');
  return outcomes;
}

/**
 * Plain outcomes, cached in the output directory by engine, file content and Node version (they do not depend
 * on pathprof), so runs in other modes or of other samples reuse them.
 */
async function runPlain(list) {
  const cacheFile = join(out, `plain-${engine === 'vm' ? 'vm-' : ''}${process.version}.json`);
  const cache = existsSync(cacheFile) ? JSON.parse(readFileSync(cacheFile, 'utf8')) : {};
  const keyOf = (file) =>
    `${file}@${createHash('sha1')
      .update(readFileSync(join(dir, file)))
      .digest('hex')}`;
  const keys = new Map(list.map((f) => [f, keyOf(f)]));
  const missing = list.filter((f) => !cache[keys.get(f)]);
  if (missing.length > 0) {
    console.log(`plain: running ${missing.length} files (${list.length - missing.length} cached)`);
    let outcomes;
    if (engine === 'harness') outcomes = harness(missing, {});
    else {
      const run = await runVm(missing, { dir, threads, timeout });
      outcomes = run.outcomes;
      if (run.modules.length > 0) {
        console.log(`plain: ${run.modules.length} module tests through test262-harness`);
        for (const [key, outcome] of harness(run.modules, {})) outcomes.set(key, outcome);
      }
    }
    for (const f of missing) cache[keys.get(f)] = {};
    for (const [key, outcome] of outcomes) {
      const [file, scenario] = key.split('\0');
      cache[keys.get(file)][scenario] = outcome;
    }
    writeFileSync(cacheFile, JSON.stringify(cache));
  }
  const outcomes = new Map();
  for (const f of list)
    for (const [scenario, outcome] of Object.entries(cache[keys.get(f)]))
      outcomes.set(`${f}\0${scenario}`, outcome);
  return outcomes;
}

/**
 * Instrumented outcomes in one mode, with what was instrumented, how many profiles the runs wrote (counted on
 * disk) and, with the vm engine, how long a scenario took in a worker.
 */
async function runInstrumented(list, options, plainOutcomes, using = engine) {
  const work = join(out, `run-${options.mode}-${process.pid}`);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const started = Date.now();
  const counts = {
    instrumented: 0,
    unparsed: 0,
    unparsedPositive: 0,
    refused: 0,
    crashed: 0,
    profiles: 0,
    timeouts: 0,
  };
  const crashed = [];
  const unparsed = [];
  const outcomes = new Map();
  let ms = 0;
  let vmScenarios = 0;
  const profiles = join(work, 'profiles');
  const add = (stats) => {
    counts.instrumented += stats.instrumented;
    counts.unparsed += stats.unparsed.length;
    counts.unparsedPositive += stats.unparsed.filter((u) => !u.expected).length;
    counts.refused += stats.unparsed.filter((u) => u.refused && !u.expected).length;
    counts.crashed += stats.crashed.length;
    crashed.push(...stats.crashed);
    unparsed.push(...stats.unparsed);
    // Traced scenarios write no profile; the vm engine counts those that reported events.
    if (options.mode === 'trace') counts.profiles += stats.profiles ?? 0;
    else if (existsSync(profiles))
      counts.profiles += readdirSync(profiles).filter(
        (n) => /^pathprof-.*\.json$/.test(n) && !/-meta-/.test(n), // not the run's metadata files
      ).length;
    rmSync(profiles, { recursive: true, force: true });
  };
  /** test262-harness with the preprocessor, on `chunk`. */
  const throughHarness = (chunk) => {
    const statsFile = join(work, 'stats.json');
    const env = {
      PATHPROF_DIR: profiles,
      // Instrumented tests run from a temporary directory: the runtime resolves through this repository.
      NODE_PATH: join(root, 'node_modules'),
      PATHPROF_CONFORMANCE: JSON.stringify({ plugin, pluginOptions: options, statsFile }),
    };
    for (const [key, outcome] of harness(chunk, env, join(here, 'instrument-test.cjs')))
      outcomes.set(key, outcome);
    add(JSON.parse(readFileSync(statsFile, 'utf8')));
  };
  console.log(`${options.mode}: running ${list.length} files instrumented`);
  const size = using === 'vm' ? chunkSize * 5 : chunkSize;
  for (let i = 0; i < list.length; i += size) {
    const chunk = list.slice(i, i + size);
    if (using === 'harness') {
      throughHarness(chunk);
      continue;
    }
    mkdirSync(profiles, { recursive: true });
    const run = await runVm(chunk, {
      dir,
      threads,
      timeout,
      plugin,
      pluginOptions: options,
      profilesDir: profiles,
    });
    for (const [key, outcome] of run.outcomes) outcomes.set(key, outcome);
    ms += run.stats.ms;
    vmScenarios += run.outcomes.size;
    counts.timeouts += run.stats.timeouts;
    add(run.stats);
    if (run.modules.length > 0) {
      console.log(`${options.mode}: ${run.modules.length} module tests through test262-harness`);
      throughHarness(run.modules);
    }
    if (plainOutcomes)
      progress(Math.min(i + size, list.length), list.length, options.mode, plainOutcomes, outcomes, counts);
  }
  rmSync(work, { recursive: true, force: true });
  counts.seconds = Math.round((Date.now() - started) / 1000);
  counts.msPerScenario = vmScenarios ? Math.round((ms / vmScenarios) * 10) / 10 : null;
  return { outcomes, counts, crashed, unparsed };
}

/**
 * The vm engine runs many scenarios in one process, and V8 keeps some state per process, not per context: a
 * test that breaks a fast path's guard (a "protector", such as the array iterator's) sends later tests of that
 * worker, in any context, down the slow path, so a scenario's outcome can depend on what ran before it there.
 * Every file with an unexplained difference is therefore run again with test262-harness, plain and
 * instrumented, each scenario in a fresh process, and those outcomes replace the vm engine's (in `plainOutcomes`
 * and `instrumented`); the differences that disappear are listed as rechecked, never dropped silently.
 */
async function recheck(compared, plainOutcomes, instrumented, options) {
  if (engine !== 'vm') return [];
  const suspects = compared.differences.filter((d) => !d.exception);
  const files = [...new Set(suspects.map((d) => d.file))];
  if (files.length === 0) return [];
  console.log(
    `${options.mode}: ${files.length} files with unexplained differences, run again with test262-harness`,
  );
  const outcome = (o) => (o === undefined ? 'missing' : o.pass ? 'pass' : 'fail');
  const plainAgain = harness(files, {});
  const instrumentedAgain = (await runInstrumented(files, options, null, 'harness')).outcomes;
  const rechecked = [];
  for (const d of suspects) {
    const key = `${d.file}\0${d.scenario}`;
    rechecked.push({
      file: d.file,
      scenario: d.scenario,
      vm: { plain: d.plain, instrumented: d.instrumented },
      harness: { plain: outcome(plainAgain.get(key)), instrumented: outcome(instrumentedAgain.get(key)) },
    });
  }
  for (const file of files)
    for (const key of [...plainOutcomes.keys()].filter((k) => k.startsWith(`${file}\0`))) {
      plainOutcomes.set(key, plainAgain.get(key));
      instrumented.set(key, instrumentedAgain.get(key));
    }
  return rechecked;
}

/**
 * A long run's state after each chunk (on stdout, and in `--json`.partial): what was compared so far, every
 * difference so far, so that a run cut short still says what it found.
 */
function progress(done, total, mode, plainOutcomes, outcomes, counts) {
  const ran = new Map([...plainOutcomes].filter(([key]) => outcomes.has(key)));
  const c = compare(ran, outcomes, mode);
  console.log(
    `  [${mode}] after ${done}/${total} files, ${Math.round((Date.now() - began) / 1000)} s: ` +
      `${c.counts.scenarios} scenarios, ${c.counts.same} same, ${c.counts.explained} documented exceptions, ` +
      `${c.counts.unexplained} unexplained, ${c.counts.unsupported} unsupported; ${counts.instrumented} ` +
      `instrumented, ${counts.profiles} profiles, ${counts.crashed} plugin failures, ${counts.timeouts} timeouts`,
  );
  for (const d of c.differences.filter((d) => !d.exception))
    console.log(
      `    UNEXPLAINED ${d.file} (${d.scenario}): plain ${d.plain}, instrumented ${d.instrumented}`,
    );
  if (values.json)
    writeFileSync(
      `${values.json}.partial`,
      `${JSON.stringify({ mode, done, total, ...c, ...counts }, null, 2)}\n`,
    );
}

/** Scenario by scenario: the same outcome, a documented exception, or an unexplained difference. */
function compare(plainOutcomes, instrumented, mode) {
  const exceptions = EXCEPTIONS.filter((e) => !e.modes || e.modes.includes(mode)).map((e) => ({
    ...e,
    match: picomatch(e.files),
  }));
  const counts = { scenarios: 0, same: 0, explained: 0, unexplained: 0, unsupported: 0 };
  const differences = [];
  const outcome = (o) => (o === undefined ? 'missing' : o.pass ? 'pass' : 'fail');
  const keys = new Set([...plainOutcomes.keys(), ...instrumented.keys()]);
  for (const key of [...keys].sort()) {
    counts.scenarios++;
    const p = plainOutcomes.get(key);
    const q = instrumented.get(key);
    if (p?.unsupported && q?.unsupported) {
      counts.unsupported++;
      continue;
    }
    if (outcome(p) === outcome(q)) {
      counts.same++;
      continue;
    }
    const [file, scenario] = key.split('\0');
    const exception = exceptions.find((e) => e.match(file));
    if (exception) counts.explained++;
    else counts.unexplained++;
    differences.push({
      file,
      scenario,
      plain: outcome(p),
      instrumented: outcome(q),
      message: q?.message || p?.message || '',
      exception: exception?.reason ?? null,
    });
  }
  return { counts, differences };
}

function summary(outcomes) {
  let pass = 0;
  for (const o of outcomes.values()) if (o.pass) pass++;
  return { scenarios: outcomes.size, pass, fail: outcomes.size - pass };
}
