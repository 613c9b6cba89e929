// Scenarios of test262 whose outcome instrumentation changes on purpose, each with why (README, "Conformance").
// `files` is a glob relative to the test262 checkout; `modes` limits an exception to some modes (default all).
export const EXCEPTIONS = [
  {
    files: 'test/built-ins/Function/prototype/toString/**',
    reason:
      'Function.prototype.toString returns the source as it runs, and instrumented functions have counters in ' +
      'their bodies (as under any coverage tool that rewrites source)',
  },
  {
    files:
      'test/language/{expressions,statements}/{class,object}/cpn-*-computed-property-name-from-*function-expression.js',
    reason:
      'the property key is a function converted to a string (`[() => {}]() {}`, looked up as `c[() => {}]`): its ' +
      'source text, which instrumentation changes differently for each of the two functions, as for toString',
  },
  {
    files: 'test/built-ins/RegExp/prototype/exec/S15.10.6.2_A1_T9.js',
    reason:
      'the string the test matches /1|12/ against is a function converted to a string (`__string`, a function ' +
      'declaration hoisted over `var __string`): its source text, which has counters when instrumented, as for toString',
  },
  {
    files: 'test/language/expressions/addition/S11.6.1_A3.2_T1.2.js',
    reason:
      'compares `x + function(){return 1}` with `x + function(){return 1}.toString()`, two different functions ' +
      'converted to strings: their source texts, equal plain, differ instrumented (each has its own counters), ' +
      'as for toString',
  },
];
