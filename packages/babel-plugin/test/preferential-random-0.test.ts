import { describePreferentialBatches } from './support/preferential-batches';

/**
 * Preferential mode on generated programs against random interesting sets: interesting counts and residual
 * paths equal those of the traced run (half 0).
 */
describe('preferential mode on generated programs, half 0', () => describePreferentialBatches(0));
