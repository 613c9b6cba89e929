import { describeGeneratedPrograms } from './support/random-programs';

describe('tracing oracle on generated programs, half 0', () => describeGeneratedPrograms(0));
