import {
  buildFileCfgs,
  correlatedConditions,
  parseSource,
  programPathOf,
  stableConditionValues,
} from '@pathprof/cfg';

/**
 * The correlated decisions of function `f` in `source`, each group as its decisions `code → outcome` (the
 * condition's outcome on taking the edge), in edge order.
 */
function groups(source: string, filename = 'f.js'): string[][] {
  const file = parseSource(source, filename);
  const values = stableConditionValues(programPathOf(file));
  const cfg = buildFileCfgs(file.program, filename).find((g) => g.name === 'f')!;
  return correlatedConditions(cfg, values).map((group) =>
    group.map((code) => {
      const { start, end } = cfg.edges[code >> 1].node;
      return `${source.slice(start!, end!)} → ${code & 1 ? 'holds' : 'fails'}`;
    }),
  );
}

test('a parameter tested twice: its outcomes correlate, through !, == null, ?? and ?.', () => {
  expect(groups('function f(opts) { if (opts) a(); b(); if (!opts) c(); }')).toEqual([
    ['opts → holds', 'opts → fails', 'opts → fails', 'opts → holds'],
  ]);
  expect(
    groups('function f(o) { const x = o ?? d(); if (o != null) a(); return o?.k; }').map((g) => g.length),
  ).toEqual([6]);
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
  expect(groups(source)).toEqual([
    [
      'case "a": g(); break; → fails',
      'case "a": g(); break; → holds',
      'mode === "a" → holds',
      'mode === "a" → fails',
    ],
  ]);
});

test('const and let never assigned, in the function or around it, and a var after its declaration', () => {
  expect(groups('const on = g(); function f() { if (on) a(); if (on) b(); }', 'm.mjs')).toHaveLength(1);
  expect(groups('function f() { let x = g(); if (x) a(); while (y()) if (x) b(); }')).toHaveLength(1);
  expect(groups('function f() { var x = g(); if (x) a(); if (x) b(); }')).toHaveLength(1);
  expect(groups('function f(a) { if (a && b()) c(); return a ? 1 : 2; }')).toHaveLength(1);
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
