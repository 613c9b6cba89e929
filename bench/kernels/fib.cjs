// Recursion with nothing else: every activation is a function entry, one decision and a path count, so
// the per-activation cost of instrumentation is all there is.
function fib(n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

module.exports = { fib };
