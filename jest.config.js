/** One jest run over every package; tests import sibling packages from source, so no build is needed first. */
module.exports = {
  testEnvironment: 'node',
  testMatch: ['<rootDir>/packages/*/test/**/*.test.ts'],
  moduleNameMapper: { '^@pathprof/([^/]+)$': '<rootDir>/packages/$1/src' },
  transform: { '\\.ts$': 'babel-jest' },
  setupFiles: ['<rootDir>/scripts/jest-reads-store.js'],
  // The longest suites first, also on a fresh clone, where jest has no timings of its own.
  testSequencer: '<rootDir>/scripts/jest-sequencer.js',
};
