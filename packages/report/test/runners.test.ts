import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PathReport } from '../src';
import { servePage } from './support/browser-server';
import { launchChromium } from './support/chromium';
import { built, fixtures, profileDir, report, withProfileDir } from './support/runs';

// Each test starts processes (jest, the CLI, chromium): seconds alone, longer beside the whole suite.
jest.setTimeout(60_000);

function functionOf(json: PathReport, file: string, name: string) {
  return json.files.find((f) => f.file === file)!.functions.find((f) => f.name === name)!;
}

/** Path profiling outside jest: mocha with @babel/register, and a page in a real browser. */
(built ? describe : describe.skip)('other runners', () => {
  test('mocha with @babel/register: the runtime writes at exit, the report decodes it', () => {
    withProfileDir((out) => {
      const run = spawnSync(process.execPath, [require.resolve('mocha/bin/mocha.js')], {
        cwd: join(fixtures, 'js-shop'),
        env: { ...process.env, PATHPROF_DIR: out },
        encoding: 'utf8',
      });
      expect(run.status).toBe(0);
      const json = JSON.parse(report('js-shop', ['json', out]).stdout) as PathReport;
      expect(json.problems).toEqual([]);
      // shippingZone('US') and shippingZone('DE'): two calls, two paths; parseOrder once, one line.
      expect(functionOf(json, 'src/catalog.js', 'shippingZone')).toMatchObject({
        activations: 2,
        executedPaths: 2,
      });
      expect(functionOf(json, 'src/catalog.js', 'parseOrder')).toMatchObject({ activations: 1 });
    });
  });

  test('a page in headless chromium: counts read from the page, written as a profile, reported', async () => {
    const root = join(fixtures, 'browser-page');
    const { server, url } = await servePage(root);
    const browser = await launchChromium();
    const out = profileDir();
    try {
      const page = await browser.newPage();
      await page.goto(url);
      await page.locator('#password').pressSequentially('Passw0rd!');
      expect(await page.textContent('#strength')).toBe('strong');
      // What the runtime's snapshot(getStore()) gives: the page's counts as a profile.
      const profile = await page.evaluate(() => {
        const runtime = (globalThis as unknown as { pathprofRuntime: typeof import('@pathprof/runtime') })
          .pathprofRuntime;
        return runtime.snapshot(runtime.getStore());
      });
      mkdirSync(out, { recursive: true });
      writeFileSync(join(out, 'pathprof-browser.json'), JSON.stringify(profile));
      const json = JSON.parse(report('browser-page', ['json', out]).stdout) as PathReport;
      expect(json.problems).toEqual([]);
      // One call per key typed: 7 prefixes are short (weak), "Passw0rd" and "Passw0rd!" have 3+ kinds.
      const strength = functionOf(json, 'src/password.js', 'strength');
      expect(strength.activations).toBe(9);
      const returns = strength.paths.filter((p) => p.end === 'return');
      const byReturn = (code: string) =>
        returns
          .filter((p) => p.decisions.some((d) => d.code.startsWith(code)))
          .reduce((n, p) => n + p.count, 0);
      expect(byReturn("return 'weak'")).toBe(7);
      expect(byReturn("return kinds >= 3 ? 'strong' : 'fair'")).toBe(2);
    } finally {
      await browser.close();
      server.close();
      rmSync(out, { recursive: true, force: true });
    }
  });
});
