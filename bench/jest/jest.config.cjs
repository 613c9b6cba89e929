/**
 * The bench's jest suite. No transform: the code under test was instrumented ahead of time (or not at all), so
 * every mode pays jest the same and differs only in the library's code.
 */
module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  testMatch: ['<rootDir>/*.test.cjs'],
  transform: {},
  cacheDirectory: process.env.BENCH_JEST_CACHE,
  // Only when run.mjs collects the hot paths of path mode: the counts of the test file's context are written.
  setupFilesAfterEnv: process.env.BENCH_HOT_PATHS
    ? [require.resolve('babel-plugin-pathprof/jest-setup')]
    : [],
};
