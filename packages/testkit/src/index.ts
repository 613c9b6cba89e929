export { Random, caseCount, baseSeed } from './random';
export { FIXTURE_DIR, listFixtures, writeExpected, type Fixture } from './fixture-file';
export { runScript, describe as describeValue, type ScriptRun } from './run-script';
export { toScript } from './to-script';
export { generateProgram, type GeneratedProgram, type ProgramOptions } from './generator/program-generator';
export { runPlain, TIMEOUT, describeError, type RunResult, type RunOptions } from './generator/run-plain';
export { CONSTRUCTS, type Construct } from './generator/context';
export { describeSeededBatches, GENERATED_PROGRAMS, GENERATED_SEED, propertyInputs } from './seeded-batches';
