import * as t from '@babel/types';
import type { FunctionTemps } from './function-temps';
import { isInert, seq } from './expression-builders';
import {
  assignmentExpression,
  binaryExpression,
  conditionalExpression,
  expressionStatement,
  identifier,
  numericLiteral,
  unaryExpression,
} from './emitted-nodes';

const { breakStatement, cloneNode, isAssignmentExpression, isIdentifier, isNumericLiteral, switchCase } = t;

type Exprs = t.Expression[];

/** The most miss code carried from test to test before it is placed (see `placeCaseCode`). */
const MAX_CARRIED = 32;

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
    // Past MAX_CARRIED misses the carried code goes before this test, as before a test that can throw: a
    // long run of inert tests would otherwise start every body with the code of every miss before it
    // (quadratic: a 10,000-case switch traced edge by edge grew past the longest string V8 can print).
    const inert = isInert(test, temps.cfg.nonThrowing) && carried.length < MAX_CARRIED;
    const before = inert ? [] : carried;
    if (!inert) carried = [];
    const last = i === tested[tested.length - 1];
    const matchCode = [...carried, ...code.match];
    const missAtTest = last && noMatchAtTest ? [...carried, ...code.miss] : [];
    const atStart = enteredByMatchOnly(i) || undoOnFallthrough(n.cases[i - 1], matchCode);
    if (atStart) c.consequent.unshift(...statements(matchCode));
    const matchAtTest = atStart ? [] : matchCode;
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

/**
 * A match's code that only adds a constant to a local, `r += a`, can start a body that the previous one falls
 * into when that fall-through first takes it back: adds `r -= a` at the end of the previous body (which runs
 * only when the body falls through) and returns true; then no test compares for it. False (nothing added) for
 * any other code.
 */
function undoOnFallthrough(previous: t.SwitchCase, code: Exprs): boolean {
  const folded = foldedCode(code);
  const write = folded.length === 1 ? constantWrite(folded[0]) : null;
  if (!write || write.set) return false;
  const undo = assignmentExpression('-=', identifier(write.name), numericLiteral(write.value));
  const list = previous.consequent;
  const last = list[list.length - 1];
  const lastCode = last && t.isExpressionStatement(last) ? last.expression : null;
  const exprs = lastCode ? (t.isSequenceExpression(lastCode) ? lastCode.expressions : [lastCode]) : [];
  const joined = exprs.length ? combined(exprs[exprs.length - 1], undo) : undefined;
  if (joined === undefined) list.push(expressionStatement(undo));
  else {
    const rest = [...exprs.slice(0, -1), ...(joined ? [joined] : [])];
    if (rest.length) list[list.length - 1] = expressionStatement(seq(rest));
    else list.pop();
  }
  return true;
}

/** The code as one statement (none for none), with adjacent constant writes of one local folded. */
function statements(code: Exprs): t.Statement[] {
  const folded = foldedCode(code);
  return folded.length === 0 ? [] : [expressionStatement(seq(folded))];
}

function foldedCode(code: Exprs): Exprs {
  const folded: Exprs = [];
  for (const e of code) {
    const joined = folded.length ? combined(folded[folded.length - 1], e) : undefined;
    if (joined === undefined) folded.push(e);
    else if (joined) folded[folded.length - 1] = joined;
    else folded.pop();
  }
  return folded;
}

/**
 * `r = a` or `r += a`, then `r += b`: one write, `r = a + b` or `r += a + b` (the locals inserted code writes
 * constants to are numbers); null when they cancel out, undefined when they do not combine.
 */
function combined(first: t.Expression, second: t.Expression): t.Expression | null | undefined {
  const a = constantWrite(first);
  const b = constantWrite(second);
  if (!a || !b || b.set || a.name !== b.name) return undefined;
  const sum = a.value + b.value;
  if (!a.set && sum === 0) return null;
  const operator = a.set ? '=' : sum < 0 ? '-=' : '+=';
  const value = a.set ? sum : Math.abs(sum);
  const literal = value < 0 ? unaryExpression('-', numericLiteral(-value)) : numericLiteral(value);
  return assignmentExpression(operator, identifier(a.name), literal);
}

function constantWrite(e: t.Expression): { name: string; set: boolean; value: number } | null {
  if (!isAssignmentExpression(e) || !isIdentifier(e.left) || !isNumericLiteral(e.right)) return null;
  if (e.operator === '=') return { name: e.left.name, set: true, value: e.right.value };
  if (e.operator === '+=') return { name: e.left.name, set: false, value: e.right.value };
  if (e.operator === '-=') return { name: e.left.name, set: false, value: -e.right.value };
  return null;
}
