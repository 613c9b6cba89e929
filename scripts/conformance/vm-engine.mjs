// The conformance runner's fast engine (`--engine vm`): one worker thread per core (vm-worker.cjs), each
// running scenarios in-process in fresh `vm` contexts, instead of test262-harness's one Node process per
// scenario. Plain (no plugin) or instrumented (plugin and options). A watchdog restarts a worker that stays on
// one scenario past the timeout (an async hang the `vm` timeout cannot stop) and records a timeout.
import { createRequire } from 'node:module';
import { clearInterval, setInterval } from 'node:timers';
import { Worker } from 'node:worker_threads';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');

/**
 * Runs `list` (files relative to the checkout `dir`). Returns the outcomes by `file\0scenario`, the module
 * tests it handed back (to run through test262-harness), and what was instrumented, unparsed, unsupported,
 * how many profiles were written and the milliseconds spent per scenario.
 */
export async function runVm(
  list,
  { dir, threads, timeout, plugin = null, pluginOptions = {}, profilesDir = null },
) {
  const runtimePath = createRequire(join(root, 'packages', 'babel-plugin', 'package.json')).resolve(
    'babel-plugin-pathprof/runtime',
  );
  const outcomes = new Map();
  const modules = [];
  const stats = {
    instrumented: 0,
    unparsed: [],
    crashed: [],
    profiles: 0,
    unsupported: 0,
    timeouts: 0,
    ms: 0,
  };
  const started = Date.now();
  let next = 0;
  let done = 0;
  const workerData = { dir, plugin, pluginOptions, timeout, profilesDir, runtimePath };

  await new Promise((resolve, reject) => {
    let live = 0;
    const start = () => {
      const worker = new Worker(join(here, 'vm-worker.cjs'), { workerData });
      const state = { worker, file: null, scenario: null, since: 0, finished: [] };
      live++;
      const feed = () => {
        if (next >= list.length) {
          state.file = null;
          worker.terminate();
          return;
        }
        state.file = list[next++];
        state.scenario = null;
        state.finished = [];
        state.since = Date.now();
        worker.postMessage({ file: state.file });
      };
      const watchdog = setInterval(() => {
        if (!state.file || Date.now() - state.since < timeout * 2 + 5000) return;
        // Stuck past any timeout the worker could enforce: the scenario timed out; the file's other
        // scenarios are not run (counted as timeouts too), and a fresh worker takes over.
        clearInterval(watchdog);
        stats.timeouts++;
        outcomes.set(`${state.file}\0${state.scenario ?? 'default'}`, {
          pass: false,
          message: 'Test timed out',
        });
        state.file = null;
        done++;
        worker.removeAllListeners('exit');
        worker.terminate().then(() => {
          live--;
          start();
        });
      }, 1000);
      worker.on('message', (message) => {
        if (message.started) {
          state.scenario = message.scenario;
          state.since = Date.now();
          return;
        }
        if (message.module) modules.push(message.file);
        for (const r of message.results)
          outcomes.set(`${message.file}\0${r.scenario}`, {
            pass: r.pass,
            message: r.pass
              ? ''
              : String(r.message ?? '')
                  .split('\n')[0]
                  .slice(0, 300),
            ...(r.unsupported ? { unsupported: true } : {}),
          });
        stats.instrumented += message.stats.instrumented;
        stats.unparsed.push(...message.stats.unparsed);
        stats.crashed.push(...message.stats.crashed);
        stats.profiles += message.stats.profiles;
        stats.unsupported += message.stats.unsupported;
        stats.ms += message.stats.ms;
        done++;
        if (done % 200 === 0 || done === list.length)
          process.stdout.write(
            `  ${done}/${list.length} files, ${Math.round((Date.now() - started) / 1000)} s\r`,
          );
        feed();
      });
      worker.on('error', (error) => {
        clearInterval(watchdog);
        reject(new Error(`vm engine worker failed on ${state.file}: ${error.stack ?? error}`));
      });
      worker.on('exit', () => {
        clearInterval(watchdog);
        live--;
        if (live === 0) resolve();
      });
      feed();
    };
    for (let i = 0; i < Math.min(threads, list.length); i++) start();
  });
  process.stdout.write('\n');
  return { outcomes, modules, stats };
}
