// A worker thread of the conformance runner's `vm` engine (vm-engine.mjs): runs test262 scenarios in-process,
// each in a fresh `vm` context, plain or instrumented by babel-plugin-pathprof. Each scenario is made as
// test262-harness makes it (test262-stream's own frontmatter parser and scenario maker; the test's includes,
// then assert.js, sta.js and, for async tests, doneprintHandle.js; "use strict" first in the strict scenario)
// and judged as test262-harness's validator judges it. One difference: the includes run as a script of their
// own before the test, in the same realm, with the same "use strict" prefix, so that their instrumented code
// (under their own names, harness/…) is made once per worker, not once per scenario (Babel spent ~30 ms a
// scenario on them). For a test's outcome two scripts in a row are one script: the includes only declare, and
// a test that does not compile, or clashes with their declarations, throws the same SyntaxError either way. The host ($262) is test262's (INTERPRETING.md): createRealm, evalScript,
// detachArrayBuffer, global; tests that need agents, gc or a host that cannot block are 'unsupported' (counted
// apart, never compared), module tests are handed back to run through test262-harness.
const { parentPort, workerData } = require('node:worker_threads');
const vm = require('node:vm');
const { setImmediate, setTimeout } = require('node:timers');
const { performance } = require('node:perf_hooks');
const { structuredClone } = globalThis;
const { readFileSync } = require('node:fs');
const path = require('node:path');
const TestFile = require('test262-stream/lib/test-file');
const createScenarios = require('test262-stream/lib/create-scenarios');
const { failureKind } = require('./babel-refusal.cjs');

const { dir, plugin, pluginOptions, timeout, profilesDir, runtimePath } = workerData;
const instrumenting = Boolean(plugin);
const babel = instrumenting ? require('@babel/core') : null;
const pluginModule = instrumenting ? require(plugin) : null;
const runtime = instrumenting ? require(runtimePath) : null;
const tracing = instrumenting && pluginOptions.mode === 'trace';
const { countingRecorderSource, TRACE_GLOBAL } = tracing ? require('./trace-recorder.cjs') : {};
const includeTexts = new Map();
const UNSUPPORTED_HOST = /\$262\s*\.\s*(agent|gc)\b/;

function include(name) {
  let text = includeTexts.get(name);
  if (text === undefined) {
    text = readFileSync(path.join(dir, 'harness', name), 'utf8');
    includeTexts.set(name, text);
  }
  return text;
}

/**
 * The file's scenarios as test262-stream makes them (its builder, with include texts read once), each with
 * `harness`, the includes' source ("use strict" first in the strict scenario), and `own`, the test's.
 */
function scenariosOf(file) {
  const test = new TestFile(file, readFileSync(path.join(dir, file), 'utf8'));
  const own = test.contents;
  let includes = '';
  let names = [];
  if (!test.attrs.flags.raw) {
    names = test.attrs.includes;
    names.push('assert.js', 'sta.js');
    if (test.attrs.flags.async) names.push('doneprintHandle.js');
    for (const name of names) includes += `${include(name)}\n`;
  }
  test.contents = includes + own;
  return createScenarios(test).map((scenario) => {
    const prefix = scenario.contents.slice(0, scenario.contents.length - test.contents.length);
    return Object.assign(scenario, {
      harness: names.length ? { source: prefix + includes, name: `harness/${names.join(',')}` } : null,
      own: prefix + own,
    });
  });
}

/** Why the vm host cannot run `test` faithfully, or null. */
function unsupported(test) {
  if (test.attrs.flags.CanBlockIsFalse) return 'CanBlockIsFalse: this host can block';
  if (UNSUPPORTED_HOST.test(test.contents)) return '$262.agent / $262.gc';
  return null;
}

const harnessScripts = new Map();

/** The scenario's includes as they run, compiled (and instrumented) once per worker; null for a raw test. */
function harnessOf(test, stats) {
  if (!test.harness) return null;
  const { source, name } = test.harness;
  let script = harnessScripts.get(source);
  if (script === undefined) {
    const code = instrumenting ? instrumented(source, name, test, stats) : source;
    script = new vm.Script(code, { filename: path.resolve(dir, name) });
    harnessScripts.set(source, script);
  }
  return script;
}

/** The test's own code as it runs: instrumented like instrument-test.cjs does, or as it is. */
function codeOf(test, stats) {
  if (!instrumenting) return test.own;
  const code = instrumented(test.own, test.file, test, stats);
  if (code !== test.own) stats.instrumented++;
  return code;
}

function instrumented(source, file, test, stats) {
  const options = {
    filename: path.resolve(dir, file),
    cwd: dir,
    babelrc: false,
    configFile: false,
    sourceType: 'script',
  };
  try {
    const plugins = [[pluginModule, { runtime: 'require', include: ['**'], exclude: [], ...pluginOptions }]];
    return babel.transformSync(source, { ...options, plugins }).code;
  } catch (error) {
    const { phase, type } = test.attrs.negative || {};
    const expected = (phase === 'parse' || phase === 'early') && type === 'SyntaxError';
    const { list, refused } = failureKind(error, source, options);
    stats[list].push({
      file: test.file,
      scenario: test.scenario,
      expected,
      refused,
      message: error.message.split('\n')[0],
    });
    return source;
  }
}

function requireInContext(id) {
  if (instrumenting && id === 'babel-plugin-pathprof/runtime') return runtime;
  throw new Error(`conformance vm engine: unexpected require(${JSON.stringify(id)})`);
}

/** What a thrown value looks like in the harness's parse of stderr: its name. */
function errorOf(value) {
  try {
    if (value !== null && (typeof value === 'object' || typeof value === 'function')) {
      return { name: String(value.name), message: String(value.message) };
    }
  } catch {
    // A value whose name cannot be read is still an error.
  }
  return { name: typeof value, message: String(value) };
}

/**
 * One realm of the scenario: a fresh context with test262's host object `$262`, `print`, and what
 * test262-harness's Node host gives its context (setTimeout, console, require).
 */
function createRealm(run) {
  const context = vm.createContext({});
  const global = vm.runInContext('this', context);
  const print = (...args) => {
    run.stdout += `${args.map(String).join(' ')}\n`;
  };
  const hooks = {
    print,
    require: requireInContext,
    setTimeout: (callback, ms, ...args) => {
      run.timers++;
      return setTimeout(() => {
        run.timers--;
        try {
          callback(...args);
        } catch (error) {
          if (!run.error) run.error = errorOf(error);
        }
      }, ms);
    },
    createRealm: () => createRealm(run).$262,
    evalScript: (code) => {
      try {
        return vm.runInContext(code, context, { displayErrors: false, timeout });
      } catch (error) {
        // A script that does not compile throws this realm's SyntaxError, as a host's evalScript does.
        if (error instanceof SyntaxError) throw new global.SyntaxError(error.message);
        throw error;
      }
    },
    detachArrayBuffer: (buffer) => {
      structuredClone(buffer, { transfer: [buffer] });
      return null;
    },
  };
  vm.runInContext(
    `(function (hooks) {
      var global = this;
      var define = function (name, value) {
        Object.defineProperty(global, name, { value: value, writable: true, enumerable: false, configurable: true });
      };
      define('print', hooks.print);
      define('require', hooks.require);
      define('setTimeout', hooks.setTimeout);
      define('console', { log: hooks.print });
      define('$262', {
        global: global,
        createRealm: function () { return hooks.createRealm(); },
        evalScript: function (code) { return hooks.evalScript(code); },
        detachArrayBuffer: function (buffer) { return hooks.detachArrayBuffer(buffer); },
      });
    })`,
    context,
  ).call(global, hooks);
  if (tracing) vm.runInContext(countingRecorderSource, context);
  return { context, global, $262: global.$262 };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

let currentRun = null;
process.on('unhandledRejection', (reason) => {
  // test262-harness's Node process dies on an unhandled rejection, printing it: the test fails with it.
  if (currentRun && !currentRun.error) currentRun.error = errorOf(reason);
});

/** Runs one scenario; its raw result as test262-harness's agent gives it ({ stdout, error, timeout }). */
async function runScenario(test, harness, code) {
  const run = { stdout: '', error: null, timeout: false, timers: 0 };
  currentRun = run;
  const { context, global } = createRealm(run);
  try {
    if (harness !== null) harness.runInContext(context, { timeout, displayErrors: false });
    vm.runInContext(code, context, { filename: path.resolve(dir, test.file), timeout, displayErrors: false });
  } catch (error) {
    if (error && error.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') run.timeout = true;
    else run.error = errorOf(error);
  }
  // What the script left to do runs as the process would run it before exiting: jobs, then timers. An async
  // test that has not printed its end may still wait on the host (Atomics.waitAsync): a quiet 100 ms ends it.
  const deadline = Date.now() + timeout;
  const waiting = () => test.attrs.flags.async && !run.stdout.includes('Test262:Async');
  let quietSince = Date.now();
  for (;;) {
    await turn();
    if (run.timeout || run.error) break;
    if (run.timers > 0) quietSince = Date.now();
    else if (!waiting() || Date.now() - quietSince > 100) break;
    if (Date.now() > deadline) {
      run.timeout = true;
      break;
    }
    if (run.timers === 0) await new Promise((resolve) => setTimeout(resolve, 5));
  }
  currentRun = null;
  if (tracing) run.traced = global[TRACE_GLOBAL].events;
  return run;
}

/** test262-harness's validator (lib/validator.js) and its async failure parse (lib/agent-pool.js). */
function judge(test, run) {
  const flags = test.attrs.flags;
  const failures = run.stdout.match(/^Test262:AsyncTestFailure:(.*)$/gm);
  if (failures) {
    const match = failures[failures.length - 1].match(/Test262:AsyncTestFailure:([^:]+): (.*)/);
    run.error = match ? { name: match[1], message: match[2] } : { name: 'Error', message: failures.at(-1) };
  }
  if (run.timeout) return { pass: false, message: 'Test timed out' };
  const stderr = Boolean(run.error);
  let ranToFinish = flags.async ? run.stdout.includes('Test262:Async') : false;
  if (stderr) ranToFinish = true;
  else if (!run.stdout) ranToFinish = true;
  if (flags.async && !run.stdout && !stderr) ranToFinish = false;
  const negative = test.attrs.negative;
  if (!negative) {
    if (run.error) {
      const message =
        run.error.name === 'Test262Error'
          ? run.error.message
          : `Expected no error, got ${run.error.name}: ${run.error.message}`;
      return { pass: false, message };
    }
    if (!ranToFinish && !flags.raw)
      return { pass: false, message: run.stdout || (flags.async ? 'Test did not run to completion' : '') };
    return { pass: true };
  }
  if (!run.error)
    return {
      pass: false,
      message: `Expected test to throw error of type ${negative.type}, but did not throw error`,
    };
  if (run.error.name === negative.type) return { pass: true };
  return {
    pass: false,
    message: `Expected test to throw error of type ${negative.type}, got ${run.error.name}: ${run.error.message}`,
  };
}

/** The counts the scenario left, written as its profile; the store forgets the scenario's files. */
function writeProfile() {
  const store = runtime.getStore();
  const profile = runtime.takeCounts(store);
  for (const key of Object.keys(store.files)) delete store.files[key];
  delete store.contexts;
  if (!profile) return 0;
  runtime.writeProfileFile(profilesDir, profile);
  return 1;
}

parentPort.on('message', async ({ file }) => {
  const stats = { instrumented: 0, unparsed: [], crashed: [], profiles: 0, unsupported: 0, ms: 0 };
  const results = [];
  let scenarios;
  try {
    scenarios = scenariosOf(file);
  } catch (error) {
    // What test262-stream cannot read fails, plain and instrumented alike.
    const message = `the vm engine could not read the test: ${error.message}`;
    parentPort.postMessage({ file, results: [{ scenario: 'default', pass: false, message }], stats });
    return;
  }
  if (scenarios.length > 0 && scenarios[0].attrs.flags.module) {
    parentPort.postMessage({ file, module: true, results, stats });
    return;
  }
  for (const test of scenarios) {
    const started = performance.now();
    parentPort.postMessage({ file, scenario: test.scenario, started: true });
    const reason = unsupported(test);
    let outcome;
    if (reason) {
      stats.unsupported++;
      outcome = { pass: false, unsupported: true, message: `unsupported by the vm engine: ${reason}` };
    } else {
      const harness = harnessOf(test, stats);
      const code = codeOf(test, stats);
      const run = await runScenario(test, harness, code);
      outcome = judge(test, run);
      // A traced scenario writes no profile: what shows its code ran instrumented is the events it reported.
      if (tracing) stats.profiles += run.traced > 0 ? 1 : 0;
      else if (instrumenting) stats.profiles += writeProfile();
    }
    stats.ms += performance.now() - started;
    results.push({ scenario: test.scenario, ...outcome });
  }
  parentPort.postMessage({ file, results, stats });
});
