import { describeSeededBatches } from '@pathprof/testkit';
import { checkTraceOnProgram } from './support/random-programs';

describe('tracing oracle on generated programs, half 0', () => describeSeededBatches(0, checkTraceOnProgram));
