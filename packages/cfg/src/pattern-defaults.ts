import * as t from '@babel/types';
import { mayEvalDirectly, someOutsideFunctions } from './node-facts';

// Read once: @babel/types' exports are getters, which V8 does not inline on these hot paths.
const {
  isArrayPattern,
  isAssignmentExpression,
  isAssignmentPattern,
  isAwaitExpression,
  isConditionalExpression,
  isIdentifier,
  isLogicalExpression,
  isObjectPattern,
  isObjectProperty,
  isOptionalCallExpression,
  isOptionalMemberExpression,
  isRestElement,
  isYieldExpression,
} = t;

/** A default value the graph keeps inside its block instead of branching on it, and why. */
export interface OpaqueDefault {
  readonly node: t.AssignmentPattern;
  readonly reason: string;
}

/** Which defaults of one binding or assignment target are path decisions, and which are not. */
export interface PatternDefaults {
  readonly decided: ReadonlySet<t.AssignmentPattern>;
  readonly opaque: readonly OpaqueDefault[];
}

/**
 * Where a pattern's defaults can be exact path decisions. "The value was present" has no place for code in
 * JavaScript, so that edge is silent (isSilentKind) and the code that tells the paths apart runs at the next
 * place that has one. That is exact only if nothing can throw in between: the default's target must be a
 * plain binding (initialising a declared name cannot throw, assigning one can) and the next step must have a
 * place for code. In an object pattern the next property's key has one (it becomes a computed key); the end
 * of the whole pattern has one when `endHasSite` (a declaration, a `catch` parameter, a `for…of` head).
 * Defaults whose target is itself a pattern stay opaque (a declaration is split there first, so they become
 * a declarator's target: lower-pattern-targets.ts).
 *
 * When the pattern is a declarator's whole target (`valueWrappable`), its value can be wrapped. A rest
 * element copies properties (getters, proxies) before any place for code; over a wrapped value it becomes
 * a property read that has one (object-rest-destructuring.ts). Elsewhere, defaults followed by a rest
 * element stay opaque. An array pattern steps an iterator before each element; over a wrapped value the
 * helper steps it from property reads (array-destructuring.ts): each element then has a place for code
 * before its step, and so does the closing of the iterator. That needs plain names as elements (a nested pattern that throws must close the
 * iterator, and only the helper's guard around a default can do that) and defaults the guard can run in an
 * arrow (no `yield`, `await` or `eval`).
 */
export function patternDefaults(
  pattern: t.Node,
  binding: boolean,
  endHasSite: boolean,
  valueWrappable = false,
): PatternDefaults {
  const decided = new Set<t.AssignmentPattern>();
  const opaque: OpaqueDefault[] = [];
  const visit = (p: t.Node, nextHasSite: boolean, arrayReason: string | null): void => {
    switch (p.type) {
      case 'ObjectPattern':
        p.properties.forEach((prop, i) => {
          const next = p.properties[i + 1];
          const restHasSite = p === pattern && valueWrappable && binding;
          const hasSite = next ? !isRestElement(next) || restHasSite : nextHasSite;
          visit(isRestElement(prop) ? prop.argument : prop.value, hasSite, arrayReason);
        });
        return;
      case 'ArrayPattern': {
        const reason =
          arrayReason ??
          (p === pattern && valueWrappable && binding
            ? unwrappableElements(p)
            : 'inside an array pattern whose value cannot be wrapped (iterator steps)');
        for (const el of p.elements) {
          if (!el) continue;
          // A wrapped array's nested object pattern starts after a place for code (`elementPattern`).
          const target = isAssignmentPattern(el) ? el.left : el;
          if (reason === null && isObjectPattern(target)) {
            if (isAssignmentPattern(el)) decided.add(el);
            visit(target, true, null);
          } else visit(el, true, reason);
        }
        return;
      }
      case 'RestElement':
        return visit(p.argument, false, arrayReason);
      case 'AssignmentPattern': {
        const reason = !binding
          ? 'assignment target (assigning can throw)'
          : arrayReason
            ? arrayReason
            : !isIdentifier(p.left)
              ? 'its target is a pattern (destructuring the value can throw)'
              : !nextHasSite
                ? 'a rest element follows, which can throw before any place for code'
                : null;
        if (reason) opaque.push({ node: p, reason });
        else decided.add(p);
        return visit(p.left, nextHasSite, arrayReason);
      }
      default:
    }
  };
  visit(pattern, endHasSite, null);
  return { decided, opaque };
}

/** Why an array pattern's elements keep it from being wrapped, or null when they do not. */
function unwrappableElements(p: t.ArrayPattern): string | null {
  const nested = 'inside an array pattern with a nested pattern (an error there must close the iterator)';
  const suspends = 'inside an array pattern, with yield, await or eval in a default';
  for (const el of p.elements) {
    const target = isAssignmentPattern(el) ? el.left : isRestElement(el) ? el.argument : el;
    if (isAssignmentPattern(el) && suspendsOrEvals(el.right)) return suspends;
    if (!target || isIdentifier(target)) continue;
    if (isRestElement(el) || !isFlatObjectPattern(target)) return nested;
    for (const prop of target.properties) {
      const value = (prop as t.ObjectProperty).value;
      if (isAssignmentPattern(value) && suspendsOrEvals(value.right)) return suspends;
    }
  }
  return null;
}

/**
 * An array element's object pattern the helper can destructure through a proxy that closes the iterator
 * when a read throws: plain keys, plain names as targets (with or without a default), no rest.
 */
function isFlatObjectPattern(p: t.Node): p is t.ObjectPattern {
  return (
    isObjectPattern(p) &&
    p.properties.every(
      (prop) =>
        isObjectProperty(prop) &&
        !prop.computed &&
        (isIdentifier(prop.value) || (isAssignmentPattern(prop.value) && isIdentifier(prop.value.left))),
    )
  );
}

/** `yield`, `await` or `eval` in an expression, outside the functions it creates. */
function suspendsOrEvals(e: t.Node): boolean {
  return mayEvalDirectly(e) || someOutsideFunctions(e, (n) => isYieldExpression(n) || isAwaitExpression(n));
}

/**
 * Where a `for (… of/in …)` assignment target that suspends (`for ([x[yield]] of list)`) is first evaluated: the
 * iterator has stepped by then and the target is evaluated before any value is bound to it, so code placed
 * before this expression runs after the step and before the suspension. Null when the target does not
 * suspend, or when what suspends is only reached conditionally (a default) before anything is evaluated.
 */
export function suspendingTargetStart(target: t.Node): t.Expression | null {
  if (!someOutsideFunctions(target, (n) => isYieldExpression(n) || isAwaitExpression(n))) return null;
  return firstEvaluated(target);
}

/** The first expression a target evaluates unconditionally, in the order it is evaluated (null: none). */
function firstEvaluated(p: t.Node): t.Expression | null {
  switch (p.type) {
    case 'MemberExpression':
      // `a.b[c]`: the object, outermost last; a computed key after it. (`super` is no expression to put code
      // before: such a target keeps the graph it had.)
      if (p.object.type === 'MemberExpression') return firstEvaluated(p.object);
      return p.object.type === 'Super' ? null : p.object;
    case 'ArrayPattern':
      for (const el of p.elements) {
        const first = el && firstEvaluated(el);
        if (first) return first;
      }
      return null;
    case 'ObjectPattern':
      for (const prop of p.properties) {
        if (prop.type === 'ObjectProperty' && prop.computed) return prop.key as t.Expression;
        const first = firstEvaluated(prop.type === 'RestElement' ? prop.argument : prop.value);
        if (first) return first;
      }
      return null;
    case 'RestElement':
      return firstEvaluated(p.argument);
    case 'AssignmentPattern':
      // The target is evaluated before its default (which runs only for `undefined`).
      return firstEvaluated(p.left);
    default:
      return null;
  }
}

/** The first property of the outermost object pattern: where code before any of its reads can go. */
export function firstProperty(pattern: t.Node): t.ObjectProperty | null {
  if (!isObjectPattern(pattern)) return null;
  const first = pattern.properties[0];
  return isObjectProperty(first) ? first : null;
}

/**
 * Visits a binding target in the order it is bound: a default before its target (`{ a } = D` decides, then
 * destructures), a pattern before its elements, a computed key (as `key`, not entered) before its value.
 */
export function visitBindingTarget(p: t.Node, visit: (n: t.Node, role: 'target' | 'key') => void): void {
  visit(p, 'target');
  if (isAssignmentPattern(p)) visitBindingTarget(p.left, visit);
  else if (isObjectPattern(p)) {
    for (const prop of p.properties) {
      if (isRestElement(prop)) visitBindingTarget(prop.argument, visit);
      else {
        if (prop.computed) visit(prop.key, 'key');
        visitBindingTarget(prop.value, visit);
      }
    }
  } else if (isArrayPattern(p)) {
    for (const el of p.elements) if (el) visitBindingTarget(el, visit);
  } else if (isRestElement(p)) visitBindingTarget(p.argument, visit);
}

/**
 * Whether an object pattern in `p`, at any depth, has a computed key whose evaluation branches (a
 * conditional, a logical operator, an optional chain): its edges would need code outside any default.
 */
export function hasBranchingComputedKey(p: t.Node): boolean {
  let found = false;
  visitBindingTarget(p, (n, role) => {
    if (role === 'key' && branches(n)) found = true;
  });
  return found;
}

/** Control flow in an expression, outside the functions it creates (conservative: class bodies count). */
function branches(e: t.Node): boolean {
  return someOutsideFunctions(
    e,
    (n) =>
      isConditionalExpression(n) ||
      isLogicalExpression(n) ||
      isOptionalMemberExpression(n) ||
      isOptionalCallExpression(n) ||
      (isAssignmentExpression(n) && ['&&=', '||=', '??='].includes(n.operator)) ||
      isAssignmentPattern(n),
  );
}
