import { describeSeededBatches } from '@pathprof/testkit';
import { checkInterproceduralOnProgram } from './support/interprocedural-on-program';
import type { CrossingStats } from './support/interprocedural-oracle';

const stats: CrossingStats = { crossedEntries: 0, crossedThrows: 0, handlerRestarts: 0 };

// Each program in one scheme, alternating: both schemes see a thousand programs a run, at the cost of one. One
// program in four has a small path budget, so crossed calls are cut and functions' paths split to fit.
describe('interprocedural mode on generated programs, half 0', () =>
  describeSeededBatches(0, (seed) =>
    checkInterproceduralOnProgram(
      seed,
      stats,
      {},
      [seed % 2 === 0 ? 'piecewise' : 'context'],
      seed % 4 === 3 ? { maxPaths: 2 ** 16 } : {},
    ),
  ));

test('the programs cross calls, throw out of crossed callees and restart in handlers', () => {
  expect(stats.crossedEntries).toBeGreaterThan(1000);
  expect(stats.crossedThrows).toBeGreaterThan(10);
  expect(stats.handlerRestarts).toBeGreaterThan(0);
});
