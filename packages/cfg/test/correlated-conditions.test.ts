import {
  buildFileCfgs,
  EdgeKind,
  correlatedConditions,
  parseSource,
  programPathOf,
  stableConditionValues,
} from '@pathprof/cfg';

function conditions(source: string, filename: string) {
  const file = parseSource(source, filename);
  const values = stableConditionValues(programPathOf(file));
  const cfg = buildFileCfgs(file.program, filename).find((g) => g.name === 'f')!;
  const say = (e: number) => {
    const { start, end } = cfg.edges[e].node;
    return source.slice(start!, end!);
  };
  return { ...correlatedConditions(cfg, values), say, cfg };
}

/**
 * The correlated decisions of function `f` in `source`, each group as its decisions `code → outcome` (the
 * condition's outcome on taking the edge), in edge order; then each implied group as its decisions `code: mask`.
 */
function groups(source: string, filename = 'f.js'): string[][] {
  const { correlated, implied, say } = conditions(source, filename);
  return [
    ...correlated.map((group) => group.map((code) => `${say(code >> 1)} → ${code & 1 ? 'holds' : 'fails'}`)),
    ...implied.map((group) => {
      const out: string[] = [];
      for (let i = 1; i < group.length; i += 2) out.push(`${say(group[i])}: ${group[i + 1]}`);
      return out;
    }),
  ];
}

/**
 * Whether in `source`'s `f` test `a` (its code) evaluating to `outcome` (as written: a `case` matching, a
 * `??` finding null) and test `b` evaluating to its outcome can both happen on one path, as the correlated and
 * implied decisions tell.
 */
function together(
  source: string,
  [a, outcomeA]: [string, boolean],
  [b, outcomeB]: [string, boolean],
): boolean {
  const { correlated, implied, say, cfg } = conditions(source, 'f.js');
  const truthy = new Set([EdgeKind.True, EdgeKind.CaseMatch, EdgeKind.Nullish]);
  const takes = (e: number, [test, outcome]: [string, boolean]) =>
    say(e) === test && truthy.has(cfg.edgeKind[e]) === outcome;
  // Per decision edge: its value (group) and the classes it leaves possible.
  const decisions = new Map<number, [number, number]>();
  correlated.forEach((group, g) => {
    for (const code of group) decisions.set(code >> 1, [g, code & 1 ? 2 : 1]);
  });
  implied.forEach((group, g) => {
    for (let i = 1; i < group.length; i += 2) decisions.set(group[i], [correlated.length + g, group[i + 1]]);
  });
  const edges = (test: [string, boolean]) => [...decisions.keys()].filter((e) => takes(e, test));
  const [ea, eb] = [edges([a, outcomeA]), edges([b, outcomeB])];
  if (ea.length === 0 || eb.length === 0) return true;
  return ea.every((x) =>
    eb.every(
      (y) =>
        decisions.get(x)![0] !== decisions.get(y)![0] || (decisions.get(x)![1] & decisions.get(y)![1]) !== 0,
    ),
  );
}

test('a parameter tested twice: its outcomes correlate, through !, == null, ?? and ?.', () => {
  expect(groups('function f(opts) { if (opts) a(); b(); if (!opts) c(); }')).toEqual([
    ['opts → holds', 'opts → fails', 'opts → fails', 'opts → holds'],
  ]);
  // `??` and `?.` test one condition, `o != null` another that relates to it (implied: all six decisions).
  expect(
    groups('function f(o) { const x = o ?? d(); if (o != null) a(); return o?.k; }').map((g) => g.length),
  ).toEqual([4, 6]);
  expect(groups('function f(k) { if (typeof k === "string") a(); if ("string" !== typeof k) b(); }')).toEqual(
    [
      [
        'typeof k === "string" → holds',
        'typeof k === "string" → fails',
        '"string" !== typeof k → fails',
        '"string" !== typeof k → holds',
      ],
    ],
  );
});

test('a switch on a value: each case test is `discriminant === test`, like an if', () => {
  const source =
    'function f(mode) { switch (mode) { case "a": g(); break; case "b": h(); } if (mode === "a") k(); }';
  const caseA = 'case "a": g(); break;';
  expect(together(source, [caseA, true], ['mode === "a"', false])).toBe(false);
  expect(together(source, [caseA, false], ['mode === "a"', true])).toBe(false);
  expect(together(source, ['case "b": h();', true], ['mode === "a"', true])).toBe(false);
  expect(together(source, ['case "b": h();', false], ['mode === "a"', true])).toBe(true);
});

test('different tests of one value exclude each other when no value passes both', () => {
  const f = (body: string) => `function f(x, n) { ${body} }`;
  // `== null` against truthiness and `=== undefined`; `!=` and `!` are negations.
  const nullThen = f('if (x == null) a(); if (x) b(); if (x === undefined) c(); if (x != null) d();');
  expect(together(nullThen, ['x == null', true], ['x', true])).toBe(false);
  expect(together(nullThen, ['x == null', false], ['x', false])).toBe(true);
  expect(together(nullThen, ['x === undefined', true], ['x == null', false])).toBe(false);
  expect(together(nullThen, ['x === undefined', true], ['x', true])).toBe(false);
  expect(together(nullThen, ['x === undefined', false], ['x == null', true])).toBe(true);
  expect(together(nullThen, ['x != null', true], ['x === undefined', true])).toBe(false);
  // `??` and `?.` test `== null` too.
  const nullish = f('const y = x ?? 0; if (x) b(); return x?.k;');
  expect(together(nullish, ['x', true], ['x ?? 0', true])).toBe(false);
  expect(together(nullish, ['x', false], ['x?.k', false])).toBe(true);
  // Two literals (the graph tests `!x` as `x`, its edges swapped); typeof against two names, also with `==` and through a switch.
  const literals = f('if (x === "a") a(); if (x === "b") b(); if (x === 0) c(); if (!x) d();');
  expect(together(literals, ['x === "a"', true], ['x === "b"', true])).toBe(false);
  expect(together(literals, ['x === "a"', false], ['x === "b"', false])).toBe(true);
  expect(together(literals, ['x === "a"', true], ['x', false])).toBe(false);
  expect(together(literals, ['x === 0', true], ['x', false])).toBe(true);
  expect(together(literals, ['x === 0', true], ['x', true])).toBe(false);
  const types = f(
    'if (typeof x == "string") a(); switch (typeof x) { case "number": b(); } if (x === 1) c(); if (x) d();',
  );
  expect(together(types, ['typeof x == "string"', true], ['case "number": b();', true])).toBe(false);
  expect(together(types, ['typeof x == "string"', true], ['x === 1', true])).toBe(false);
  expect(together(types, ['case "number": b();', true], ['x === 1', true])).toBe(true);
  // `-0 === 0`, `0x10n === 16n`.
  expect(together(f('if (x === -0) a(); if (x === 0) b();'), ['x === -0', true], ['x === 0', false])).toBe(
    false,
  );
  expect(
    together(f('if (x === 0x10n) a(); if (x === 16n) b();'), ['x === 0x10n', true], ['x === 16n', false]),
  ).toBe(false);
});

test('never relates tests that some value passes both ways', () => {
  const f = (body: string) => `function f(x, y) { ${body} }`;
  // document.all: typeof "undefined", falsy and `== null`, yet `=== undefined` fails.
  const all = f(
    'if (typeof x === "undefined") a(); if (x === undefined) b(); if (x == null) c(); if (x) d();',
  );
  expect(together(all, ['typeof x === "undefined"', true], ['x === undefined', false])).toBe(true);
  expect(together(all, ['x == null', true], ['x === undefined', false])).toBe(true);
  expect(together(all, ['typeof x === "undefined"', true], ['x == null', true])).toBe(true);
  // … and `??`, `?.` find it neither null nor undefined.
  const chained = f('if (x == null) a(); const z = x ?? 0; if (x) b(); return x?.k;');
  expect(together(chained, ['x == null', true], ['x ?? 0', false])).toBe(true);
  expect(together(chained, ['x', true], ['x ?? 0', true])).toBe(false);
  expect(together(chained, ['x == null', false], ['x?.k', true])).toBe(false);
  // null is typeof "object"; NaN is falsy yet no literal; "" and 0n are falsy.
  expect(
    together(f('if (typeof x === "object") a(); if (x) b();'), ['typeof x === "object"', true], ['x', false]),
  ).toBe(true);
  expect(together(f('if (x === 0) a(); if (x) b();'), ['x === 0', false], ['x', false])).toBe(true);
  // `==` against a literal other than null converts an object (valueOf): no test; nor a comparison, nor a value
  // tested against another value.
  expect(groups(f('if (x == 1) a(); if (x) b(); if (x == 1) c();'))).toEqual([]);
  expect(groups(f('if (x > 0) a(); if (x <= 0) b(); if (x) c();'))).toEqual([]);
  expect(groups(f('if (x === y) a(); if (x) b();'))).toEqual([]);
  // A value that can change between the tests.
  expect(groups('function f(x) { if (x == null) a(); x = g(); if (x) b(); }')).toEqual([]);
  // A name typeof never gives here (old Internet Explorer's "unknown") is not known to fail.
  expect(groups(f('if (typeof x === "unknown") a(); if (x) b();'))).toEqual([]);
  // typeof against other literals: never equal, nothing related.
  expect(groups(f('if (typeof x === undefined) a(); if (typeof x === 5) b(); if (x) c();'))).toEqual([]);
  // Tests that relate but exclude nothing: one value passes any pair of outcomes.
  expect(groups(f('if (typeof x === "object") a(); if (x) b();'))).toEqual([]);
});

test('const and let never assigned, in the function or around it, and a var after its declaration', () => {
  expect(groups('const on = g(); function f() { if (on) a(); if (on) b(); }', 'm.mjs')).toHaveLength(1);
  expect(groups('function f() { let x = g(); if (x) a(); while (y()) if (x) b(); }')).toHaveLength(1);
  expect(groups('function f() { var x = g(); if (x) a(); if (x) b(); }')).toHaveLength(1);
  expect(groups('function f(a) { if (a && b()) c(); return a ? 1 : 2; }')).toHaveLength(1);
  // Declared in a block or a loop's head: scopes of their own, inside the function's.
  expect(groups('function f() { { const x = g(); if (x) a(); if (x) b(); } }')).toHaveLength(1);
  expect(groups('function f() { for (const k of g()) { if (k) a(); if (k) b(); } }')).toHaveLength(1);
});

test('never a value that can change between two tests', () => {
  // Two bindings of one name.
  expect(groups('function f(x) { if (x) a(); { const x = g(); if (!x) b(); } }')).toEqual([]);
  // Assigned anywhere, even in a closure.
  expect(groups('function f() { let x = g(); if (x) a(); h(() => { x = 1; }); if (x) b(); }')).toEqual([]);
  expect(groups('function f(p) { if (p) a(); p = g(); if (p) b(); }')).toEqual([]);
  expect(groups('function f(p) { if (p) a(); var p = g(); if (p) b(); }')).toEqual([]);
  // A sloppy function's `arguments` aliases its parameters (also through an arrow inside it).
  expect(groups('function f(p) { if (p) a(); arguments[0] = 0; if (p) b(); }')).toEqual([]);
  expect(groups('function f(p) { if (p) a(); (() => arguments)()[0] = 0; if (p) b(); }')).toEqual([]);
  // A `var` a loop re-initialises, or read before its declaration (hoisted: undefined until then).
  expect(groups('function f() { for (;;) { if (x) a(); var x = g(); if (x) b(); } }')).toEqual([]);
  expect(groups('function f() { if (x) a(); var x = g(); if (x) b(); }')).toEqual([]);
  // Member reads (getters), calls, conversions of objects.
  expect(groups('function f(o) { if (o.k) a(); if (o.k) b(); }')).toEqual([]);
  expect(groups('function f(o) { if (g(o)) a(); if (g(o)) b(); }')).toEqual([]);
  expect(
    groups('function f(o, p) { if (o < p) a(); if (o < p) b(); if (o == p) c(); if (o == p) d(); }'),
  ).toEqual([]);
  // Imports are live; a classic script's top-level `let` and `var` other scripts can assign; `eval`, `with`.
  expect(groups('import { on } from "m"; function f() { if (on) a(); if (on) b(); }', 'm.mjs')).toEqual([]);
  expect(groups('let on = g(); function f() { if (on) a(); if (on) b(); }', 's.js')).toEqual([]);
  expect(groups('function f(p) { if (p) a(); eval(s); if (p) b(); }')).toEqual([]);
  // Annex B: a sloppy block's function declaration assigns a `var` of its name; a `var` in a catch clause
  // assigns the clause's parameter.
  expect(groups('const x = g(); function f() { if (x) a(); { function x() {} } if (x) b(); }')).toEqual([]);
  expect(groups('function f() { try { g(); } catch (e) { if (e) a(); var e = 2; if (e) b(); } }')).toEqual(
    [],
  );
  // A namespace's exports are properties of its object once compiled.
  expect(
    groups(
      'namespace N { export const on = g(); export function f() { if (on) a(); if (on) b(); } }',
      'n.ts',
    ),
  ).toEqual([]);
  // One test alone correlates with nothing, and one outcome alone contradicts nothing.
  expect(groups('function f(p) { while (p) a(); }')).toEqual([]);
});

test('every value passes the tests as some class of its value does (run for real)', () => {
  // One function testing one value every way: the signature of each value below (its outcomes, run) must be
  // some class's (a subset of the tests merges classes, which keeps that true).
  const tests = [
    'x',
    'x == null',
    'x != null',
    'x === undefined',
    'x === null',
    'x === void 0',
    'typeof x === "object"',
    'typeof x == "string"',
    'typeof x === "undefined"',
    'typeof x === "number"',
    'typeof x === "bigint"',
    'typeof x === "function"',
    'typeof x === "symbol"',
    'typeof x === "boolean"',
    'x === 0',
    'x === -0',
    'x === 1',
    '"s" === x',
    'x === ""',
    'x === true',
    'x === false',
    'x === 0n',
    'x === 0x10n',
    'x !== 16n',
  ];
  const values: unknown[] = [
    undefined,
    null,
    true,
    false,
    0,
    -0,
    NaN,
    1,
    -1,
    2.5,
    Infinity,
    's',
    '',
    't',
    '0',
    0n,
    1n,
    16n,
    Symbol('s'),
    {},
    [],
    () => 0,
    new String('s'),
    Object(0n),
  ];
  const source = `function f(x) { ${tests.map((test) => `if (${test}) a();`).join(' ')} }`;
  const { implied, say, cfg } = conditions(source, 'f.js');
  expect(implied).toHaveLength(1);
  const [group] = implied;
  for (const value of values) {
    let classes = (1 << group[0]) - 1;
    for (let i = 1; i < group.length; i += 2) {
      const e = group[i];
      const holds = (new Function('x', `return ${say(e)};`) as (x: unknown) => unknown)(value);
      if ((cfg.edgeKind[e] === EdgeKind.True) === Boolean(holds)) classes &= group[i + 1];
    }
    expect([String(value), classes === 0]).toEqual([String(value), false]);
  }
});
