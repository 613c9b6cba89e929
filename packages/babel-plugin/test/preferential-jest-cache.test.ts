import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ScratchProject } from './support/scratch-project';

const built = existsSync(join(__dirname, '..', 'dist', 'index.js'));
const jestBin = require.resolve('jest/bin/jest');
const reportBin = join(__dirname, '..', '..', 'report', 'bin', 'pathprof-report.js');
// Each test starts several jest processes: seconds alone, much longer beside the rest of the suite.
jest.setTimeout(180_000);

/**
 * A project whose tests call sign(1): babel.config.js picks preferential mode when PPP is set, jest.config.js
 * the transform in TRANSFORM (default babel-jest), with a cache directory of its own.
 */
function project(): ScratchProject {
  return new ScratchProject({
    'babel.config.js': `module.exports = {
  plugins: [['pathprof', process.env.PPP ? { mode: 'preferential', interesting: 'interesting.json' } : {}]],
};
`,
    'jest.config.js': `const transform = process.env.TRANSFORM || 'babel-jest';
module.exports = {
  rootDir: __dirname,
  globalSetup: 'babel-plugin-pathprof/jest-global-setup',
  setupFilesAfterEnv: ['babel-plugin-pathprof/jest-setup'],
  transform: { '\\\\.js$': transform },
  cacheDirectory: __dirname + '/.jest-cache/' + transform.replace(/\\W/g, '-'),
};
`,
    'src/sign.js':
      'module.exports = function sign(x) { if (x > 0) return 1; if (x < 0) return -1; return 0; };\n',
    'test/sign.test.js':
      "const sign = require('../src/sign');\ntest('sign', () => { expect(sign(1)).toBe(1); });\n",
  });
}

function run(p: ScratchProject, command: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(process.execPath, [command, ...args], {
    cwd: p.root,
    env: { ...process.env, NO_COLOR: '1', GITHUB_ACTIONS: '', PATHPROF_DIR: '', ...env },
    encoding: 'utf8',
  });
  return { status: result.status, out: `${result.stdout}${result.stderr}` };
}

/**
 * The interesting set's content in jest's transform cache key: a path-mode run gives two sets, one with no
 * path (`--hot 0`) and one with the run's paths (`--covered`). Per transform, a preferential run against the
 * empty set (sign's one path is residual), then against the covered set with the cache warm. With
 * babel-plugin-pathprof/jest-transform the new set re-instruments (no residual path); with plain babel-jest
 * the cached build keeps the old set, which `residual` detects and refuses.
 */
(built ? describe : describe.skip)('an interesting set under jest’s transform cache', () => {
  const p = built ? project() : null!;
  const jest = (env: NodeJS.ProcessEnv) => {
    const r = run(p, jestBin, ['--ci', '--runInBand'], env);
    expect([r.status, r.out]).toEqual([0, expect.any(String)]);
  };
  beforeAll(() => {
    jest({});
    expect(run(p, reportBin, ['prefer', '--hot', '0', '-o', 'empty.json']).status).toBe(0);
    expect(run(p, reportBin, ['prefer', '--covered', '-o', 'covered.json']).status).toBe(0);
  });
  afterAll(() => p?.dispose());

  test.each([
    ['babel-plugin-pathprof/jest-transform', true],
    ['babel-jest', false],
  ])('with %s, a changed set re-instruments: %s', (transform, reinstruments) => {
    writeFileSync(p.path('interesting.json'), readFileSync(p.path('empty.json')));
    jest({ PPP: '1', TRANSFORM: transform });
    if (reinstruments) {
      const before = run(p, reportBin, ['residual', '--check']);
      expect(before.status).toBe(1);
      expect(before.out).toContain('src/sign.js:1 sign: 1 residual of 1 executed path (0 interesting)');
    }

    // The set of the path-mode run's paths replaces the empty one, in place (as CI would write it).
    writeFileSync(p.path('interesting.json'), readFileSync(p.path('covered.json')));
    jest({ PPP: '1', TRANSFORM: transform });
    const after = run(p, reportBin, ['residual', '--check']);
    if (reinstruments) {
      expect([after.status, after.out]).toEqual([
        0,
        expect.stringContaining('0 residual paths in 0 functions'),
      ]);
    } else {
      expect(after.status).toBe(2);
      expect(after.out).toContain(
        'src/sign.js: instrumented against another version of interesting.json than its current one',
      );
    }
  });
});
