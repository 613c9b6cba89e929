import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * A fixed sample of tc39/test262 (test/language and test/built-ins) through the conformance runner
 * (scripts/conformance/run.mjs), in path and edge modes and in the tracing oracle's (trace): every scenario must
 * have the plain run's outcome or be a documented exception, something must be instrumented and counted
 * (profiles written; traced scenarios that reported events). It needs a checkout named
 * by `PATHPROF_TEST262=DIR`; without one it is skipped, saying so.
 */
const root = resolve(__dirname, '..', '..', '..', '..');
const checkout = process.env.PATHPROF_TEST262 ?? '';
const present = checkout !== '' && existsSync(join(checkout, 'harness', 'assert.js'));
const SAMPLE = 150;

if (!present) {
  test.skip(`test262 sample skipped: ${checkout ? `no test262 checkout at ${checkout}` : 'PATHPROF_TEST262 is not set'} (set PATHPROF_TEST262=DIR; README, "Conformance")`, () => {});
} else {
  test(
    `${SAMPLE} test262 files of ${checkout} behave the same instrumented (path, edge and trace modes)`,
    () => {
      const out = mkdtempSync(join(tmpdir(), 'pathprof-test262-'));
      try {
        const json = join(out, 'report.json');
        const run = spawnSync(
          process.execPath,
          [
            join(root, 'scripts', 'conformance', 'run.mjs'),
            ...[
              '--test262',
              checkout,
              '--sample',
              String(SAMPLE),
              '--mode',
              'path',
              '--mode',
              'edge',
              '--mode',
              'trace',
            ],
            ...['--out', out, '--json', json],
          ],
          { encoding: 'utf8' },
        );
        expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
        const report = JSON.parse(readFileSync(json, 'utf8'));
        expect(report.files).toBe(SAMPLE);
        for (const mode of ['path', 'edge', 'trace']) {
          const m = report.modes[mode];
          expect({ mode, unexplained: m.unexplained, crashed: m.crashed }).toEqual({
            mode,
            unexplained: 0,
            crashed: 0,
          });
          expect(m.scenarios).toBeGreaterThan(SAMPLE);
          expect(m.instrumented).toBeGreaterThan(SAMPLE);
          expect(m.profiles).toBeGreaterThan(SAMPLE);
        }
      } finally {
        rmSync(out, { recursive: true, force: true });
      }
    },
    20 * 60_000,
  );
}
