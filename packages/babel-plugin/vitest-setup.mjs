// A Vitest setup file, beside the provider `babel-plugin-pathprof/vitest`:
//   test: { setupFiles: ['babel-plugin-pathprof/vitest-setup'] }
// With PATHPROF_TEST_NAMES=1 each test file's counts are split by test, as jest-setup splits them under jest:
// each count goes to the test running when its path ended (its beforeEach and afterEach included), or to the
// test file outside its tests (module loading, beforeAll, afterAll). The provider takes the counts after each
// test file; without this file it names the test file alone.
import { relative, sep } from 'node:path';
import { afterEach, beforeEach, expect } from 'vitest';
// What instrumented code imports: the same store, whichever copy of the runtime Vitest loads.
import runtime from 'babel-plugin-pathprof/runtime';

const store = runtime.getStore();
const testPath = expect.getState().testPath;
const byName = /^(1|true)$/i.test(process.env.PATHPROF_TEST_NAMES ?? '');
if (testPath) runtime.attributeTests(store, relative(process.cwd(), testPath).split(sep).join('/'), byName);
if (testPath && byName) {
  // Registered first, so this beforeEach runs before the test's own and this afterEach after them.
  beforeEach((context) => runtime.testStarted(store, testName(context.task)));
  afterEach(() => runtime.testEnded(store));
}

/** A Vitest test's name as jest-circus's are given: its describe blocks' names, then its own. */
function testName(task) {
  const names = [];
  for (let t = task; t && t !== task.file; t = t.suite) names.unshift(t.name);
  return names;
}
