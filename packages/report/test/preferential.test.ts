import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PathReport } from '../src';
import { formatResidual, type ResidualReport } from '../src/preferential-report';
import { TerminalStyle } from '../src/terminal-style';
import { built, fixtures, reportIn } from './support/runs';

// Four jest runs of the example project and the CLI: seconds alone, longer beside the whole suite.
jest.setTimeout(240_000);

const jestBin = require.resolve('jest/bin/jest');

/** `file:function#path` → count, of every executed path in a json report; `residual` marks those outside the set. */
function executed(report: PathReport, which: (residual: boolean | undefined) => boolean = () => true) {
  const out: Record<string, number> = {};
  for (const file of report.files)
    for (const fn of file.functions)
      for (const path of fn.paths)
        if (which(path.residual)) out[`${file.file}:${fn.name}#${path.id}`] = path.count;
  return out;
}

/**
 * The CI use case on the example shop: run A (path mode, the cart tests only) gives the interesting set; run
 * B (every test) in preferential mode against it counts exactly what run B in path mode counts, the
 * interesting paths in their arrays; its residual paths are exactly those B took and A did not.
 */
(built ? describe : describe.skip)('preferential mode on the example shop', () => {
  // Inside the repository, so that the project resolves babel-plugin-pathprof as the fixture does.
  const base = join(fixtures, '..', 'tmp');
  mkdirSync(base, { recursive: true });
  const root = mkdtempSync(join(base, 'ppp-shop-'));
  const shop = join(root, 'shop');
  const json = (dir: string) => JSON.parse(reportIn(shop, ['json', dir]).stdout) as PathReport;
  const runJest = (dir: string, env: NodeJS.ProcessEnv, args: string[] = []) => {
    const run = spawnSync(process.execPath, [jestBin, '--ci', '--no-cache', ...args], {
      cwd: shop,
      env: { ...process.env, PATHPROF_DIR: join(root, dir), ...env },
      encoding: 'utf8',
    });
    if (run.status !== 0) throw new Error(`jest failed:\n${run.stderr}`);
    return run.stderr;
  };
  beforeAll(() => {
    cpSync(join(fixtures, 'js-shop'), shop, { recursive: true });
    writeFileSync(
      join(shop, 'babel.config.js'),
      "module.exports = { plugins: [['pathprof', process.env.PPP ? { mode: 'preferential', interesting: 'interesting.json' } : {}]] };\n",
    );
    runJest('a', {}, ['test/cart.test.js']);
    runJest('b-path', {});
    const prefer = reportIn(shop, ['prefer', '--covered', '-o', 'interesting.json', join(root, 'a')]);
    expect(prefer.stderr).toBe(
      'pathprof-report: wrote interesting.json: 10 interesting paths of 7 functions in 2 files (covered)\n',
    );
    runJest('b-ppp', { PPP: '1' });
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  test('every path counts as in path mode; the interesting ones are exactly those run A took', () => {
    const a = executed(json(join(root, 'a')));
    const bPath = executed(json(join(root, 'b-path')));
    const bPpp = json(join(root, 'b-ppp'));
    expect(executed(bPpp)).toEqual(bPath);
    const interesting = executed(bPpp, (residual) => residual === false);
    const residual = executed(bPpp, (r) => r === true);
    expect(Object.keys(interesting).length + Object.keys(residual).length).toBe(Object.keys(bPath).length);
    for (const path of Object.keys(interesting)) expect([path, path in a]).toEqual([path, true]);
    expect(Object.keys(residual).sort()).toEqual(
      Object.keys(bPath)
        .filter((p) => !(p in a))
        .sort(),
    );
    // A ran priceOf on known products only; B's catalog tests also look up mango and caviar, which throw.
    expect(Object.keys(residual).filter((p) => p.includes(':priceOf#'))).toHaveLength(1);
    expect(Object.values(residual)).toContain(2);
    const fn = bPpp.files
      .find((f) => f.file === 'src/catalog.js')!
      .functions.find((f) => f.name === 'priceOf')!;
    expect(fn.preferential).toEqual({
      status: 'compared',
      interestingPaths: 1,
      counters: 1,
      residualPaths: 1,
    });
  });

  test('residual lists the new paths decoded, and --check fails on them', () => {
    const run = reportIn(shop, ['residual', '--check', join(root, 'b-ppp')]);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain(
      'Residual paths: taken by this run, not in the interesting set (interesting.json)',
    );
    expect(run.stdout).toContain(
      [
        'src/catalog.js:3 priceOf: 1 residual of 2 executed paths (1 interesting)',
        '  path 1  ×2  entry → a throw',
      ].join('\n'),
    );
    expect(run.stdout).toContain(
      'src/catalog.js:27 shippingZone: 3 residual of 3 executed paths (0 interesting)',
    );
    expect(run.stdout).toMatch(/\n10 residual paths in 3 functions\n$/);
  });

  test("html: residual paths marked, each function's standing to its set, the run's total on the index", () => {
    const site = join(root, 'html');
    expect(reportIn(shop, ['html', join(root, 'b-ppp'), '-o', site]).status).toBe(0);
    expect(readFileSync(join(site, 'index.html'), 'utf8')).toContain(
      '<p class="preferential">Preferential: 10 residual paths (outside the interesting set) in 3 of 7 functions;',
    );
    const catalog = readFileSync(join(site, 'src_catalog.js.html'), 'utf8');
    const priceOf = catalog.slice(
      catalog.indexOf('>priceOf</a>'),
      catalog.indexOf('</section>', catalog.indexOf('>priceOf</a>')),
    );
    expect(priceOf).toContain(
      '<p class="preferential residual">Preferential: 1 residual path (taken, not in the interesting set of 1)</p>',
    );
    // The unknown products' throw is residual; the known ones' return is in the set.
    const items = [...priceOf.matchAll(/<li class="path ([\w ]+)"[^>]*>(path \d+ \([^)]*\))/g)].map((m) => [
      m[1],
      m[2],
    ]);
    expect(items.filter(([kind]) => kind.startsWith('executed'))).toEqual([
      ['executed', 'path 2 (×5)'],
      ['executed residual', 'path 1 (×2, residual)'],
    ]);
  });

  test('a function edited since the set was made is counted in path mode, warned about, and not compared', () => {
    const cart = join(shop, 'src', 'cart.js');
    writeFileSync(
      cart,
      readFileSync(cart, 'utf8').replace('if (!coupon) return 0;', 'if (coupon == null) return 0;'),
    );
    const stderr = runJest('b-edited', { PPP: '1' });
    expect(stderr).toContain(
      'pathprof: src/cart.js: changed since interesting.json was made, so counted in path mode (no residual paths): discount (line 13)',
    );
    const run = reportIn(shop, ['residual', join(root, 'b-edited')]);
    expect(run.stdout).toContain(
      'src/cart.js:13 discount: changed since the interesting set was made (counted in path mode); 3 paths executed',
    );
    // total, unchanged, keeps its set.
    expect(run.stdout).not.toContain('total:');
    const report = json(join(root, 'b-edited'));
    const discount = report.files[0].functions.find((f) => f.name === 'discount')!;
    expect(discount.preferential).toEqual({
      status: 'changed',
      interestingPaths: 0,
      counters: 0,
      residualPaths: 0,
    });
    expect(discount.paths.map((p) => [p.count, p.residual])).toEqual([
      [2, undefined],
      [1, undefined],
      [1, undefined],
    ]);
  });
});

test('residual: counts of one are singular (1 residual of 1 executed path, 1 path executed)', () => {
  const path = { id: 0, count: 1, decisions: [], description: '' };
  const fn = { file: 'a.js', line: 1, executedPaths: 1, interestingPaths: 0 };
  const text = formatResidual(
    {
      sets: ['interesting.json'],
      functions: [
        { ...fn, name: 'f', status: 'compared', residual: [path] },
        { ...fn, name: 'g', status: 'unlisted', residual: [] },
      ],
      residualPaths: 1,
    } as unknown as ResidualReport,
    new TerminalStyle({}, { NO_COLOR: '1' }),
    10,
  );
  expect(text).toContain('a.js:1 f: 1 residual of 1 executed path (0 interesting)');
  expect(text).toContain(
    'a.js:1 g: not in the interesting set (new, or its file did not run in the baseline); 1 path executed',
  );
  expect(text).toMatch(/^1 residual path in 1 function; 1 function not compared$/m);
});
