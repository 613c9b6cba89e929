import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { basename, dirname } from 'node:path';
import { profileDirectory, readProfileDirectory, startRun } from '@pathprof/runtime';
import { main as report } from './cli';

const usage = `usage: pathprof COMMAND [ARGS...]
  Starts a new run (the previous run's profiles in $PATHPROF_DIR or .pathprof are removed; PATHPROF_ACCUMULATE=1
  adds to them instead), runs COMMAND with every Node process compiling the project's files (CommonJS and ES
  modules) with its Babel config and the pathprof plugin (@babel/register, a module loader hook), then prints
  the path coverage report.
  The exit code is COMMAND's. Examples: pathprof node main.js, pathprof mocha, pathprof npm test`;

/**
 * `pathprof COMMAND…`, like `c8` and `nyc`: a fresh run, the command with profiling on (the register hook
 * preloaded through NODE_OPTIONS, so child processes profile too), the report. Sets `process.exitCode`.
 */
export async function main(argv: string[]): Promise<void> {
  const [command, ...args] = argv[0] === '--' ? argv.slice(1) : argv;
  if (command === undefined || command === '-h' || command === '--help') {
    console.error(usage);
    process.exitCode = command === undefined ? 2 : 0;
    return;
  }
  const hook = require.resolve('babel-plugin-pathprof/register');
  // Said once, before the previous run's profiles are removed, rather than as a stack trace from every process.
  const missing = missingBabelPackages(process.cwd(), dirname(hook));
  if (missing.length) {
    console.error(
      `pathprof: profiling a Node command needs ${missing.join(' and ')} in the project: npm install -D ${missing.join(' ')}`,
    );
    process.exitCode = 2;
    return;
  }
  let dir: string;
  try {
    dir = profileDirectory();
    startRun(dir);
  } catch (error) {
    console.error((error as Error).message);
    process.exitCode = 2;
    return;
  }
  const nodeOptions = [process.env.NODE_OPTIONS, `--require ${JSON.stringify(hook)}`]
    .filter(Boolean)
    .join(' ');
  let started = true;
  const exit = await new Promise<number>((resolve) => {
    const child = spawn(command, args, {
      stdio: 'inherit',
      env: { ...process.env, NODE_OPTIONS: nodeOptions },
    });
    // Ctrl-C reaches the command (same process group): wait for it to finish rather than die first.
    const ignore = () => {};
    process.on('SIGINT', ignore);
    child.on('error', (error: NodeJS.ErrnoException) => {
      console.error(
        error.code === 'ENOENT'
          ? `pathprof: command not found: ${command}`
          : `pathprof: could not run ${command}: ${error.message}`,
      );
      process.off('SIGINT', ignore);
      started = false;
      resolve(127);
    });
    child.on('exit', (code, signal) => {
      process.off('SIGINT', ignore);
      resolve(code ?? 128 + (signal ? constants.signals[signal] : 0));
    });
  });
  // A command that never started was said to be missing above: nothing to report.
  if (started) {
    if (readProfileDirectory(dir).profiles.length === 0) {
      console.error(
        basename(command) === 'vitest'
          ? `pathprof: vitest wrote no profile into ${dir}: Vitest compiles the project's files itself, past ` +
              "Node's hooks; its coverage provider profiles them (provider: 'custom', customProviderModule: " +
              "'babel-plugin-pathprof/vitest': see the README's Vitest section)"
          : `pathprof: ${command} wrote no profile into ${dir}: did it run any of the project's code, and is ` +
              "'pathprof' among the plugins of its Babel config (or does it run its own Babel hook without it)?",
      );
    } else {
      report([dir]);
    }
  }
  process.exitCode = exit;
}

/**
 * The packages the register hook loads (`babel-plugin-pathprof/register`) that do not resolve from the project
 * (`cwd`) or from the plugin (`pluginDir`), where the hook looks for them.
 */
export function missingBabelPackages(cwd: string, pluginDir: string): string[] {
  return ['@babel/register', '@babel/core'].filter((name) => {
    try {
      require.resolve(name, { paths: [cwd, pluginDir] });
      return false;
    } catch {
      return true;
    }
  });
}
