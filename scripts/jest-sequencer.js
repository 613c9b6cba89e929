const Sequencer = require('@jest/test-sequencer').default;

/**
 * The suites that take longest, in seconds of one fresh-clone `npm test` run (2 workers on 2 cores). Jest
 * starts the longest suites first so that its two workers finish together, but it knows how long a suite
 * takes only from its own cache, which a fresh clone (CI) does not have: it then goes by file size, and the
 * generated-program quarters, small files and the longest suites, started last, after every other suite,
 * with one worker idle at the end. A suite jest has timed goes by its own time; these are the estimates for
 * the others (a wrong estimate only costs balance), every suite not listed after them by size, as jest has it.
 */
const ESTIMATED_SECONDS = [
  [/\/generated-programs-\d+\.test\.ts$/, 200],
  [/\/install-e2e\.test\.ts$/, 118],
  [/\/fixtures-report\.test\.ts$/, 46],
  [/\/(jest|vitest)-e2e\.test\.ts$/, 24],
  [/\/reliability\/(fuzz|corpus)\.test\.ts$/, 18],
];

/** Failed suites first (as jest has them), then the longest first, timed or estimated, then the rest by size. */
class LongestFirst extends Sequencer {
  sort(tests) {
    // Jest's own order: its timings on `test.duration`, the untimed by size.
    const sorted = super.sort(tests);
    for (const test of sorted) {
      const estimate = ESTIMATED_SECONDS.find(([pattern]) => pattern.test(test.path));
      if (test.duration == null && estimate) test.duration = estimate[1] * 1000;
    }
    const failed = (test) => (this.hasFailed(test) ? 1 : 0);
    // Stable: suites with no time keep jest's order among themselves.
    return sorted.sort((a, b) => failed(b) - failed(a) || (b.duration ?? -1) - (a.duration ?? -1));
  }
}

module.exports = LongestFirst;
