import { instrumentForTrace, TraceRecorder, TRACE_GLOBAL } from '@pathprof/cfg';
import { runPlain } from '@pathprof/testkit';

/**
 * An anonymous function's `name` is inferred from where the source puts it (`const f = function () {}` is
 * `f`) and stays empty elsewhere. Code that keeps a value in a temporary (`return (t = e, code, t)`) must not
 * let the temporary's name be inferred instead: lodash, for one, finds its methods by `name`. Found by the
 * corpus test.
 */
const SOURCE = `
function returned(x) { if (x) return function () {}; return class {}; }
const arrow = (x) => (x ? () => 1 : 0);
function shortCircuit(x) { let o = { f: null }; o.f ||= function () {}; return [o.f, (function () {}) || x]; }
const named = function own() {};
module.exports = () => [returned(1), returned(0), arrow(1), ...shortCircuit(0), named].map((f) => f.name);
`;

test('anonymous functions that pass through a temporary keep an empty name', () => {
  const plain = runPlain(SOURCE, []);
  expect(plain).toEqual({ value: ['', '', '', '', '', 'own'] });
  const traced = instrumentForTrace(SOURCE, 'names.js');
  expect(runPlain(traced.code, [], { globals: { [TRACE_GLOBAL]: new TraceRecorder() } })).toEqual(plain);
});
