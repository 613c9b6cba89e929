// A jest test environment that writes each test file's path counts when the file's context is torn down:
// instrumented code counts into the context's own globalThis, which no process exit hook can see.
// Use it with `testEnvironment: 'babel-plugin-pathprof/jest-environment'` (wraps jest-environment-node); with
// any other environment, use the setup file `babel-plugin-pathprof/jest-setup` instead.
const { TestEnvironment } = require('jest-environment-node');
const { getStore, writeProfiles } = require('@pathprof/runtime');

class PathprofEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    getStore(this.global).writer = 'jest-environment';
  }

  async teardown() {
    writeProfiles(getStore(this.global));
    await super.teardown();
  }
}

module.exports = PathprofEnvironment;
module.exports.TestEnvironment = PathprofEnvironment;
