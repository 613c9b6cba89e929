#!/usr/bin/env node
// test262 through the tracing oracle: `node scripts/conformance/trace-oracle.mjs --test262 DIR [--filter GLOB]…
// [--timeout MS]`. Where the conformance runner checks that instrumented code behaves as the plain code does,
// this checks the graphs themselves against what test262's scripts really do: each scenario (includes and test
// as one script, as test262-stream makes it) is instrumented by the oracle's tracer (`instrumentForTrace`), run
// in a fresh `vm` context, and `checkTrace` must accept every activation: each edge taken is one of the graph's,
// and an exception leaves only a block with an exceptional edge (non-throwing-code.ts's proofs, among others).
// An async test is checked once it calls `$DONE` (an activation still awaiting then must stand at a block that
// suspends). Module and raw tests, negative tests and those needing `$262` are left out; a scenario that runs
// past the timeout, or an async one that has not called `$DONE` by then, is counted apart (its trace stops
// anywhere). Exits 1 when a scenario fails the oracle for a reason
// not listed in KNOWN.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { clearTimeout, setTimeout } from 'node:timers';
import vm from 'node:vm';
import picomatch from 'picomatch';
import { testFiles } from './test-files.mjs';

const require = createRequire(import.meta.url);
const TestFile = require('test262-stream/lib/test-file');
const createScenarios = require('test262-stream/lib/create-scenarios');
const { checkTrace, instrumentForTrace, TraceRecorder, TRACE_GLOBAL } = require('@pathprof/cfg');
const { failureKind } = require('./babel-refusal.cjs');

const usage =
  'usage: node scripts/conformance/trace-oracle.mjs --test262 DIR [--filter GLOB]... [--timeout MS]\n' +
  '  (default filters: test/language/**/*.js and test/annexB/language/**/*.js)';
const { values } = parseArgs({
  options: {
    test262: { type: 'string' },
    filter: { type: 'string', multiple: true },
    timeout: { type: 'string', default: '10000' },
  },
});
const test262 = values.test262 ?? process.env.PATHPROF_TEST262;
if (!test262 || !existsSync(join(resolve(test262), 'harness', 'assert.js'))) {
  console.error(`trace-oracle: --test262 must name a checkout of tc39/test262\n${usage}`);
  process.exit(2);
}
const dir = resolve(test262);
const timeout = Number(values.timeout);
if (!Number.isInteger(timeout) || timeout <= 0) {
  console.error(`trace-oracle: --timeout must be a positive integer (ms), not ${values.timeout}\n${usage}`);
  process.exit(2);
}

const files = testFiles(dir, values.filter ?? ['test/language/**/*.js', 'test/annexB/language/**/*.js']);

const includes = new Map();
const include = (name) => {
  if (!includes.has(name)) includes.set(name, readFileSync(join(dir, 'harness', name), 'utf8'));
  return includes.get(name);
};

/**
 * Scenarios the oracle rejects for a known defect of the graphs, not yet fixed (README, "Guarantees and limits"):
 * the path such a run takes is not one of its graph's, so its counts are wrong.
 */
const KNOWN = [
  [
    'test/language/statements/class/subclass/derived-class-return-override-*finally*.js',
    "a derived constructor's `return` before `super()` inside a `try`: V8 throws at the return, after its count",
  ],
].map(([glob, why]) => ({ match: picomatch(glob), why }));
// A test whose promise rejects with nothing to catch it (async tests are left out, but not every test that
// makes a promise says so) must not end this process.
process.on('unhandledRejection', () => {});

const counts = { checked: 0, failed: 0, known: 0, timedOut: 0, leftOut: 0, notParsed: 0 };
const began = Date.now();
for (const file of files) {
  const test = new TestFile(file, readFileSync(join(dir, file), 'utf8'));
  const { flags, negative } = test.attrs;
  if (flags.module || flags.raw || negative || /\$262/.test(test.contents)) {
    counts.leftOut++;
    continue;
  }
  const harness = [
    ...test.attrs.includes,
    'assert.js',
    'sta.js',
    ...(flags.async ? ['doneprintHandle.js'] : []),
  ];
  test.contents = harness.map(include).join('\n') + '\n' + test.contents;
  for (const scenario of createScenarios(test)) {
    let traced;
    try {
      traced = instrumentForTrace(scenario.contents, file);
    } catch (error) {
      // What Babel cannot parse, or will not transform with no plugin, is left to the engine, as the
      // conformance runner does (babel-refusal.cjs); anything else is the tracer's failure.
      const options = {
        filename: file,
        babelrc: false,
        configFile: false,
        sourceType: 'unambiguous',
        parserOpts: { plugins: ['jsx'] },
      };
      if (failureKind(error, scenario.contents, options).list === 'unparsed') counts.notParsed++;
      else {
        counts.failed++;
        console.log(
          `FAIL ${file} (${scenario.scenario}): the tracer failed: ${String(error.message).split('\n')[0]}`,
        );
      }
      continue;
    }
    const recorder = new TraceRecorder();
    let done = () => {};
    const finished = new Promise((resolve) => (done = resolve));
    // `$DONE` prints how an async test ended; the test's jobs run on this process's microtask queue.
    const print = (message) => String(message).startsWith('Test262:Async') && done(true);
    const context = vm.createContext({ [TRACE_GLOBAL]: recorder, print });
    let threw = false;
    try {
      vm.runInContext(traced.code, context, { filename: file, timeout });
    } catch (error) {
      if (error?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
        counts.timedOut++;
        continue;
      }
      threw = true;
    }
    if (flags.async && !threw) {
      let timer;
      const late = new Promise((resolve) => (timer = setTimeout(resolve, timeout, false)));
      const ended = await Promise.race([finished, late]);
      clearTimeout(timer);
      if (!ended) {
        counts.timedOut++;
        continue;
      }
    }
    try {
      checkTrace(traced.graphs, recorder.events, threw);
      counts.checked++;
    } catch (error) {
      const message = String(error.message).split('\n')[0];
      const known = KNOWN.find((k) => k.match(file));
      if (known) counts.known++;
      else counts.failed++;
      console.log(`${known ? 'KNOWN' : 'FAIL'} ${file} (${scenario.scenario}): ${message}`);
      if (known) console.log(`  known defect: ${known.why}`);
    }
  }
}
console.log(
  `trace-oracle: ${files.length} files, ${counts.checked} scenarios traced and accepted, ${counts.failed} rejected, ` +
    `${counts.known} rejected for a known defect, ` +
    `${counts.timedOut} past the ${timeout} ms timeout, ${counts.notParsed} not transformed, ${counts.leftOut} ` +
    `files left out (module, raw, negative, $262); ${Math.round((Date.now() - began) / 1000)} s`,
);
process.exit(counts.failed > 0 ? 1 : 0);
