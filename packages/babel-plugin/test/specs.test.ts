import { getStore, snapshot } from '@pathprof/runtime';
import { runPlain } from '@pathprof/testkit';
import { decodedCounts } from './support/decoded-counts';
import { instrument } from './support/instrument';
import { resetCounts, runtimeGlobals } from './support/counted-paths';

/**
 * Execution specs in istanbul's style: code, the calls made, and the expected path-count table of each
 * function, every path written as the kinds of its edges.
 */
interface Spec {
  readonly name: string;
  readonly code: string;
  readonly calls: unknown[][];
  readonly expected: Record<string, Record<string, number>>;
}

const specs: Spec[] = [
  {
    name: 'if / else if / else',
    code: 'module.exports = function grade(x) { if (x > 90) return "A"; else if (x > 50) return "B"; return "C"; }',
    calls: [[95], [60], [10], [99]],
    expected: {
      grade: { 'entry true return': 2, 'entry false true return': 1, 'entry false false normal return': 1 },
    },
  },
  {
    name: 'short circuits in a condition',
    code: 'module.exports = function f(a, b) { if (a && b) return 1; return 0; }',
    calls: [
      [1, 1],
      [1, 0],
      [0, 1],
    ],
    expected: {
      f: { 'entry true true return': 1, 'entry true false return': 1, 'entry false return': 1 },
    },
  },
  {
    name: 'a loop: the first iteration, the others, and the way out are different paths',
    code: 'module.exports = function sum(n) { let s = 0; for (let i = 0; i < n; i++) s += i; return s; }',
    calls: [[3], [0]],
    expected: {
      sum: {
        'entry normal true normal loop-back': 1,
        '(after backedge) true normal loop-back': 2,
        '(after backedge) false return': 1,
        'entry normal false return': 1,
      },
    },
  },
  {
    name: 'switch with fallthrough and default in the middle',
    code: `module.exports = function s(x) { let r = ''; switch (x) { case 1: r += 'a'; default: r += 'd'; case 2: r += 'b'; } return r; }`,
    calls: [[1], [2], [3]],
    expected: {
      s: {
        'entry case fallthrough fallthrough normal return': 1,
        'entry case-miss case normal return': 1,
        'entry case-miss default fallthrough normal return': 1,
      },
    },
  },
  {
    name: 'an exception caught in the function, and one that escapes it',
    code: `module.exports = function p(s) { try { return JSON.parse(s).x; } catch (e) { if (s === 'rethrow') throw e; return null; } }`,
    calls: [['{"x":1}'], ['bad'], ['rethrow']],
    expected: {
      p: {
        'entry normal return': 1,
        'entry normal exception false return': 1,
        'entry normal exception true throw': 1,
      },
    },
  },
  {
    name: 'return through finally',
    code: `module.exports = function f(x) { try { if (x) return 'early'; } finally { x = 0; } return 'late'; }`,
    calls: [[1], [0], [1]],
    expected: {
      f: {
        'entry normal true return normal finally-exit': 2,
        'entry normal false normal normal finally-exit return': 1,
      },
    },
  },
  {
    name: 'optional chain and nullish default',
    code: 'module.exports = function name(u) { return u?.profile?.name ?? "anonymous"; }',
    calls: [[null], [{}], [{ profile: { name: 'ada' } }], [{ profile: {} }]],
    expected: {
      name: {
        'entry nullish nullish normal return': 1,
        'entry not-nullish nullish nullish normal return': 1,
        'entry not-nullish not-nullish normal nullish normal return': 1,
        'entry not-nullish not-nullish normal not-nullish return': 1,
      },
    },
  },
  {
    name: 'a generator finished early by return()',
    code: `function* g() { yield 1; yield 2; }
module.exports = function drive(early) { const it = g(); it.next(); if (early) it.return(); else { it.next(); it.next(); } return 0; }`,
    calls: [[true], [false]],
    expected: {
      g: { 'entry resume resume return': 1, 'entry yield-return': 1 },
    },
  },
];

describe.each(specs.map((s) => [s.name, s] as const))('spec: %s', (_name, spec) => {
  test('counts the expected paths', () => {
    resetCounts();
    const code = instrument(spec.code, 'spec.js');
    for (const args of spec.calls) runPlain(code, args, { globals: runtimeGlobals() });
    const [file] = snapshot(getStore()).files;
    const counts = decodedCounts(file);
    for (const [fn, table] of Object.entries(spec.expected)) expect([fn, counts[fn]]).toEqual([fn, table]);
  });
});
