import { describeSeededBatches } from '@pathprof/testkit';
import { checkTraceOnProgram } from './support/random-programs';

describe('tracing oracle on generated programs, half 1', () => describeSeededBatches(1, checkTraceOnProgram));
