import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { mergeProfiles, readProfileDirectory } from '@pathprof/runtime';
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
