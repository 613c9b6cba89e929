// A jest test environment that writes each test file's path counts when the file's context is torn down:
// instrumented code counts into the context's own globalThis, which no process exit hook can see.
// Use it with `testEnvironment: 'babel-plugin-pathprof/jest-environment'` (wraps jest-environment-node).
const { TestEnvironment } = require('jest-environment-node');
const { writeProfiles } = require('@pathprof/runtime');

class PathprofEnvironment extends TestEnvironment {
  async teardown() {
    const store = this.global.__pathprof__;
    if (store) writeProfiles(store);
    await super.teardown();
  }
}

module.exports = PathprofEnvironment;
module.exports.TestEnvironment = PathprofEnvironment;
