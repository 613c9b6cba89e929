import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { isMetadataFile, mergeProfiles, readProfileDirectory } from '@pathprof/runtime';
import { decodedCounts } from './support/decoded-counts';

const built = existsSync(join(__dirname, '..', 'dist', 'index.js'));
const fixtures = join(__dirname, '..', '..', '..', 'fixtures');
const vitestBin = join(dirname(require.resolve('vitest/package.json')), 'vitest.mjs');
const jestBin = require.resolve('jest/bin/jest');
// Each test starts Vitest or jest processes: seconds alone, longer beside the rest of the suite.
jest.setTimeout(120_000);

type Counts = Record<string, Record<string, Record<string, number>>>;

/** Every profiled file's paths per function, decoded, from one run's profile directory. */
function countsIn(dir: string): Counts {
  const { profiles, errors } = readProfileDirectory(dir);
  expect(errors).toEqual([]);
  return Object.fromEntries(mergeProfiles(profiles).map((file) => [file.key, decodedCounts(file)]));
}

function withoutPrograms(counts: Counts): Counts {
  return Object.fromEntries(
    Object.entries(counts).map(([file, fns]) => [
      file,
      Object.fromEntries(Object.entries(fns).filter(([name]) => name !== '<program>')),
    ]),
  );
}

function run(bin: string, project: string, args: string[], env: NodeJS.ProcessEnv) {
  const result = spawnSync(process.execPath, [bin, ...args], {
    cwd: join(fixtures, project),
    env: { ...process.env, NO_COLOR: '1', ...env },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`${project}: ${result.stdout}\n${result.stderr}`);
  return result;
}

/** The tests of a run's profiles: each profile's test file, and with names, `file › test` per test. */
function testsIn(dir: string): { files: string[]; names: string[] } {
  const { profiles } = readProfileDirectory(dir);
  return {
    files: profiles.map((p) => p.testFile ?? '(none)').sort(),
    names: [
      ...new Set(
        profiles.flatMap((p) =>
          (p.tests ?? []).flatMap((t) => (t.name ? [[p.testFile, ...t.name].join(' › ')] : [])),
        ),
      ),
    ].sort(),
  };
}

/**
 * `vitest run --coverage` with the pathprof provider, in every pool, with isolation on and off: the counts
 * of an ES module project and a TypeScript project equal those of the same tests under jest (path mode,
 * babel-jest), path by path. Without isolation a module is evaluated once per worker instead of once per
 * test file, so only its top-level path counts may differ. Each test file's counts are its profile, named
 *  after it: by the provider (esm-stock), or by the setup file, which with PATHPROF_TEST_NAMES=1 (pool threads,
 * no isolation: the runtime and its store outlive a test file) splits them by test (ts-wallet).
 */
(built ? describe : describe.skip).each([
  // classify: fresh and expired, fresh and ok, frozen twice (once through label), unknown (throws).
  [
    'esm-stock',
    { NODE_OPTIONS: '--experimental-vm-modules' },
    /^ {2}classify +11 .* #1 ×2, #2 ×1, #4 ×1$/m,
    ['test/shelf.test.js', 'test/stock.test.js'],
    [],
  ],
  // deposit: a first amount (no balance yet), a second one, a refused one.
  [
    'ts-wallet',
    {},
    /^ {2}Wallet\.deposit +16 .* #1 ×1, #3 ×1, #5 ×1$/m,
    ['test/money.test.ts', 'test/parse.test.ts'],
    [
      'test/money.test.ts › a wallet takes positive deposits per currency',
      'test/money.test.ts › converts between currencies',
      'test/parse.test.ts › parses prices',
    ],
  ],
])('Vitest with babel-plugin-pathprof/vitest: %s', (project, jestEnv, reportRow, testFiles, testNames) => {
  let baseline: Counts;
  const dirs: string[] = [];
  const fresh = () => {
    const dir = mkdtempSync(join(tmpdir(), 'pathprof-vitest-'));
    dirs.push(dir);
    return dir;
  };
  beforeAll(() => {
    const dir = fresh();
    run(jestBin, project, ['--ci', '--no-cache'], { ...jestEnv, PATHPROF_DIR: dir });
    baseline = countsIn(dir);
  });
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  test.each([
    ['forks', true],
    ['threads', true],
    ['forks', false],
    ['threads', false],
  ])('pool %s, isolate %s: the same counts as jest, a profile per test file', (pool, isolate) => {
    const dir = fresh();
    const args = ['run', '--coverage', `--pool=${pool}`, `--isolate=${isolate}`, '--maxWorkers=2'];
    const byName = pool === 'threads' && !isolate;
    const vitest = run(vitestBin, project, args, {
      PATHPROF_DIR: dir,
      ...(byName ? { PATHPROF_TEST_NAMES: '1' } : {}),
    });
    expect(testsIn(dir)).toEqual({ files: testFiles, names: byName ? testNames : [] });
    expect(vitest.stdout).toContain('% Path coverage report from pathprof');
    expect(vitest.stdout).toMatch(reportRow);
    const counts = countsIn(dir);
    expect(Object.keys(counts).sort()).toEqual(Object.keys(baseline).sort());
    expect(isolate ? counts : withoutPrograms(counts)).toEqual(
      isolate ? baseline : withoutPrograms(baseline),
    );
  });

  test('a second run replaces the first; coverage.clean=false adds to it', () => {
    const dir = fresh();
    run(vitestBin, project, ['run', '--coverage'], { PATHPROF_DIR: dir });
    run(vitestBin, project, ['run', '--coverage'], { PATHPROF_DIR: dir });
    expect(readdirSync(dir).filter((n) => n.startsWith('pathprof-') && !isMetadataFile(n))).toHaveLength(
      testFiles.length,
    );
    expect(countsIn(dir)).toEqual(baseline);
    run(vitestBin, project, ['run', '--coverage', '--coverage.clean=false'], { PATHPROF_DIR: dir });
    const doubled = Object.fromEntries(
      Object.entries(baseline).map(([file, fns]) => [
        file,
        Object.fromEntries(
          Object.entries(fns).map(([name, paths]) => [
            name,
            Object.fromEntries(Object.entries(paths).map(([p, n]) => [p, 2 * n])),
          ]),
        ),
      ]),
    );
    expect(countsIn(dir)).toEqual(doubled);
  });
});
