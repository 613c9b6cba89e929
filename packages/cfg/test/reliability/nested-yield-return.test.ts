import { checkTrace, instrumentForTrace, TraceRecorder, TRACE_GLOBAL } from '@pathprof/cfg';
import { runPlain } from '@pathprof/testkit';

/**
 * `return()` at a `yield` whose argument itself yields: the outer `yield` is where the generator is suspended,
 * so the completion it records (for its `finally`, or for the function-level return handler) must be the
 * last one written before it suspends, after its argument ran. Found by fuzzing (generators profile, seed
 * 500468): `yield* [(yield d)]` inside `try … finally` was attributed to the inner `yield`.
 */
const SOURCE = `
function* inFinally(d) {
  try {
    yield* [(yield d)];
  } finally {
    d++;
  }
}
function* plain(d) {
  yield (yield d) + 1;
}
module.exports = () =>
  [inFinally, plain].map((g) => {
    const it = g(1);
    return [it.next(), it.next(5), it.return(9), it.next()];
  });
`;

test('return() at a yield whose argument yields is the outer yield’s return', () => {
  const plain = runPlain(SOURCE, []);
  expect(plain).not.toHaveProperty('error');
  const traced = instrumentForTrace(SOURCE, 'nested-yield.js');
  const recorder = new TraceRecorder();
  expect(runPlain(traced.code, [], { globals: { [TRACE_GLOBAL]: recorder } })).toEqual(plain);
  expect(() => checkTrace(traced.graphs, recorder.events, false)).not.toThrow();
});
