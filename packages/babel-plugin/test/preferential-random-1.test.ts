import { describePreferentialBatches } from './support/preferential-batches';

/**
 * Preferential mode on generated programs against random interesting sets: interesting counts and residual
 * paths equal those of the traced run (half 1).
 */
describe('preferential mode on generated programs, half 1', () => describePreferentialBatches(1));
