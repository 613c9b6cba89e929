import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { currentRun, isMetadataFile, mergeProfiles, readProfileDirectory } from '@pathprof/runtime';
import { decodedCounts } from './support/decoded-counts';
import { ScratchProject } from './support/scratch-project';

const built = existsSync(join(__dirname, '..', 'dist', 'index.js'));
const jestBin = require.resolve('jest/bin/jest');
// Each test starts jest processes: seconds alone, much longer beside the rest of the suite on two cores.
jest.setTimeout(60_000);

/**
 * Instrumented code inside jest's per-test-file contexts: the test environment writes each file's counts at
 * teardown; merged, they are exactly the calls the tests made, with workers or in band, cache on or off.
 */
(built ? describe : describe.skip)('under jest with babel-plugin-pathprof/jest-environment', () => {
  let project: ScratchProject;
  beforeAll(() => {
    project = new ScratchProject({
      'babel.config.js': "module.exports = { plugins: ['pathprof'] };\n",
      'jest.config.js': `module.exports = {
  rootDir: __dirname,
  testEnvironment: 'babel-plugin-pathprof/jest-environment',
  transform: { '\\\\.js$': 'babel-jest' },
  cacheDirectory: __dirname + '/.jest-cache',
};
`,
      'src/sign.js':
        'module.exports = function sign(x) { if (x > 0) return 1; if (x < 0) return -1; return 0; };\n',
      'test/a.test.js':
        "const sign = require('../src/sign');\ntest('a', () => { expect(sign(1) + sign(-1)).toBe(0); });\n",
      'test/b.test.js':
        "const sign = require('../src/sign');\ntest('b', () => { expect(sign(0)).toBe(0); });\n",
      'test/c.test.js':
        "const sign = require('../src/sign');\ntest('c', () => { expect(sign(5)).toBe(1); });\n",
    });
  });
  afterAll(() => project.dispose());

  // Each case is one or more jest runs writing into one directory (a sharded CI job's shards, merged).
  test.each([
    ['two workers, no cache', [['-w', '2', '--no-cache']]],
    ['in band, cache on', [['--runInBand']]],
    ['in band, cache warm', [['--runInBand']]],
    [
      'two shards, two workers',
      [
        ['--shard=1/2', '-w', '2'],
        ['--shard=2/2', '-w', '2'],
      ],
    ],
  ])('%s: nothing lost, nothing counted twice', (name, runs) => {
    const out = project.path(`profiles-${name.replace(/\W+/g, '-')}`);
    for (const args of runs) {
      const run = spawnSync(process.execPath, [jestBin, '--config', 'jest.config.js', ...args], {
        cwd: project.root,
        env: { ...process.env, PATHPROF_DIR: out },
        encoding: 'utf8',
      });
      expect(run.status).toBe(0);
    }
    const { profiles, errors } = readProfileDirectory(out);
    expect(errors).toEqual([]);
    expect(profiles).toHaveLength(3);
    const [file] = mergeProfiles(profiles);
    expect(decodedCounts(file).sign).toEqual({
      'entry true return': 2,
      'entry false true return': 1,
      'entry false false return': 1,
    });
  });
});

const sign = 'module.exports = function sign(x) { if (x > 0) return 1; if (x < 0) return -1; return 0; };\n';

/**
 * The setup file in every kind of test environment: jest's node and jsdom environments and a project's own
 * each write every test file's counts, code run by a file's top-level afterAll included; the global setup
 * makes each jest command a run of its own.
 */
(built ? describe : describe.skip)('babel-plugin-pathprof/jest-setup in any test environment', () => {
  let project: ScratchProject;
  const config = (environment: string, extra = '') => `module.exports = {
  rootDir: __dirname,
  testEnvironment: ${JSON.stringify(environment)},
  transform: { '\\\\.js$': 'babel-jest' },
  cacheDirectory: __dirname + '/.jest-cache',
${extra}};
`;
  const setup = `  globalSetup: 'babel-plugin-pathprof/jest-global-setup',
  setupFilesAfterEnv: ['babel-plugin-pathprof/jest-setup'],
`;
  beforeAll(() => {
    project = new ScratchProject({
      // The environment module is the project's code too (jest transforms it): profile src/ only.
      'babel.config.js': "module.exports = { plugins: [['pathprof', { include: ['src/**'] }]] };\n",
      'jest.node.config.js': config('node', setup),
      'jest.jsdom.config.js': config('jsdom', setup),
      'jest.custom.config.js': config('<rootDir>/custom-environment.js', setup),
      'jest.bare-jsdom.config.js': config('jsdom'),
      // Only lazy/d.lazy.js (not a test file of the other configs): it loads the instrumented code inside its test.
      'jest.bare-lazy.config.js': config('node', "  testMatch: ['**/lazy/*.lazy.js'],\n"),
      'lazy/d.lazy.js': "test('d', () => { expect(require('../src/sign')(2)).toBe(1); });\n",
      // The project's own setup file first, as a project appending ours to its list has it.
      'jest.setup-after.config.js': config(
        'jsdom',
        "  setupFilesAfterEnv: ['<rootDir>/test/setup.js', 'babel-plugin-pathprof/jest-setup'],\n",
      ),
      'test/setup.js': "const sign = require('../src/sign');\nsign(3);\n",
      // jest runs setupFiles before its test framework (no hooks yet), then ours among setupFilesAfterEnv.
      'jest.setup-files.config.js': config('node', `  setupFiles: ['<rootDir>/test/setup.js'],\n${setup}`),
      // A project's own environment: not jest-environment-node's class, a global of its own.
      'custom-environment.js': `const { TestEnvironment } = require('jest-environment-jsdom');
module.exports = class ShopEnvironment extends TestEnvironment {
  async setup() { await super.setup(); this.global.shopName = 'corner shop'; }
};
`,
      'src/sign.js': sign,
      'test/a.test.js':
        "const sign = require('../src/sign');\ntest('a', () => { expect(sign(1) + sign(-1)).toBe(0); });\n",
      'test/b.test.js':
        "const sign = require('../src/sign');\ntest('b', () => { expect(sign(0)).toBe(0); });\n",
      // Counted after the test, in the file's last hook: still written.
      'test/c.test.js':
        "const sign = require('../src/sign');\ntest('c', () => { expect(sign(5)).toBe(1); });\nafterAll(() => { sign(-7); });\n",
    });
  });
  afterAll(() => project.dispose());

  const jest = (configFile: string, out: string, args: string[] = [], env: NodeJS.ProcessEnv = {}) => {
    const run = spawnSync(process.execPath, [jestBin, '--config', configFile, ...args], {
      cwd: project.root,
      env: { ...process.env, PATHPROF_DIR: out, ...env },
      encoding: 'utf8',
    });
    expect(run.status).toBe(0);
    return run;
  };
  const counts = (out: string) => {
    const { profiles, errors } = readProfileDirectory(out);
    expect(errors).toEqual([]);
    const merged = mergeProfiles(profiles);
    expect(merged).toHaveLength(1);
    return decodedCounts(merged[0]).sign;
  };
  const exact = { 'entry true return': 2, 'entry false true return': 2, 'entry false false return': 1 };

  test.each([['node'], ['jsdom'], ['custom']])(
    '%s environment: every test file written, exact counts, no warning',
    (environment) => {
      const out = project.path(`profiles-${environment}`);
      const run = jest(`jest.${environment}.config.js`, out, ['-w', '2', '--no-cache']);
      expect(run.stderr).not.toContain('pathprof:');
      expect(readProfileDirectory(out).profiles).toHaveLength(3);
      expect(counts(out)).toEqual(exact);
    },
  );

  test('a second run replaces the first; PATHPROF_ACCUMULATE=1 adds to it', () => {
    const out = project.path('profiles-rerun');
    jest('jest.jsdom.config.js', out, ['--runInBand']);
    jest('jest.jsdom.config.js', out, ['--runInBand']);
    // The second run's 3 profiles, run.json and the second run's metadata file of the one source file.
    const names = readdirSync(out).filter((n) => n.endsWith('.json'));
    expect(names.filter((n) => !isMetadataFile(n))).toHaveLength(3 + 1);
    expect(names.filter(isMetadataFile)).toEqual([
      expect.stringContaining(`pathprof-${currentRun(out)}-meta-`),
    ]);
    expect(counts(out)).toEqual(exact);
    jest('jest.jsdom.config.js', out, ['--runInBand'], { PATHPROF_ACCUMULATE: '1' });
    expect(counts(out)).toEqual(Object.fromEntries(Object.entries(exact).map(([k, n]) => [k, 2 * n])));
  });

  test('after a source edit the new run is reported, the old profiles are gone', () => {
    const out = project.path('profiles-edit');
    jest('jest.node.config.js', out, ['--runInBand']);
    writeFileSync(project.path('src/sign.js'), `// edited\n${sign}`);
    try {
      jest('jest.node.config.js', out, ['--runInBand']);
      const { profiles } = readProfileDirectory(out);
      expect(new Set(profiles.flatMap((p) => p.files.map((f) => f.hash))).size).toBe(1);
      expect(counts(out)).toEqual(exact);
    } finally {
      writeFileSync(project.path('src/sign.js'), sign);
    }
  });

  // tippy.js's setup file imports the library before pathprof's setup file has run.
  test("a project's setup file listed before ours runs instrumented code: no warning, its counts written", () => {
    const out = project.path('profiles-setup-after');
    const run = jest('jest.setup-after.config.js', out, ['--runInBand', '--no-cache']);
    expect(run.stderr).not.toContain('pathprof:');
    expect(counts(out)).toEqual({ ...exact, 'entry true return': exact['entry true return'] + 3 });
  });

  test('a setupFiles file runs instrumented code before the test framework: no warning, its counts written', () => {
    const out = project.path('profiles-setup-files');
    const run = jest('jest.setup-files.config.js', out, ['--runInBand', '--no-cache']);
    expect(run.stderr).not.toContain('pathprof:');
    expect(counts(out)).toEqual({ ...exact, 'entry true return': exact['entry true return'] + 3 });
  });

  test('an environment that writes nothing says so on stderr, once per process, with what to add', () => {
    const out = project.path('profiles-bare');
    const run = jest('jest.bare-jsdom.config.js', out, ['--runInBand', '--no-cache']);
    const warnings = run.stderr.split('\n').filter((l) => l.startsWith('pathprof:'));
    expect(warnings).toEqual([
      "pathprof: instrumented code (src/sign.js) runs in a jest test environment that writes no profile, so its counts are lost: add setupFilesAfterEnv: ['babel-plugin-pathprof/jest-setup'] to the jest config (any testEnvironment), or use testEnvironment: babel-plugin-pathprof/jest-environment",
    ]);
    expect(existsSync(out)).toBe(false);
  });

  // jest fails a test that adds a hook (its error is not thrown where it could be caught): no waiting then.
  test('code first loaded inside a test that writes nothing: the test passes, the warning comes at once', () => {
    const out = project.path('profiles-bare-lazy');
    const run = jest('jest.bare-lazy.config.js', out, ['--runInBand', '--no-cache']);
    expect(run.stderr).toContain('Tests:       1 passed, 1 total');
    expect(run.status).toBe(0);
    const warnings = run.stderr.split('\n').filter((l) => l.startsWith('pathprof:'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(
      'pathprof: instrumented code (src/sign.js) runs in a jest test environment that writes no profile',
    );
  });
});
