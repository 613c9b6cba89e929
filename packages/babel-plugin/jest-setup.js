// A jest setup file that writes the test file's path counts when the file has finished, in any test
// environment (node, jsdom, a custom one): `setupFilesAfterEnv: ['babel-plugin-pathprof/jest-setup']`.
// Instrumented code counts into the test file's own globalThis, which no process exit hook sees (jest gives
// each file a copy of `process` that never emits `exit`), so the counts are written from inside the file.
const { getStore, writeProfiles } = require('@pathprof/runtime');

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
const handlers = globalThis[Symbol.for('EVENT_HANDLERS')];
if (Array.isArray(handlers)) {
  handlers.push((event) => {
    if (event.name === 'run_finish') write();
  });
} else {
  globalThis.afterAll(write);
}
