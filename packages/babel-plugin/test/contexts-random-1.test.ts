import { describeSeededBatches } from '@pathprof/testkit';
import { CONTEXT_VARIANTS, checkContextsOnProgram } from './support/contexts-on-program';
import { emptyContextStats } from './support/contexts-oracle';

const stats = emptyContextStats();
// Large generated functions are split at cut edges, which the build reports on stderr each time.
beforeAll(() => jest.spyOn(console, 'warn').mockImplementation(() => {}));

// Each program in one variant, in turn: contexts alone, paths per context, and paths per context with a budget
// so small that most calls push (checked against path mode too), a thousand programs a run for the cost of one.
describe('calling contexts on generated programs, half 1', () =>
  describeSeededBatches(1, (seed) => checkContextsOnProgram(seed, CONTEXT_VARIANTS[seed % 3], stats)));

test('the programs nest calls, recurse, suspend and resume, and throw out of frames', () => {
  expect(stats.nestedEntries).toBeGreaterThan(1000);
  expect(stats.recursiveEntries).toBeGreaterThan(100);
  expect(stats.resumptions).toBeGreaterThan(100);
  expect(stats.throwsOut).toBeGreaterThan(100);
});
