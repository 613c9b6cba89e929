import { describeGeneratedPrograms } from './support/random-programs';

describe('tracing oracle on generated programs, half 1', () => describeGeneratedPrograms(1));
