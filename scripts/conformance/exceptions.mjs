// Scenarios of test262 whose outcome instrumentation changes on purpose, each with why (README, "Conformance").
// `files` is a glob relative to the test262 checkout; `modes` limits an exception to some modes (default all).
export const EXCEPTIONS = [
  {
    files: 'test/built-ins/Function/prototype/toString/**',
    reason:
      'Function.prototype.toString returns the source as it runs, and instrumented functions have counters in ' +
      'their bodies (as under any coverage tool that rewrites source)',
  },
];
