// A jest test environment that writes each test file's path counts when the file's context is torn down:
// instrumented code counts into the context's own globalThis, which no process exit hook can see.
// Use it with `testEnvironment: 'babel-plugin-pathprof/jest-environment'` (wraps jest-environment-node); with
// any other environment, use the setup file `babel-plugin-pathprof/jest-setup` instead.
const { relative, sep } = require('node:path');
const { TestEnvironment } = require('jest-environment-node');
const runtime = require('@pathprof/runtime');

class PathprofEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    const store = runtime.getStore(this.global);
    store.writer = 'jest-environment';
    // The profile names its test file; with PATHPROF_TEST_NAMES=1 the counts are split by test too, at the
    // start and end jest-circus tells the environment.
    const byName = /^(1|true)$/i.test(process.env.PATHPROF_TEST_NAMES ?? '');
    if (context.testPath)
      runtime.attributeTests(store, relative(process.cwd(), context.testPath).split(sep).join('/'), byName);
  }

  async handleTestEvent(event) {
    if (event.name === 'test_start')
      runtime.testStarted(runtime.getStore(this.global), runtime.circusTestName(event.test));
    else if (event.name === 'test_done') runtime.testEnded(runtime.getStore(this.global));
  }

  async teardown() {
    runtime.writeProfiles(runtime.getStore(this.global));
    await super.teardown();
  }
}

module.exports = PathprofEnvironment;
module.exports.TestEnvironment = PathprofEnvironment;
