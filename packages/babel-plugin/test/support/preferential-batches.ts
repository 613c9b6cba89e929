import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeSeededBatches } from '@pathprof/testkit';
import { checkPreferentialOnProgram, type PreferentialTally } from './preferential-on-program';

/** Generated programs checked in preferential mode per test run, in two halves (two test files, two workers). */
const PROGRAMS = 400;

/**
 * Declares the batches of one half (see `checkPreferentialOnProgram`), then a test that they exercised every
 * case: interesting and residual paths, interesting paths dropped beyond a capped array, functions changed
 * since the set was made and functions it does not list.
 */
export function describePreferentialBatches(half: 0 | 1): void {
  const dir = mkdtempSync(join(tmpdir(), 'pathprof-ppp-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const tally: PreferentialTally = { interesting: 0, residual: 0, dropped: 0, changed: 0, unlisted: 0 };
  describeSeededBatches(
    half,
    (seed) => checkPreferentialOnProgram(seed, join(dir, 'interesting.json'), tally),
    PROGRAMS,
  );
  test('the programs exercised every case', () => {
    for (const [what, n] of Object.entries(tally)) expect([what, n > 0]).toEqual([what, true]);
  });
}
