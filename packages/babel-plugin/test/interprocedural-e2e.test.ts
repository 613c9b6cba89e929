import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { getStore, mergeProfiles, readProfileDirectory } from '@pathprof/runtime';
import { runScript } from '@pathprof/testkit';
import { resetCounts, runtimeGlobals } from './support/counted-paths';
import { instrument } from './support/instrument';
import { ScratchProject } from './support/scratch-project';
import { launchChromium } from '../../report/test/support/chromium';

const built = existsSync(join(__dirname, '..', 'dist', 'index.js'));
const jestBin = require.resolve('jest/bin/jest');
const reportBin = join(__dirname, '..', '..', 'report', 'bin', 'pathprof-report.js');
jest.setTimeout(120_000);

const prices = `function round(x) {
  return Math.round(x * 100) / 100;
}
function discount(total, code) {
  if (code === 'HALF') return round(total / 2);
  if (code === 'TENOFF') return total > 10 ? round(total - 10) : 0;
  return total;
}
function checkout(items, code) {
  let total = 0;
  for (const item of items) total += round(item.price * item.quantity);
  return discount(total, code);
}
module.exports = { checkout };
`;
const calls = [
  [[{ price: 3.333, quantity: 3 }], 'HALF'],
  [[{ price: 20, quantity: 1 }], 'TENOFF'],
  [[{ price: 2, quantity: 2 }], 'TENOFF'],
  [[], null],
];

/**
 * What the README promises: `mode: 'interprocedural'` in babel.config.js, the project's jest suite (two
 * workers, three test files), then `pathprof-report calls` decodes the paths across calls. The merged counts
 * equal those of the same calls made in one process, which the tracing oracle checks elsewhere.
 */
(built ? describe : describe.skip)('interprocedural mode under jest, then pathprof-report calls', () => {
  let project: ScratchProject;
  beforeAll(() => {
    const test = (i: number) =>
      `const { checkout } = require('../src/prices');\ntest('checkout', () => { checkout(...${JSON.stringify(calls[i])}); });\n`;
    project = new ScratchProject({
      'babel.config.js': "module.exports = { plugins: [['pathprof', { mode: 'interprocedural' }]] };\n",
      'jest.config.js': `module.exports = {
  rootDir: __dirname,
  globalSetup: 'babel-plugin-pathprof/jest-global-setup',
  setupFilesAfterEnv: ['babel-plugin-pathprof/jest-setup'],
  transform: { '\\\\.js$': 'babel-jest' },
  cacheDirectory: __dirname + '/.jest-cache',
};
`,
      'src/prices.js': prices,
      'test/a.test.js': test(0),
      'test/b.test.js': test(1),
      'test/c.test.js': `${test(2)}test('empty', () => { require('../src/prices').checkout(...${JSON.stringify(calls[3])}); });\n`,
    });
  });
  afterAll(() => project.dispose());

  test('the counts are those of the same calls in one process; calls decodes them into source', async () => {
    const run = spawnSync(process.execPath, [jestBin, '--config', 'jest.config.js', '-w', '2'], {
      cwd: project.root,
      encoding: 'utf8',
    });
    expect(run.stderr).toContain('Tests:       4 passed');
    const { profiles, errors } = readProfileDirectory(project.path('.pathprof'));
    expect(errors).toEqual([]);
    expect(profiles.every((p) => p.format === 'pathprof-profile/2')).toBe(true);
    const [file] = mergeProfiles(profiles).filter((f) => f.key.endsWith('src/prices.js'));

    // The same module evaluations (one per test file) and calls, in this process.
    resetCounts();
    const code = instrument(prices, 'prices.js', { mode: 'interprocedural' });
    for (const perFile of [[calls[0]], [calls[1]], [calls[2], calls[3]]]) {
      const script = `var module = { exports: {} };\n${code}\nfor (const args of ${JSON.stringify(perFile)}) module.exports.checkout(...args);`;
      await runScript(script, 'prices.js', runtimeGlobals());
    }
    const record = getStore().files['virtual/prices.js'];
    const expected = record.hashed.length
      ? record.hashed[0].entries().sort((a, b) => a[0] - b[0])
      : [...record.counts].map((n, i): [number, number] => [i, n]).filter(([, n]) => n > 0);
    const counted = file.hashed.length ? file.hashed[0][1] : file.counts;
    expect(counted).toEqual(expected);

    const report = spawnSync(process.execPath, [reportBin, 'calls', 'src/prices.js:discount'], {
      cwd: project.root,
      encoding: 'utf8',
    });
    expect(report.status).toBe(0);
    const text = report.stdout;
    expect(text).toMatch(
      /: \d+ of the file's \d+ executed interprocedural paths run through discount \(piecewise scheme/,
    );
    expect(text).toMatch(/×\d+ {2}checkout → (round → )?discount/);
    expect(text).toMatch(/L12 → discount\(total, code\)/);
    expect(text).toMatch(/discount +L5 code === 'HALF' → true/);
    expect(text).toMatch(/← back from discount/);
    // Without a file: a summary of the project's paths through more than one function, a line each; a
    // mistyped function is a miss.
    const callsReport = (args: string[]) =>
      spawnSync(process.execPath, [reportBin, 'calls', ...args], { cwd: project.root, encoding: 'utf8' });
    const overview = callsReport([]);
    expect(overview.status).toBe(0);
    expect(overview.stdout).toMatch(/^1 file counted in interprocedural mode \(piecewise scheme\)/);
    expect(overview.stdout).toMatch(/\n {4}×\d+ {2}src\/prices\.js {2}path \d+ {2}checkout → /);
    // check has no path coverage percentage to hold these files to: it fails naming them rather than pass
    // having checked nothing.
    const check = spawnSync(process.execPath, [reportBin, 'check', '--paths', '0'], {
      cwd: project.root,
      encoding: 'utf8',
    });
    expect(check.status).toBe(1);
    expect(check.stderr).toContain(
      'pathprof: paths for "global" cannot be measured: src/prices.js was counted in interprocedural mode',
    );
    // diff compares per-function paths: it says these files are left out rather than '0 paths newly taken' alone.
    const diff = spawnSync(process.execPath, [reportBin, 'diff', '.pathprof', '.pathprof'], {
      cwd: project.root,
      encoding: 'utf8',
    });
    expect(diff.stderr).toContain(
      'pathprof-report: .pathprof: 1 file counted in interprocedural mode left out (no per-function paths to compare)',
    );
    const typo = callsReport(['src/prices.js:discont']);
    expect(typo.status).toBe(1);
    expect(typo.stderr).toBe(
      'pathprof-report: src/prices.js has no function discont (did you mean discount?)\n',
    );

    const json = JSON.parse(
      spawnSync(process.execPath, [reportBin, 'json'], { cwd: project.root, encoding: 'utf8' }).stdout,
    );
    const ipp = json.interproceduralFiles.find((f: { file: string }) => f.file === 'src/prices.js');
    expect(json.files.map((f: { file: string }) => f.file)).not.toContain('src/prices.js');
    expect(ipp.scheme).toBe('piecewise');
    expect(ipp.paths.reduce((n: number, p: { count: number }) => n + p.count, 0)).toBe(
      expected.reduce((n, [, c]) => n + c, 0),
    );
    expect(ipp.paths[0]).toEqual(
      expect.objectContaining({
        number: expect.any(Number),
        count: expect.any(Number),
        steps: expect.any(Array),
      }),
    );
    expect(readFileSync(project.path('src/prices.js'), 'utf8')).toBe(prices);

    // The HTML report draws the paths as call trees beside the source.
    const html = spawnSync(process.execPath, [reportBin, 'html', '-o', 'html'], {
      cwd: project.root,
      encoding: 'utf8',
    });
    expect(html.status).toBe(0);
    const page = readdirSync(project.path('html')).find((f) => f.includes('prices'))!;
    const site = readFileSync(project.path(`html/${page}`), 'utf8');
    expect(site).toContain('Paths across calls');
    expect(site).toMatch(
      /<ul class="call-tree">.*<li class="step call">(?:<span class="fn">checkout<\/span> )?<a href="#L12">L12<\/a> → discount\(total, code\)<\/li><li><ul class="call-tree"><li class="step decision"><span class="fn">discount<\/span>/s,
    );

    // In a browser: the call trees show, and a step's link brings its source line into view.
    const browser = await launchChromium();
    try {
      const tab = await browser.newPage({ viewport: { width: 1000, height: 600 } });
      await tab.goto(pathToFileURL(project.path(`html/${page}`)).href);
      const tree = tab.locator('.call-path', { hasText: 'checkout → discount' }).first();
      expect(await tree.isVisible()).toBe(true);
      await tree.locator('a[href="#L12"]').first().click();
      expect(new URL(tab.url()).hash).toBe('#L12');
      const line = await tab.locator('#L12').boundingBox();
      expect(line).not.toBeNull();
      expect(line!.y).toBeGreaterThanOrEqual(0);
      expect(line!.y).toBeLessThan(600);
      expect(await tab.locator('#L12').textContent()).toContain('return discount(total, code);');
    } finally {
      await browser.close();
    }
  });
});
