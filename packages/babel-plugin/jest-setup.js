// A jest setup file that writes the test file's path counts when the file has finished, in any test
// environment (node, jsdom, a custom one): `setupFilesAfterEnv: ['babel-plugin-pathprof/jest-setup']`.
// Instrumented code counts into the test file's own globalThis, which no process exit hook sees (jest gives
// each file a copy of `process` that never emits `exit`), so the counts are written from inside the file.
const { relative, sep } = require('node:path');
const {
  attributeTests,
  circusTestName,
  getStore,
  testEnded,
  testStarted,
  writeProfiles,
} = require('@pathprof/runtime');

const store = getStore();
store.writer = 'jest-setup';

function write() {
  try {
    writeProfiles(store);
  } catch (error) {
    throw new Error(`pathprof: could not write the profile: ${error.message}`);
  }
}

// jest-circus announces `run_finish` after every hook of the file, its top-level afterAll ones included (a
// setup file's own afterAll would run before those); other runners get an afterAll.
// The profile names its test file (`pathprof-report show --tests`); with PATHPROF_TEST_NAMES=1 the counts
// are split by test too: at jest-circus's test events, or (jest 29, whose circus hides them) in root-level
// hooks, which run first and last around each test's own.
const handlers = globalThis[Symbol.for('EVENT_HANDLERS')];
const testPath = globalThis.expect?.getState().testPath;
const byName = testPath !== undefined && /^(1|true)$/i.test(process.env.PATHPROF_TEST_NAMES ?? '');
if (testPath) attributeTests(store, relative(process.cwd(), testPath).split(sep).join('/'), byName);
if (Array.isArray(handlers)) {
  handlers.push((event) => {
    if (event.name === 'test_start') testStarted(store, circusTestName(event.test));
    else if (event.name === 'test_done') testEnded(store);
    else if (event.name === 'run_finish') write();
  });
} else {
  if (byName) {
    globalThis.beforeEach(() => testStarted(store, [globalThis.expect.getState().currentTestName]));
    globalThis.afterEach(() => testEnded(store));
  }
  globalThis.afterAll(write);
}
