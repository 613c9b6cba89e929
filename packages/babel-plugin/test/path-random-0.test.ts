import { describeSeededBatches } from '@pathprof/testkit';
import { checkPathModeOnProgram } from './support/path-mode-on-program';

describe('path mode on generated programs, half 0', () => describeSeededBatches(0, checkPathModeOnProgram));
