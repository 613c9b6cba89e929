import * as t from '@babel/types';
import type { FunctionTemps } from './function-temps';
import { isInert, seq } from './expression-builders';

const {
  assignmentExpression,
  binaryExpression,
  breakStatement,
  cloneNode,
  conditionalExpression,
  expressionStatement,
  isAssignmentExpression,
  isIdentifier,
  isNumericLiteral,
  numericLiteral,
  switchCase,
} = t;

type Exprs = t.Expression[];

/** The code of one `case`'s two edges: its test compared equal to the discriminant (`match`), or not. */
export interface CaseCode {
  readonly match: Exprs;
  readonly miss: Exprs;
}

/**
 * Places the code of a `switch`'s case edges where it costs least, each edge's code still running after the
 * edge is taken and before anything that could observe it (an exception, a body).
 *
 * A test that misses runs nothing of its own: its code is carried to where the switch next does something
 * observable. That is the next test that can throw (`case (code…, X):`), or the body the switch enters:
 * a body that only its match enters starts with the carried code and its match's, `case X: code…; body`, and
 * when no test matches, a `default` that nothing falls into starts with the carried code (a switch without
 * one gets `default: code…; break;` first, which nothing falls into). Carried across tests that cannot throw
 * (`case 'a':`, a name whose read cannot), the code of many misses becomes one register write, and the
 * switch keeps comparisons that V8 can turn into a jump table.
 *
 * Only a body that the previous one falls into needs its match told apart at the test, and only a `default`
 * that is fallen into needs the last miss: there the test compares the saved discriminant,
 * `case (t = X, t === ds ? match… : miss…, t):` (`switch (ds = d)`), as the switch itself does next.
 * `fallsThrough` holds the cases whose body can complete normally into the next one.
 */
export function placeCaseCode(
  n: t.SwitchStatement,
  codes: ReadonlyMap<t.Node, CaseCode>,
  fallsThrough: ReadonlySet<t.Node>,
  temps: FunctionTemps,
): void {
  const enteredByMatchOnly = (i: number) => i === 0 || !fallsThrough.has(n.cases[i - 1]);
  const defaultIndex = n.cases.findIndex((c) => !c.test);
  const tested = n.cases.flatMap((c, i) => (c.test ? [i] : []));
  // Where the code of no match goes: `default`'s start, a new `default` first, or the last test's miss.
  const noMatchAtTest = defaultIndex >= 0 && !enteredByMatchOnly(defaultIndex);
  let ds: t.Identifier | null = null;
  let carried: Exprs = [];
  for (const i of tested) {
    const c = n.cases[i];
    const code = codes.get(c) ?? { match: [], miss: [] };
    const test = c.test!;
    const inert = isInert(test, temps.cfg.nonThrowing);
    const before = inert ? [] : carried;
    if (!inert) carried = [];
    const last = i === tested[tested.length - 1];
    const matchCode = [...carried, ...code.match];
    const missAtTest = last && noMatchAtTest ? [...carried, ...code.miss] : [];
    if (enteredByMatchOnly(i)) c.consequent.unshift(...statements(matchCode));
    const matchAtTest = enteredByMatchOnly(i) ? [] : matchCode;
    if (matchAtTest.length || missAtTest.length) {
      ds ??= temps.get('discriminant', 'pp_ds');
      c.test = seq([...before, compared(test, ds, matchAtTest, missAtTest, temps)]);
    } else if (before.length) c.test = seq([...before, test]);
    carried = missAtTest.length ? [] : [...carried, ...code.miss];
  }
  if (ds) n.discriminant = assignmentExpression('=', cloneNode(ds), n.discriminant);
  if (carried.length === 0 || noMatchAtTest) return;
  if (defaultIndex >= 0) n.cases[defaultIndex].consequent.unshift(...statements(carried));
  else n.cases.unshift(switchCase(null, [...statements(carried), breakStatement()]));
}

/**
 * `(t = X, t === ds ? match… : miss…, t)`; an inert `X` (`case 'a':`, a name whose read cannot throw) is
 * compared as written, `(X === ds ? … : …, X)`.
 */
function compared(test: t.Expression, ds: t.Identifier, match: Exprs, miss: Exprs, temps: FunctionTemps) {
  const inert = isInert(test, temps.cfg.nonThrowing);
  const v = inert ? null : temps.value();
  const value = (): t.Expression => (v ? cloneNode(v) : cloneNode(test));
  return seq([
    ...(v ? [assignmentExpression('=', cloneNode(v), test)] : []),
    conditionalExpression(
      binaryExpression('===', value(), cloneNode(ds)),
      seq([...match, numericLiteral(0)]),
      seq([...miss, numericLiteral(0)]),
    ),
    v ? cloneNode(v) : test,
  ]);
}

/** The code as one statement (none for none), with adjacent constant writes of one local folded. */
function statements(code: Exprs): t.Statement[] {
  const folded: Exprs = [];
  for (const e of code) {
    const prev = folded[folded.length - 1];
    const sum = prev && foldedWrite(prev, e);
    if (sum) folded[folded.length - 1] = sum;
    else folded.push(e);
  }
  return folded.length === 0 ? [] : [expressionStatement(seq(folded))];
}

/** `r = a` or `r += a`, then `r += b`: one write, `r = a + b` or `r += a + b` (the register's locals are numbers). */
function foldedWrite(first: t.Expression, second: t.Expression): t.Expression | null {
  const a = constantWrite(first);
  const b = constantWrite(second);
  if (!a || !b || b.set || a.name !== b.name) return null;
  const sum = a.value + b.value;
  if (!a.set && sum === 0) return null;
  const operator = a.set ? '=' : sum < 0 ? '-=' : '+=';
  const value = a.set ? sum : Math.abs(sum);
  const literal = value < 0 ? t.unaryExpression('-', numericLiteral(-value)) : numericLiteral(value);
  return assignmentExpression(operator, t.identifier(a.name), literal);
}

function constantWrite(e: t.Expression): { name: string; set: boolean; value: number } | null {
  if (!isAssignmentExpression(e) || !isIdentifier(e.left) || !isNumericLiteral(e.right)) return null;
  if (e.operator === '=') return { name: e.left.name, set: true, value: e.right.value };
  if (e.operator === '+=') return { name: e.left.name, set: false, value: e.right.value };
  if (e.operator === '-=') return { name: e.left.name, set: false, value: -e.right.value };
  return null;
}
