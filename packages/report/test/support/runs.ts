import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The repository's example projects. */
export const fixtures = join(__dirname, '..', '..', '..', '..', 'fixtures');

/** Whether the packages are built: the CLI and the plugin run from `dist` (`npm test` builds first). */
export const built = existsSync(join(__dirname, '..', '..', 'dist', 'cli.js'));

/** The report CLI's bin, as npx runs it. */
export const reportBin = join(__dirname, '..', '..', 'bin', 'pathprof-report.js');
const jestBin = require.resolve('jest/bin/jest');

/** A fresh directory for profiles. */
export function profileDir(): string {
  return mkdtempSync(join(tmpdir(), 'pathprof-report-test-'));
}

/** Runs `body` with a fresh profile directory, removed afterwards. */
export function withProfileDir(body: (dir: string) => void): void {
  const dir = profileDir();
  try {
    body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Runs an example project's jest tests with path profiling into `out`; throws if they fail. Without the
 * transform cache: a cached file keeps the instrumentation of whatever plugin build made it.
 */
export function runJest(
  project: string,
  out: string,
  args: string[] = [],
  env: NodeJS.ProcessEnv = {},
): void {
  const run = spawnSync(process.execPath, [jestBin, '--ci', '--no-cache', ...args], {
    cwd: join(fixtures, project),
    env: { ...process.env, PATHPROF_DIR: out, ...env },
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`jest failed in ${project}:\n${run.stderr}`);
}

/**
 * Runs an example project's jest tests with jest's own coverage (babel-plugin-istanbul, as `jest --coverage`
 * does) and without pathprof: the project's Babel presets, not its config file (which adds the plugin).
 * Writes `coverage-final.json` into `out`.
 */
export function jestWithIstanbul(project: string, out: string): void {
  const presets = [['@babel/preset-env', { targets: { node: '20' } }], '@babel/preset-typescript'];
  const config = {
    rootDir: join(fixtures, project),
    collectCoverage: true,
    coverageReporters: ['json'],
    coverageDirectory: out,
    transform: { '\\.[jt]s$': ['babel-jest', { configFile: false, babelrc: false, presets }] },
  };
  const run = spawnSync(
    process.execPath,
    [jestBin, '--ci', '--no-cache', '--config', JSON.stringify(config)],
    {
      cwd: join(fixtures, project),
      encoding: 'utf8',
    },
  );
  if (run.status !== 0) throw new Error(`jest --coverage failed in ${project}:\n${run.stderr}`);
}

/** Runs `pathprof-report ARGS` in an example project's directory, without colour unless `env` asks for it. */
export function report(
  project: string,
  args: string[],
  env: NodeJS.ProcessEnv = { NO_COLOR: '1' },
): SpawnSyncReturns<string> {
  return reportIn(join(fixtures, project), args, env);
}

/**
 * Runs `pathprof-report ARGS` in `dir`, without colour unless `env` asks for it, and outside GitHub Actions
 * unless `env` says so (a CI run's own environment must not turn on annotations).
 */
export function reportIn(
  dir: string,
  args: string[],
  env: NodeJS.ProcessEnv = { NO_COLOR: '1' },
): SpawnSyncReturns<string> {
  const inherited = { ...process.env };
  for (const name of ['NO_COLOR', 'FORCE_COLOR', 'GITHUB_ACTIONS', 'GITHUB_BASE_REF', 'GITHUB_WORKSPACE'])
    delete inherited[name];
  return spawnSync(process.execPath, [reportBin, ...args], {
    cwd: dir,
    env: { ...inherited, ...env },
    encoding: 'utf8',
  });
}
