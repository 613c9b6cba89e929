import * as t from '@babel/types';
import type { ControlFlowGraph } from './control-flow-graph';
import { EdgeKind } from './edge-kind';
import { unwrapTypeScript } from './node-facts';
import { valueClasses, type ValuePredicate } from './value-classes';

// Read once: @babel/types' exports are getters, and this runs on every decision edge of every path-mode
// function, mostly before V8 optimises it (a fresh process's first transform).
const { isLogicalExpression, isOptionalCallExpression, isOptionalMemberExpression, traverseFast } = t;

/** A function's decisions on values that cannot change during an activation (`correlatedConditions`). */
export interface CorrelatedConditions {
  /**
   * Per condition taken more than once, its decision edges, each `2 * edge + 1` when taking the edge means the
   * condition holds, `2 * edge` when it does not. Two edges of a group with opposite outcomes never both lie on
   * one Ball-Larus path (an infeasible path takes both); only groups with both outcomes from at least two tests
   * are listed.
   */
  readonly correlated: number[][];
  /**
   * Per value tested by different conditions that constrain each other (`valueClasses`: `x == null` and `x`,
   * `x === "a"` and `x === "b"`, `typeof x` against two names), `[classCount, edge, mask, edge, mask, …]`: the
   * classes of values those tests tell apart, and per decision edge the classes it leaves possible. A path whose
   * decisions on one value leave no class possible is infeasible. A condition of `correlated` on such a value
   * is among them too, and stays in `correlated` for a reader that knows only those.
   */
  readonly implied: number[][];
}

/**
 * Whether the values of `implied` have more classes than this in all (a correlated condition has two), the
 * report could not count the infeasible paths exactly (`PathEnds.feasibleCounts` holds the classes still
 * possible in 48 bits): the values with most classes are left out.
 */
const CLASS_BUDGET = 48;

/**
 * The function's decisions on conditions over unchanging values (see `CorrelatedConditions`).
 *
 * A condition qualifies when its value is a function of values that cannot change during the activation
 * (`stableConditionValues`, which says why each qualifies) and of literals, computed without running any user
 * code: no member reads (getters), no calls, no operator that converts an object (`<`, `+`, `==` between
 * non-primitives call `valueOf`). So every evaluation of it on one path gives the same value. Pure forms: those
 * values and literals, `!e`, `e === e`, `e !== e`, `typeof v`, `void 0`, `e == null` and `e != null` (also
 * with `undefined`), and `==`/`!=` between primitives (literals, `typeof`; between two of one type it is
 * `===`). A condition and its negation are one condition with opposite outcomes. Decisions counted: a test's
 * true and false edges (`if`, loops, `?:`, each operand of `&&`/`||`), the left operand of `&&`/`||` evaluated
 * for its value, `??` and `?.`, whose edges say whether a value is null or undefined (not quite `e == null`,
 * which `document.all` passes too), and a `switch`'s case tests (the condition `discriminant === test`:
 * `case "a":` and `if (mode === "a")` are one condition). Of those, the tests of one unchanging value `x` that
 * relate (`implied`): `x`, `x == null`, `x ?? …` and `x?.…`, `x === literal`, `typeof x === "name"`.
 */
export function correlatedConditions(
  cfg: ControlFlowGraph,
  values: ReadonlyMap<t.Node, string>,
): CorrelatedConditions {
  const byCondition = new Map<
    string,
    { edges: number[]; outcomes: number; tests: Set<t.Node>; value: string | null }
  >();
  const byValue = new Map<string, Map<string, { predicate: ValuePredicate; codes: number[] }>>();
  const switches = switchesOf(cfg);
  for (let e = 0; e < cfg.edgeCount; e++) {
    const decision = decisionOf(cfg, e, values, switches);
    if (!decision) continue;
    const code = 2 * e + (decision.holds ? 1 : 0);
    let group = byCondition.get(decision.key);
    if (!group)
      byCondition.set(
        decision.key,
        (group = { edges: [], outcomes: 0, tests: new Set(), value: decision.test?.value ?? null }),
      );
    group.edges.push(code);
    group.outcomes |= decision.holds ? 2 : 1;
    group.tests.add(cfg.edges[e].node);
    if (decision.test) {
      let tests = byValue.get(decision.test.value);
      if (!tests) byValue.set(decision.test.value, (tests = new Map()));
      let test = tests.get(decision.key);
      if (!test) tests.set(decision.key, (test = { predicate: decision.test.predicate, codes: [] }));
      test.codes.push(code);
    }
  }
  const correlated: { edges: number[]; value: string | null }[] = [];
  for (const group of byCondition.values())
    if (group.outcomes === 3 && group.tests.size > 1) correlated.push(group);
  const related = [...byValue].flatMap(([value, tests]) => {
    const group = impliedGroup([...tests.values()]);
    return group ? [{ value, group }] : [];
  });
  // Within the budget, the values with fewest classes first (each saves its correlated conditions' two).
  let classes = 2 * correlated.length;
  const implied: number[][] = [];
  for (const { value, group } of related.sort((a, b) => a.group[0] - b.group[0])) {
    const saved = 2 * correlated.filter((c) => c.value === value).length;
    if (classes + group[0] - saved > CLASS_BUDGET) continue;
    classes += group[0] - saved;
    implied.push(group);
  }
  return { correlated: correlated.map((c) => c.edges), implied };
}

/**
 * The `implied` entry of one value's tests (each a predicate and its decisions), or null when no two of their
 * outcomes exclude each other (or one predicate alone: `correlated` has it).
 */
function impliedGroup(tests: readonly { predicate: ValuePredicate; codes: number[] }[]): number[] | null {
  if (tests.length < 2) return null;
  const { count, holding } = valueClasses(tests.map((test) => test.predicate));
  if (count > 30) return null;
  const all = (1 << count) - 1;
  const decisions: [number, number][] = tests.flatMap((test, i) =>
    test.codes.map((code): [number, number] => [code >> 1, code & 1 ? holding[i] : all & ~holding[i]]),
  );
  // Some outcome of one test excludes some outcome of another (a test's own two always exclude each other).
  const outcomes = holding.map((h) => [h, all & ~h]);
  const excluding = outcomes.some((a, i) =>
    outcomes.slice(i + 1).some((b) => a.some((x) => b.some((y) => (x & y) === 0))),
  );
  if (!excluding) return null;
  decisions.sort((a, b) => a[0] - b[0]);
  return [count, ...decisions.flat()];
}

interface Decision {
  /** The condition, as a key equal for equal conditions. */
  readonly key: string;
  /** Taking the edge means the condition holds. */
  readonly holds: boolean;
  /** When the condition is a predicate on one unchanging value: the value's key and the predicate. */
  readonly test?: ValueTest;
}

interface ValueTest {
  readonly value: string;
  readonly predicate: ValuePredicate;
}

/** A condition's key, whether it is negated, and its value test if it is one. */
interface Truth {
  readonly key: string;
  readonly negated: boolean;
  readonly test?: ValueTest;
}

/** The discriminant of each `switch` case, when the graph has case tests. */
function switchesOf(cfg: ControlFlowGraph): Map<t.Node, t.Expression> {
  const switches = new Map<t.Node, t.Expression>();
  if (!cfg.edgeKind.includes(EdgeKind.CaseMatch)) return switches;
  traverseFast(cfg.node, (n) => {
    if (n.type === 'SwitchStatement') for (const c of n.cases) switches.set(c, n.discriminant);
  });
  return switches;
}

/** What taking edge `e` says of a pure condition, or null. */
function decisionOf(
  cfg: ControlFlowGraph,
  e: number,
  values: ReadonlyMap<t.Node, string>,
  switches: ReadonlyMap<t.Node, t.Expression>,
): Decision | null {
  const kind = cfg.edgeKind[e];
  const node = cfg.edges[e].node;
  // A case test: the discriminant `===` the test; the last test's miss is the `default` edge.
  const miss = kind === EdgeKind.CaseMiss || kind === EdgeKind.Default;
  if ((kind === EdgeKind.CaseMatch || miss) && node.type === 'SwitchCase' && node.test) {
    const discriminant = switches.get(node);
    const left = discriminant && valueOf(discriminant, values);
    const right = valueOf(node.test, values);
    if (!left || !right) return null;
    const truth = equality(left, right, '===');
    return { key: truth.key, holds: !miss, ...(truth.test ? { test: truth.test } : {}) };
  }
  if (kind === EdgeKind.True || kind === EdgeKind.False) {
    // `a = b && c` (`&&=` is not a test of a stable value: it assigns).
    if (node.type === 'AssignmentExpression') return null;
    const tested = isLogicalExpression(node) && node.operator !== '??' ? node.left : node;
    const truth = truthOf(tested as t.Expression, values);
    return (
      truth && {
        key: truth.key,
        holds: truth.negated !== (kind === EdgeKind.True),
        ...(truth.test ? { test: truth.test } : {}),
      }
    );
  }
  if (kind === EdgeKind.Nullish || kind === EdgeKind.NotNullish) {
    const tested = isLogicalExpression(node)
      ? node.left
      : isOptionalMemberExpression(node)
        ? node.object
        : isOptionalCallExpression(node)
          ? node.callee
          : null;
    const value = tested && valueOf(tested, values);
    return value ? { ...nullTest(value, 'absent'), holds: kind === EdgeKind.Nullish } : null;
  }
  return null;
}

/** The truthiness of `x` as a condition key and whether `x` is its negation; null when not pure. */
function truthOf(x: t.Expression, values: ReadonlyMap<t.Node, string>): Truth | null {
  const e = unwrapTypeScript(x);
  if (e.type === 'UnaryExpression' && e.operator === '!') {
    const inner = truthOf(e.argument, values);
    return inner && { ...inner, negated: !inner.negated };
  }
  if (e.type === 'BinaryExpression' && e.left.type !== 'PrivateName') {
    const left = valueOf(e.left, values);
    const right = valueOf(e.right, values);
    if (!left || !right) return null;
    const strict = e.operator === '===' || e.operator === '!==';
    const loose = e.operator === '==' || e.operator === '!=';
    const negated = e.operator === '!==' || e.operator === '!=';
    if (loose && (isNullish(left.key) || isNullish(right.key))) {
      // `null == undefined`: both sides nullish, a constant.
      return { ...nullTest(isNullish(left.key) ? right : left, 'nullish'), negated };
    }
    // `==` between two primitives of one type is `===`.
    if (strict || (loose && left.type !== undefined && left.type === right.type))
      return { ...equality(left, right, '==='), negated };
    if (loose && left.primitive && right.primitive) return { ...equality(left, right, '=='), negated };
    return null;
  }
  const value = valueOf(e, values);
  if (!value) return null;
  return {
    key: `T(${value.key})`,
    negated: false,
    ...(value.stable ? { test: { value: value.key, predicate: { kind: 'truthy' } } } : {}),
  };
}

/**
 * The condition `value == null` (`nullish`), or `value` being null or undefined (`absent`: what `??` and `?.`
 * test, which differ on `document.all`).
 */
function nullTest(value: PureValue, kind: 'nullish' | 'absent'): Truth {
  return {
    key: `${kind === 'nullish' ? 'N' : 'A'}(${value.key})`,
    negated: false,
    ...(value.stable ? { test: { value: value.key, predicate: { kind } } } : {}),
  };
}

/** The condition `left OP right`, with its value test: an unchanging value `===` a literal, or its typeof. */
function equality(left: PureValue, right: PureValue, op: '===' | '=='): Truth {
  const [a, b] = [left.key, right.key].sort();
  const key = `(${a}${op}${b})`;
  if (op !== '===') return { key, negated: false };
  for (const [value, other] of [
    [left, right],
    [right, left],
  ]) {
    if (value.stable && other.literal)
      return {
        key,
        negated: false,
        test: {
          value: value.key,
          predicate: { kind: 'is', literal: other.key, type: other.type!, truthy: other.literal.truthy },
        },
      };
    if (
      value.typeOf !== undefined &&
      other.literal &&
      other.type === 'string' &&
      TYPE_NAMES.has(JSON.parse(other.key) as string)
    )
      return {
        key,
        negated: false,
        test: { value: value.typeOf, predicate: { kind: 'typeof', type: JSON.parse(other.key) as string } },
      };
  }
  return { key, negated: false };
}

/**
 * What `typeof` gives. Another name is left unrelated: old hosts gave their objects others (Internet Explorer's
 * `"unknown"`), so a test against one is not known to fail.
 */
const TYPE_NAMES = new Set([
  'undefined',
  'object',
  'boolean',
  'number',
  'bigint',
  'string',
  'symbol',
  'function',
]);

/** A pure value (see `valueOf`). */
interface PureValue {
  /** Equal for values equal on one path. */
  readonly key: string;
  /** A primitive, so `==` on it converts nothing. */
  readonly primitive: boolean;
  /** Its typeof, when known. */
  readonly type?: string;
  /** A literal (or the global `undefined`), and whether it is truthy; `key` is its canonical form. */
  readonly literal?: { readonly truthy: boolean };
  /** An unchanging value (`stableConditionValues`). */
  readonly stable?: boolean;
  /** `typeof v`: the key of `v` when it is an unchanging value. */
  readonly typeOf?: string;
}

/** A pure value, or null when not pure. */
function valueOf(x: t.Expression, values: ReadonlyMap<t.Node, string>): PureValue | null {
  const e = unwrapTypeScript(x);
  const literal = (key: string, type: string, truthy: boolean): PureValue => ({
    key,
    primitive: true,
    type,
    literal: { truthy },
  });
  switch (e.type) {
    case 'Identifier': {
      const key = values.get(e);
      if (key === undefined) return null;
      return key === 'undefined' ? literal(key, 'undefined', false) : { key, primitive: false, stable: true };
    }
    case 'StringLiteral':
      return literal(JSON.stringify(e.value), 'string', e.value !== '');
    case 'NumericLiteral':
      return literal(`n${e.value}`, 'number', e.value !== 0);
    case 'BooleanLiteral':
      return literal(String(e.value), 'boolean', e.value);
    case 'NullLiteral':
      return literal('null', 'object', false);
    case 'BigIntLiteral': {
      // `0x10n` and `16n` are one value (a form BigInt does not read, such as `1_000n`, is left alone).
      const value = bigIntOf(e.value);
      return value === null ? null : literal(`${value}n`, 'bigint', value !== 0n);
    }
    case 'UnaryExpression': {
      if (e.operator === '-' && e.argument.type === 'NumericLiteral')
        return literal(`n${-e.argument.value}`, 'number', e.argument.value !== 0);
      if (e.operator === 'void' && valueOf(e.argument, values))
        return literal('undefined', 'undefined', false);
      if (e.operator !== 'typeof') return null;
      const of = valueOf(e.argument, values);
      return (
        of && {
          key: `typeof(${of.key})`,
          primitive: true,
          type: 'string',
          ...(of.stable ? { typeOf: of.key } : {}),
        }
      );
    }
  }
  return null;
}

function isNullish(key: string): boolean {
  return key === 'null' || key === 'undefined';
}

function bigIntOf(digits: string): bigint | null {
  try {
    return BigInt(digits);
  } catch {
    return null;
  }
}
