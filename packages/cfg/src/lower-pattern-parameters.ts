import * as t from '@babel/types';
import type { FreshName } from './fresh-names';
import { locatedAt } from './expression-builders';
import { childNodes } from './node-facts';
import { hasBranchingComputedKey, patternDefaults } from './pattern-defaults';
import { declaresArguments } from './parameter-state';

// Read once: @babel/types' exports are getters, which V8 does not inline on these hot paths.
const {
  assignmentPattern,
  blockStatement,
  cloneNode,
  getBindingIdentifiers,
  isArrayPattern,
  isArrowFunctionExpression,
  isAssignmentPattern,
  isBlockStatement,
  isCatchClause,
  isClass,
  isClassDeclaration,
  isFunction,
  isFunctionDeclaration,
  isIdentifier,
  isJSXIdentifier,
  isObjectPattern,
  isReferenced,
  isRestElement,
  isTSParameterProperty,
  isVariableDeclarator,
  restElement,
  returnStatement,
  traverseFast,
  variableDeclaration,
  variableDeclarator,
} = t;

/**
 * Moves a function's destructuring parameters into its body, where their defaults can be path decisions:
 * `function f(a, { b = 1 } = {}) { … }` becomes `function f(a, _pp_arg = {}) { var { b = 1 } = _pp_arg; … }`.
 * Parameters are bound before the body and the body runs right after, so only what can tell the two apart
 * rules the rewrite out, and then the function is left as it is:
 * - a generator (its body starts at the first `next()`);
 * - any use of `eval` in the function: it can name any binding, `arguments` included, and a sloppy one in
 *   the parameters declares its `var`s in the parameters' scope;
 * - an expression left in the parameter list (a plain parameter's default, a moved parameter's own `= D`)
 *   that names a moved binding (it would no longer see the binding);
 * - a moved expression (a default or computed key inside a pattern) that names a later parameter (no longer
 *   in its temporal dead zone) or anything the body declares (it would see the body's binding);
 * - a function declared in the body under a moved name (it would be overwritten by the binding);
 * - a non-arrow function whose parameters would all become plain names while its body uses `arguments`
 *   (plain parameters make a sloppy function's `arguments` mapped, with a working `callee`).
 * What the rewrite does change: an error destructuring a bad argument names the temporary
 * (`… of '_pp_arg' …`), and it is thrown from the body, so it is a path of the function.
 * Returns whether the function was rewritten.
 */
export function lowerPatternParameters(fn: t.Function, fresh: FreshName): boolean {
  if (fn.generator) return false;
  const params = fn.params;
  const patternOf = (p: t.Node): t.LVal | null => {
    if (isObjectPattern(p) || isArrayPattern(p)) return p;
    if (isAssignmentPattern(p) && (isObjectPattern(p.left) || isArrayPattern(p.left))) return p.left;
    if (isRestElement(p) && (isObjectPattern(p.argument) || isArrayPattern(p.argument))) return p.argument;
    return null;
  };
  const moved = params.map(patternOf);
  if (!moved.some((p) => p !== null) || !params.some(hasDefault)) return false;
  // After the checks of the parameters alone: this walks the whole function, nested ones included.
  if (mentions(fn, (name) => name === 'eval')) return false;

  const movedNames = new Set<string>();
  for (const p of moved)
    if (p) for (const name of Object.keys(getBindingIdentifiers(p))) movedNames.add(name);
  const staying: t.Node[] = [];
  params.forEach((p) => {
    if (isAssignmentPattern(p)) staying.push(p.right);
    else if (isTSParameterProperty(p) && isAssignmentPattern(p.parameter)) staying.push(p.parameter.right);
  });
  if (staying.some((e) => mentions(e, (name) => movedNames.has(name)))) return false;

  const body = isBlockStatement(fn.body) ? fn.body : null;
  const bodyNames = body ? declaredNames(body) : new Set<string>();
  const later = (i: number) =>
    new Set(params.slice(i + 1).flatMap((p) => Object.keys(getBindingIdentifiers(p))));
  for (let i = 0; i < params.length; i++) {
    const pattern = moved[i];
    if (!pattern) continue;
    const after = later(i);
    const inner = patternExpressions(pattern);
    if (inner.some((e) => mentions(e, (name) => after.has(name) || bodyNames.has(name)))) return false;
  }
  if (body && functionDeclarations(body).some((name) => movedNames.has(name))) return false;
  // Defaults that would stay opaque in the body are decisions as parameters, where the graph builder can
  // decide every default (`decidedParameters`: not in an arrow, beside a computed key or `arguments`).
  const decidableAsParameters =
    !isArrowFunctionExpression(fn) && !params.some(hasBranchingComputedKey) && !declaresArguments(fn);
  if (decidableAsParameters && moved.some((p) => p && patternDefaults(p, true, true, true).opaque.length))
    return false;
  const becomesPlain = params.every((p, i) =>
    moved[i] ? isObjectPattern(p) || isArrayPattern(p) : isIdentifier(p),
  );
  if (!isArrowFunctionExpression(fn) && becomesPlain && mentions(fn, (n) => n === 'arguments')) {
    return false;
  }

  const declarators: t.VariableDeclarator[] = [];
  fn.params = params.map((p, i) => {
    const pattern = moved[i];
    if (!pattern) return p;
    const temp = fresh('pp_arg');
    declarators.push(variableDeclarator(pattern, cloneNode(temp)));
    if (isAssignmentPattern(p)) return locatedAt(assignmentPattern(temp, p.right), p);
    if (isRestElement(p)) return restElement(temp);
    return temp;
  });
  const declaration = variableDeclaration('var', declarators);
  if (body) body.body.unshift(declaration);
  else fn.body = blockStatement([declaration, returnStatement(fn.body as t.Expression)]);
  return true;
}

function hasDefault(p: t.Node): boolean {
  let found = false;
  traverseFast(p, (n) => {
    if (isAssignmentPattern(n)) found = true;
  });
  return found;
}

/**
 * Whether a referenced identifier in `node` satisfies `test`. Conservative about scopes: a reference to a
 * nested function's own binding of that name counts too. Property keys and other names that are not
 * references (`{ a: 1 }`, `o.a`) do not.
 */
function mentions(node: t.Node, test: (name: string) => boolean): boolean {
  const visit = (n: t.Node, parent: t.Node | null, grandparent: t.Node | null): boolean => {
    if (isIdentifier(n) && test(n.name) && (!parent || isReferenced(n, parent, grandparent ?? undefined)))
      return true;
    if (isJSXIdentifier(n) && test(n.name)) return true;
    return childNodes(n).some((c) => visit(c, n, parent));
  };
  return visit(node, null, null);
}

/** The expressions inside a pattern: computed keys and default values, at any depth. */
function patternExpressions(pattern: t.Node): t.Node[] {
  const out: t.Node[] = [];
  const visit = (p: t.Node): void => {
    if (isObjectPattern(p)) {
      for (const prop of p.properties) {
        if (isRestElement(prop)) visit(prop.argument);
        else {
          if (prop.computed) out.push(prop.key);
          visit(prop.value);
        }
      }
    } else if (isArrayPattern(p)) {
      for (const el of p.elements) if (el) visit(el);
    } else if (isAssignmentPattern(p)) {
      out.push(p.right);
      visit(p.left);
    } else if (isRestElement(p)) visit(p.argument);
  };
  visit(pattern);
  return out;
}

/**
 * Every name `body` declares in the function's own scopes: variables, functions and classes, in blocks
 * too, but not inside nested functions or classes (those declare nothing the parameters could see).
 */
function declaredNames(body: t.BlockStatement): Set<string> {
  const names = new Set<string>();
  ownScopes(body, (n) => {
    if (isVariableDeclarator(n) || isCatchClause(n) || isFunctionDeclaration(n) || isClassDeclaration(n)) {
      for (const name of Object.keys(getBindingIdentifiers(n))) names.add(name);
    }
  });
  return names;
}

/** Names of the functions `body` declares in its own scopes (in blocks too: sloppy mode hoists them). */
function functionDeclarations(body: t.BlockStatement): string[] {
  const names: string[] = [];
  ownScopes(body, (n) => {
    if (isFunctionDeclaration(n) && n.id) names.push(n.id.name);
  });
  return names;
}

/** Visits `root` and its descendants, without entering functions or classes. */
function ownScopes(root: t.Node, visit: (n: t.Node) => void): void {
  visit(root);
  if (isFunction(root) || isClass(root)) return;
  for (const c of childNodes(root)) ownScopes(c, visit);
}
