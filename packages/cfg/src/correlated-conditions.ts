import * as t from '@babel/types';
import type { ControlFlowGraph } from './control-flow-graph';
import { EdgeKind } from './edge-kind';
import { unwrapTypeScript } from './node-facts';

/**
 * The function's decisions on one condition taken more than once: per condition, its decision edges, each
 * `2 * edge + 1` when taking the edge means the condition holds, `2 * edge` when it does not. Two edges of a
 * group with opposite outcomes never both lie on one Ball-Larus path (an infeasible path takes both); only
 * groups with both outcomes from at least two tests are listed.
 *
 * A condition qualifies when its value is a function of values that cannot change during the activation
 * (`stableConditionValues`, which says why each qualifies) and of literals, computed without running any user
 * code: no member reads (getters), no calls, no operator that converts an object (`<`, `+`, `==` between
 * non-primitives call `valueOf`). So every evaluation of it on one path gives the same value. Pure forms: those
 * values and literals, `!e`, `e === e`, `e !== e`, `typeof v`, `void 0`, `e == null` and `e != null` (also
 * with `undefined`), and `==`/`!=` between primitives (literals, `typeof`). A condition and its negation are
 * one condition with opposite outcomes. Decisions counted: a test's true and false edges (`if`, loops, `?:`,
 * each operand of `&&`/`||`), the left operand of `&&`/`||` evaluated for its value, `??` and `?.`, whose
 * edges say whether a value is null or undefined (the condition `e == null`), and a `switch`'s case tests
 * (the condition `discriminant === test`: `case "a":` and `if (mode === "a")` are one condition).
 */
export function correlatedConditions(cfg: ControlFlowGraph, values: ReadonlyMap<t.Node, string>): number[][] {
  const byCondition = new Map<string, { edges: number[]; outcomes: number; tests: Set<t.Node> }>();
  const switches = switchesOf(cfg);
  for (let e = 0; e < cfg.edgeCount; e++) {
    const decision = decisionOf(cfg, e, values, switches);
    if (!decision) continue;
    let group = byCondition.get(decision.key);
    if (!group) byCondition.set(decision.key, (group = { edges: [], outcomes: 0, tests: new Set() }));
    group.edges.push(2 * e + (decision.holds ? 1 : 0));
    group.outcomes |= decision.holds ? 2 : 1;
    group.tests.add(cfg.edges[e].node);
  }
  const groups: number[][] = [];
  for (const group of byCondition.values())
    if (group.outcomes === 3 && group.tests.size > 1) groups.push(group.edges);
  return groups;
}

interface Decision {
  /** The condition, as a key equal for equal conditions. */
  readonly key: string;
  /** Taking the edge means the condition holds. */
  readonly holds: boolean;
}

/** The discriminant of each `switch` case, when the graph has case tests. */
function switchesOf(cfg: ControlFlowGraph): Map<t.Node, t.Expression> {
  const switches = new Map<t.Node, t.Expression>();
  if (!cfg.edgeKind.includes(EdgeKind.CaseMatch)) return switches;
  t.traverseFast(cfg.node, (n) => {
    if (t.isSwitchStatement(n)) for (const c of n.cases) switches.set(c, n.discriminant);
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
  if ((kind === EdgeKind.CaseMatch || miss) && t.isSwitchCase(node) && node.test) {
    const discriminant = switches.get(node);
    const left = discriminant && valueOf(discriminant, values);
    const right = valueOf(node.test, values);
    if (!left || !right) return null;
    const [a, b] = [left.key, right.key].sort();
    return { key: `(${a}===${b})`, holds: !miss };
  }
  if (kind === EdgeKind.True || kind === EdgeKind.False) {
    // `a = b && c` (`&&=` is not a test of a stable value: it assigns).
    if (t.isAssignmentExpression(node)) return null;
    const tested = t.isLogicalExpression(node) && node.operator !== '??' ? node.left : node;
    const truth = truthOf(tested as t.Expression, values);
    return truth && { key: truth.key, holds: truth.negated !== (kind === EdgeKind.True) };
  }
  if (kind === EdgeKind.Nullish || kind === EdgeKind.NotNullish) {
    const tested = t.isLogicalExpression(node)
      ? node.left
      : t.isOptionalMemberExpression(node)
        ? node.object
        : t.isOptionalCallExpression(node)
          ? node.callee
          : null;
    const value = tested && valueOf(tested, values);
    return value ? { key: `N(${value.key})`, holds: kind === EdgeKind.Nullish } : null;
  }
  return null;
}

/** The truthiness of `x` as a condition key and whether `x` is its negation; null when not pure. */
function truthOf(
  x: t.Expression,
  values: ReadonlyMap<t.Node, string>,
): { key: string; negated: boolean } | null {
  const e = unwrapTypeScript(x);
  if (t.isUnaryExpression(e) && e.operator === '!') {
    const inner = truthOf(e.argument, values);
    return inner && { key: inner.key, negated: !inner.negated };
  }
  if (t.isBinaryExpression(e) && !t.isPrivateName(e.left)) {
    const left = valueOf(e.left, values);
    const right = valueOf(e.right, values);
    if (!left || !right) return null;
    const strict = e.operator === '===' || e.operator === '!==';
    const loose = e.operator === '==' || e.operator === '!=';
    const negated = e.operator === '!==' || e.operator === '!=';
    if (loose && (isNullish(left.key) || isNullish(right.key))) {
      const other = isNullish(left.key) ? right : left;
      // `null == undefined`: both sides nullish, a constant.
      return { key: `N(${other.key})`, negated };
    }
    if (strict || (loose && left.primitive && right.primitive)) {
      const [a, b] = [left.key, right.key].sort();
      return { key: `(${a}${strict ? '===' : '=='}${b})`, negated };
    }
    return null;
  }
  const value = valueOf(e, values);
  return value && { key: `T(${value.key})`, negated: false };
}

/** A pure value's key, and whether it is a primitive (so `==` on it converts nothing); null when not pure. */
function valueOf(
  x: t.Expression,
  values: ReadonlyMap<t.Node, string>,
): { key: string; primitive: boolean } | null {
  const e = unwrapTypeScript(x);
  if (t.isIdentifier(e)) {
    const key = values.get(e);
    return key === undefined ? null : { key, primitive: key === 'undefined' };
  }
  if (t.isStringLiteral(e)) return { key: JSON.stringify(e.value), primitive: true };
  if (t.isNumericLiteral(e)) return { key: `n${e.value}`, primitive: true };
  if (t.isBooleanLiteral(e)) return { key: String(e.value), primitive: true };
  if (t.isNullLiteral(e)) return { key: 'null', primitive: true };
  if (t.isBigIntLiteral(e)) return { key: `${e.value}n`, primitive: true };
  if (t.isUnaryExpression(e) && e.operator === '-' && t.isNumericLiteral(e.argument))
    return { key: `n${-e.argument.value}`, primitive: true };
  if (t.isUnaryExpression(e) && e.operator === 'void' && valueOf(e.argument, values))
    return { key: 'undefined', primitive: true };
  if (t.isUnaryExpression(e) && e.operator === 'typeof') {
    const of = valueOf(e.argument, values);
    return of && { key: `typeof(${of.key})`, primitive: true };
  }
  return null;
}

function isNullish(key: string): boolean {
  return key === 'null' || key === 'undefined';
}
