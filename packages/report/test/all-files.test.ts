import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { PathReport } from '../src';

const bin = join(__dirname, '..', 'bin', 'pathprof-report.js');

const built = existsSync(join(__dirname, '..', '..', 'babel-plugin', 'dist', 'index.js'));

const files: Record<string, string> = {
  'src/used.js': 'exports.sign = (x) => (x > 0 ? 1 : x < 0 ? -1 : 0);\n',
  'src/never.js': 'exports.max = function (a, b) {\n  if (a > b) return a;\n  return b;\n};\n',
  'src/deep/never.ts': 'export function pick(a: number | null): number {\n  return a ?? 0;\n}\n',
  'src/broken.js': 'exports.x = (;\n',
  'test/helper.js': 'exports.h = (x) => x || 1;\n',
  'main.js':
    "require('@babel/register')({ extensions: ['.js', '.ts'] });\nconst { sign } = require('./src/used');\nconsole.log(sign(2), sign(-2));\n",
};

/**
 * `all: true` in the plugin's options: the report also lists the files the config selects that no test loaded,
 * compiled with the project's own Babel config (TypeScript too), every path unexecuted; test files stay out,
 * a file that does not compile is named. Without it, only what ran is listed.
 */
(built ? describe : describe.skip)('all: files never loaded', () => {
  let root: string;
  beforeAll(() => {
    const base = join(__dirname, '..', '..', '..', 'tmp');
    mkdirSync(base, { recursive: true });
    root = mkdtempSync(join(base, 'all-'));
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, name)), { recursive: true });
      writeFileSync(join(root, name), text);
    }
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const run = (all: boolean) => {
    writeFileSync(
      join(root, 'babel.config.js'),
      `module.exports = { presets: ['@babel/preset-typescript'], env: { test: { plugins: [['pathprof', { all: ${all}, include: ['src/**'] }]] } } };\n`,
    );
    const out = join(root, `profiles-${all}`);
    const node = spawnSync(process.execPath, ['main.js'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, NODE_ENV: 'test', PATHPROF_DIR: out },
    });
    expect(node.stdout).toBe('1 -1\n');
    // The report in a process of its own, as a user runs it (Babel caches a config file for the process).
    const report = spawnSync(process.execPath, [bin, 'json', out], { cwd: root, encoding: 'utf8' });
    return { report: JSON.parse(report.stdout) as PathReport, stderr: report.stderr };
  };

  test('all: true lists the selected files no test loaded, with zero counts', () => {
    const { report, stderr } = run(true);
    expect(report.files.map((f) => [f.file, f.executedPaths])).toEqual([
      ['src/deep/never.ts', 0],
      ['src/never.js', 0],
      ['src/used.js', 3],
    ]);
    expect(report.files[1].functions.map((f) => [f.name, f.potentialPaths, f.activations])).toEqual([
      ['<program>', 1, 0],
      ['exports.max', 2, 0],
    ]);
    expect(stderr).toMatch(
      /^pathprof-report: src\/broken\.js: not loaded by the tests, and it does not compile for `all`: /m,
    );
  });

  test('without it, only the files that ran', () => {
    const { report, stderr } = run(false);
    expect(report.files.map((f) => f.file)).toEqual(['src/used.js']);
    expect(stderr).toBe('');
  });
});
