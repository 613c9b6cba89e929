import { describeSeededBatches } from '@pathprof/testkit';
import { checkEveryMode, emptyGeneratedProgramStats } from './support/generated-programs';
import { correlatedFunctions, impliedFunctions } from './support/path-mode-on-program';

// A quarter of the generated programs (the quarters are four files, so jest's workers share them).
const stats = emptyGeneratedProgramStats();
jest.setTimeout(60_000);

describe('every mode on generated programs, quarter 0', () =>
  describeSeededBatches(0, 4, (seed) => checkEveryMode(seed, {}, stats)));

// Handlers restarting after a crossed callee threw are rare here: the fixtures test asserts them.
test('the programs cross calls and throw out of crossed callees', () => {
  expect(stats.crossing.crossedEntries).toBeGreaterThan(500);
  expect(stats.crossing.crossedThrows).toBeGreaterThan(5);
});

test('preferential mode counted interesting, residual and dropped paths, and changed and unlisted functions', () => {
  for (const [what, n] of Object.entries(stats.preferential)) expect([what, n > 0]).toEqual([what, true]);
});

test('the programs nest calls, recurse, suspend and resume, and throw out of frames', () => {
  expect(stats.contexts.nestedEntries).toBeGreaterThan(10_000);
  expect(stats.contexts.recursiveEntries).toBeGreaterThan(1000);
  expect(stats.contexts.resumptions).toBeGreaterThan(1000);
  expect(stats.contexts.throwsOut).toBeGreaterThan(300);
});

test('functions with correlated conditions were checked: no run took an infeasible path, counted exactly', () => {
  expect(correlatedFunctions.size).toBeGreaterThan(100);
  // Among them, different tests of one value (`v == null` and `v`, `v === 1` and `v === 's'`): 58 of 312.
  expect(impliedFunctions.size).toBeGreaterThan(25);
});
