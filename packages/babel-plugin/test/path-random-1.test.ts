import { describeSeededBatches } from '@pathprof/testkit';
import { checkPathModeOnProgram } from './support/path-mode-on-program';

// Every program in path mode, every other one in edge mode too (edge mode sees a thousand programs a run).
describe('path and edge mode on generated programs, half 1', () =>
  describeSeededBatches(1, (seed) => checkPathModeOnProgram(seed, {}, seed % 2 === 0)));
