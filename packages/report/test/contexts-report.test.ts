import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { Problems, TerminalStyle } from '../src';
import { contextTree } from '../src/context-tree';
import { formatContextTree } from '../src/contexts-report';
import { launchChromium } from './support/chromium';
import { profileInProcess } from './support/in-process';
import { built, fixtures, reportIn } from './support/runs';

// A jest run of the example shop, the CLI and chromium: seconds alone, longer beside the whole suite.
jest.setTimeout(120_000);

/**
 * The example shop's own jest tests with `contexts: true` (paths per calling context), as a user would turn
 * it on, reported in every form. The counts are the calls its tests make, worked out by hand: `total` runs 3
 * times from the tests, each calling `discount` (a call known statically, line 10) and `priceOf` (another
 * file: a push) for every line with a quantity (apple, bread; none; cheese); `parseOrder` calls `priceOf` at
 * line 18 for apple, mango (it throws) and bread; the tests call `priceOf` (caviar, throws) and `discount`
 * once themselves, `shippingZone` 3 times through `map`; cart.js loads catalog.js.
 */
/** A copy of the example shop, its jest tests run with the plugin's `options` (and `env`); returns its directory. */
function shopRun(options: object, env: NodeJS.ProcessEnv = {}): string {
  const root = join(__dirname, '..', '..', '..');
  const project = mkdtempSync(join(tmpdir(), 'pathprof-contexts-'));
  // Not the fixture's own node_modules (a mocha run leaves @babel/register's cache there): the repository's.
  const notModules = (from: string) => basename(from) !== 'node_modules';
  cpSync(join(fixtures, 'js-shop'), project, { recursive: true, filter: notModules });
  writeFileSync(
    join(project, 'babel.config.js'),
    `module.exports = { plugins: [['pathprof', ${JSON.stringify(options)}]] };\n`,
  );
  symlinkSync(join(root, 'node_modules'), join(project, 'node_modules'), 'dir');
  const run = spawnSync(process.execPath, [require.resolve('jest/bin/jest'), '--ci', '--no-cache'], {
    cwd: project,
    env: { ...process.env, PATHPROF_DIR: join(project, '.pathprof'), ...env },
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`jest failed:\n${run.stderr}`);
  return project;
}

/** The project's HTML report written, its calling-context page open in chromium for `check`. */
async function onFlameGraph(project: string, check: (page: Page) => Promise<void>): Promise<void> {
  const site = join(project, 'site');
  expect(reportIn(project, ['html', '-o', site]).status).toBe(0);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    await page.goto(pathToFileURL(join(site, 'index.html')).href);
    await page.click('text=Calling contexts');
    await check(page);
  } finally {
    await browser.close();
  }
}

(built ? describe : describe.skip)('calling contexts of the example shop', () => {
  let project: string;
  beforeAll(() => {
    // Told apart by test: paths per context name their tests (the other describe checks contexts alone).
    project = shopRun({ contexts: true }, { PATHPROF_TEST_NAMES: '1' });
  });
  afterAll(() => rmSync(project, { recursive: true, force: true }));
  const report = (args: string[]) => reportIn(project, args);

  test('contexts: the calling-context tree, hottest first, with exact call counts', () => {
    const run = report(['contexts']);
    expect(run.stderr).toBe('');
    expect(run.stdout.split('\n')).toEqual([
      'Calling contexts: 21 calls in 11 contexts of 2 files',
      '   calls    total  context',
      '       3        9  total  src/cart.js:4',
      '       3        3    discount  src/cart.js:13  ← L10',
      '       3        3    priceOf  src/catalog.js:3',
      '       1        4  parseOrder  src/catalog.js:10',
      '       3        3    priceOf  src/catalog.js:3  ← L18',
      '       3        3  shippingZone  src/catalog.js:27',
      '       1        2  <program>  src/cart.js:1',
      '       1        1    <program>  src/catalog.js:1',
      '       1        1  <program>  src/catalog.js:1',
      '       1        1  discount  src/cart.js:13',
      '       1        1  priceOf  src/catalog.js:3',
      '',
    ]);
  });

  test('contexts FILE:FUNCTION: its contexts only, with the paths it took in each', () => {
    const run = report(['contexts', 'src/catalog.js:priceOf']);
    expect(run.status).toBe(0);
    const lines = run.stdout.split('\n').map((l) => l.trimEnd());
    // Only called from parseOrder (mango) or by a test (caviar) does priceOf throw.
    expect(lines.slice(2)).toEqual([
      '       3        9  total  src/cart.js:4',
      '       3        3    priceOf  src/catalog.js:3',
      '                     path 2  ×3  entry → return',
      '                         L5 price === undefined → false',
      '                         L6 return price;',
      '       1        4  parseOrder  src/catalog.js:10',
      '       3        3    priceOf  src/catalog.js:3  ← L18',
      '                     path 2  ×2  entry → return',
      '                         L5 price === undefined → false',
      '                         L6 return price;',
      '                     path 1  ×1  entry → a throw',
      '                         L5 price === undefined → true',
      '                         L5 throw',
      '       1        1  priceOf  src/catalog.js:3',
      '                   path 1  ×1  entry → a throw',
      '                       L5 price === undefined → true',
      '                       L5 throw',
      '',
    ]);
    expect(report(['contexts', 'src/nowhere.js']).status).toBe(1);
  });

  test('folded: one line per context, as flame-graph tools read them', () => {
    expect(report(['folded']).stdout).toBe(
      [
        'total (src/cart.js:4) 3',
        'total (src/cart.js:4);discount (src/cart.js:13) 3',
        'total (src/cart.js:4);priceOf (src/catalog.js:3) 3',
        'parseOrder (src/catalog.js:10) 1',
        'parseOrder (src/catalog.js:10);priceOf (src/catalog.js:3) 3',
        'shippingZone (src/catalog.js:27) 3',
        '<program> (src/cart.js:1) 1',
        '<program> (src/cart.js:1);<program> (src/catalog.js:1) 1',
        '<program> (src/catalog.js:1) 1',
        'discount (src/cart.js:13) 1',
        'priceOf (src/catalog.js:3) 1',
        '',
      ].join('\n'),
    );
  });

  test("json carries the tree; the paths summed over contexts are path mode's counts", () => {
    const json = JSON.parse(report(['json']).stdout);
    expect(json.contexts).toMatchObject({ calls: 21, contexts: 11, cutCalls: 0 });
    expect(json.contexts.tree[1]).toEqual({
      function: 'parseOrder',
      location: 'src/catalog.js:10',
      callLine: null,
      calls: 1,
      total: 4,
      // Ball-Larus paths end at the loop's back edge: one activation, several paths.
      paths: [
        [1, 1],
        [3, 1],
        [5, 1],
        [7, 1],
        [8, 1],
        [26, 1],
      ],
      tests: [{ file: 'test/catalog.test.js', name: ['parses an order, reporting bad lines'], count: 1 }],
      children: [
        {
          function: 'priceOf',
          location: 'src/catalog.js:3',
          callLine: 18,
          calls: 3,
          total: 3,
          paths: [
            [2, 2],
            [1, 1],
          ],
          tests: [{ file: 'test/catalog.test.js', name: ['parses an order, reporting bad lines'], count: 3 }],
          children: [],
        },
      ],
    });
    // The same per-function figures as path mode alone (the example-project report test's numbers).
    const catalog = json.files.find((f: { file: string }) => f.file === 'src/catalog.js');
    const priceOf = catalog.functions.find((f: { name: string }) => f.name === 'priceOf');
    expect(priceOf.paths.map((p: { id: number; count: number }) => [p.id, p.count])).toEqual([
      [2, 5],
      [1, 2],
    ]);
    expect(report([]).stdout).toMatch(/^ {2}discount +13 +5 +3 +60\.0% +0\/5 +#0 ×2, #2 ×1, #8 ×1$/m);
  });

  test('show --tests: the tests that took each path, summed over its contexts', () => {
    const run = report(['show', 'src/catalog.js:priceOf', '--tests']);
    expect(run.stderr).toBe('');
    const lines = run.stdout.split('\n');
    const takenBy = (path: number) => {
      const at = lines.findIndex((l) => l.startsWith(`  path ${path} `));
      const end = lines.findIndex((l, i) => i > at && !l.startsWith('      '));
      return lines.slice(at + 1, end).filter((l) => !/^ {6}L\d/.test(l));
    };
    // Returns: apple and bread from the first cart test and from parseOrder, cheese from the coupon test.
    expect(takenBy(2)).toEqual([
      '      taken by: test/cart.test.js › total adds quantities times prices ×2',
      '                test/catalog.test.js › parses an order, reporting bad lines ×2',
      '                test/cart.test.js › percent coupons ×1',
    ]);
    // Throws: mango in parseOrder, caviar in the test of unknown products.
    expect(takenBy(1)).toEqual([
      '      taken by: test/catalog.test.js › parses an order, reporting bad lines ×1',
      '                test/catalog.test.js › unknown products throw ×1',
    ]);
  });

  test('html: the flame graph in chromium, a context selected down to a path on its file page', async () => {
    await onFlameGraph(project, async (page) => {
      expect(await page.locator('h1 + p').textContent()).toMatch(
        /Select one for its exact counts, the tests that entered it and the paths its function took there\.$/,
      );
      const titles = await page.locator('.bar title').allTextContents();
      expect(titles.map((t) => t.split('\n')[0])).toContain('parseOrder → priceOf');
      // The widest bar is the hottest root: total, 9 of the 21 calls.
      const widths = await page
        .locator('.bar rect')
        .evaluateAll((rects) => rects.map((r) => Number(r.getAttribute('width'))));
      expect(Math.max(...widths)).toBeCloseTo((9 / 21) * 1160 - 1, 0);
      const bar = page.locator('.bar', { has: page.locator('title', { hasText: 'parseOrder → priceOf' }) });
      await bar.click();
      expect(await bar.getAttribute('aria-pressed')).toBe('true');
      const detail = page.locator('#context-detail');
      expect(await detail.locator('.counts').textContent()).toBe(
        '3 calls in this context, 3 in it and below it',
      );
      expect(await detail.locator('li').allTextContents()).toEqual([
        'path 2 (×2): entry → return',
        'path 1 (×1): entry → a throw',
      ]);
      await detail.locator('a', { hasText: 'path 1' }).click();
      await page.waitForLoadState();
      expect(page.url()).toMatch(/src_catalog\.js\.html#/);
      const selected = page.locator('.path[aria-selected="true"]');
      expect(await selected.count()).toBe(1);
      expect(await selected.textContent()).toMatch(/^path 1 \(×2\): entry → a throw/);
      expect(await page.locator('#L5').getAttribute('class')).toContain('decision');
    });
  });
});

/**
 * The same tests counting calling contexts alone (`mode: 'contexts'`), told apart by test
 * (`PATHPROF_TEST_NAMES=1`): each context names the tests that entered it, worked out by hand from the tests
 * (cart.test.js: `total` from three tests, `discount` once itself; catalog.test.js: `parseOrder`, `priceOf`
 * and `shippingZone` each from one), the files' loading outside any test.
 */
(built ? describe : describe.skip)('calling contexts of the example shop, told apart by test', () => {
  let project: string;
  beforeAll(() => {
    project = shopRun({ mode: 'contexts' }, { PATHPROF_TEST_NAMES: '1' });
  });
  afterAll(() => rmSync(project, { recursive: true, force: true }));
  const report = (args: string[]) => reportIn(project, args);
  const cart = 'test/cart.test.js';
  const catalog = 'test/catalog.test.js';
  const adds = `${cart} › total adds quantities times prices`;
  const skips = `${cart} › total skips empty lines of the cart`;
  const percent = `${cart} › percent coupons`;

  test('text: no empty rows of paths, where the counts are instead', () => {
    const run = report([]);
    expect(run.status).toBe(0);
    expect(run.stdout.trimEnd()).toBe(
      "2 files counted calling contexts alone (mode: 'contexts'), no paths: `pathprof-report contexts` shows " +
        'their calling-context tree with exact call counts',
    );
  });

  test('contexts --tests: each context with the tests that entered it, as often as they did', () => {
    const run = report(['contexts', '--tests']);
    expect(run.stderr).toBe('');
    expect(run.stdout.split('\n').map((l) => l.trimEnd())).toEqual([
      'Calling contexts: 21 calls in 11 contexts of 2 files',
      '   calls    total  context',
      '       3        9  total  src/cart.js:4',
      `                   entered by: ${adds} ×1`,
      `                               ${skips} ×1`,
      `                               ${percent} ×1`,
      '       3        3    discount  src/cart.js:13  ← L10',
      `                     entered by: ${adds} ×1`,
      `                                 ${skips} ×1`,
      `                                 ${percent} ×1`,
      '       3        3    priceOf  src/catalog.js:3',
      `                     entered by: ${adds} ×2`,
      `                                 ${percent} ×1`,
      '       1        4  parseOrder  src/catalog.js:10',
      `                   entered by: ${catalog} › parses an order, reporting bad lines ×1`,
      '       3        3    priceOf  src/catalog.js:3  ← L18',
      `                     entered by: ${catalog} › parses an order, reporting bad lines ×3`,
      '       3        3  shippingZone  src/catalog.js:27',
      `                   entered by: ${catalog} › shipping zones ×3`,
      '       1        2  <program>  src/cart.js:1',
      `                   entered by: ${cart} (outside its tests) ×1`,
      '       1        1    <program>  src/catalog.js:1',
      `                     entered by: ${cart} (outside its tests) ×1`,
      '       1        1  <program>  src/catalog.js:1',
      `                   entered by: ${catalog} (outside its tests) ×1`,
      '       1        1  discount  src/cart.js:13',
      `                   entered by: ${cart} › fixed coupons apply above their minimum ×1`,
      '       1        1  priceOf  src/catalog.js:3',
      `                   entered by: ${catalog} › unknown products throw ×1`,
      '',
    ]);
  });

  test("json: every context's tests sum to its calls", () => {
    const json = JSON.parse(report(['json']).stdout);
    type Node = { calls: number; tests?: { count: number }[]; unattributedCount?: number; children: Node[] };
    const nodes: Node[] = [];
    const walk = (node: Node) => {
      nodes.push(node);
      node.children.forEach(walk);
    };
    json.contexts.tree.forEach(walk);
    expect(nodes).toHaveLength(11);
    for (const node of nodes) {
      expect(node.unattributedCount).toBeUndefined();
      expect(node.tests!.reduce((n, t) => n + t.count, 0)).toBe(node.calls);
    }
    expect(json.contexts.tree[0].tests).toEqual([
      { file: cart, name: ['total adds quantities times prices'], count: 1 },
      { file: cart, name: ['total skips empty lines of the cart'], count: 1 },
      { file: cart, name: ['percent coupons'], count: 1 },
    ]);
  });

  test('html: a context selected in the flame graph names the tests that entered it', async () => {
    await onFlameGraph(project, async (page) => {
      // Contexts alone: no paths to select.
      expect(await page.locator('h1 + p').textContent()).toMatch(
        /Select one for its exact counts and the tests that entered it\.$/,
      );
      const bar = page.locator('.bar', { has: page.locator('title', { hasText: /^total → priceOf\n/ }) });
      await bar.click();
      const detail = page.locator('#context-detail');
      expect(await detail.locator('.counts').textContent()).toBe(
        '3 calls in this context, 3 in it and below it',
      );
      expect(await detail.locator('.tests').textContent()).toBe(`Entered by: ${adds} ×2; ${percent} ×1`);
    });
  });
});

(built ? describe : describe.skip)('calling contexts of a program run in this process', () => {
  test('two calls of one function from one line are told apart by their columns', () => {
    const source = [
      'function area(s) { return s * s; }',
      'function larger(a, b) { return area(a) > area(b) ? a : b; }',
      'function twice(a) { return area(a) + 1; }',
      'larger(2, 3);',
      'twice(4);',
    ].join('\n');
    const file = profileInProcess(source, 'two-calls.js', { contexts: true });
    const tree = contextTree([file], new Problems());
    const style = new TerminalStyle({ isTTY: false }, {});
    const text = formatContextTree(tree, [file], () => false, style, 0);
    expect(text.split('\n').slice(2)).toEqual([
      '       1        6  <program>  virtual/two-calls.js:1',
      '       1        3    larger  virtual/two-calls.js:2  ← L4',
      '       1        1      area  virtual/two-calls.js:1  ← L2:32',
      '       1        1      area  virtual/two-calls.js:1  ← L2:42',
      '       1        2    twice  virtual/two-calls.js:3  ← L5',
      // The only call from its line among its siblings: the line says where.
      '       1        1      area  virtual/two-calls.js:1  ← L3',
    ]);
  });
});
