import * as t from '@babel/types';
import type { FreshName } from './fresh-names';
import { assignTemp, locatedAt } from './expression-builders';
import { childNodes } from './node-facts';

// Read once: @babel/types' exports are getters, which V8 does not inline on these hot paths.
const {
  assignmentPattern,
  cloneNode,
  isArrayPattern,
  isAssignmentPattern,
  isClass,
  isExportNamedDeclaration,
  isForInStatement,
  isForOfStatement,
  isFunction,
  isObjectPattern,
  isRestElement,
  isTSModuleBlock,
  isVariableDeclaration,
  objectPattern,
  objectProperty,
  variableDeclarator,
} = t;

/**
 * A default whose target is a pattern destructures the value right after deciding, and that can throw
 * (`null`) in the block the decision's silent edge enters. In a declaration the pattern is split there into
 * declarators, so the destructuring starts a declarator of its own, where code can go before it:
 *
 *     const { a, b: { c } = D, e } = E   →   const _pp_o = E, { a, b: _pp_v = D } = _pp_o, { c } = _pp_v, { e } = _pp_o
 *
 * The same reads, defaults and bindings happen in the same order; only hidden names are added. It applies
 * to the declarations of `root`'s own code (not nested functions or namespaces, roots of their own), except in
 * `for…in`/`for…of` heads and exports (the hidden names would be exported), and to object patterns without
 * a rest element (the rest must exclude every key read before it).
 */
export function lowerPatternTargets(root: t.Node, fresh: FreshName): void {
  ownDeclarations(root, (declaration) => splitDeclaration(declaration, fresh));
}

/**
 * `lowerPatternTargets` on declarations already found (`scanProgram`): those of a root's own code that
 * `isLowerableDeclaration` accepts, in source order.
 */
export function lowerDeclarations(declarations: readonly t.VariableDeclaration[], fresh: FreshName): void {
  for (const declaration of declarations) splitDeclaration(declaration, fresh);
}

function splitDeclaration(declaration: t.VariableDeclaration, fresh: FreshName): void {
  declaration.declarations = declaration.declarations.flatMap((d) => split(d, fresh));
}

/**
 * A declaration lowering may split, where `parent` holds it: not in a `for…in`/`for…of` head or an export, and
 * with a declarator that destructures an object (`split` leaves any other as it is).
 */
export function isLowerableDeclaration(n: t.VariableDeclaration, parent: t.Node | null): boolean {
  return (
    !n.declare &&
    n.declarations.some((d) => isObjectPattern(d.id) && d.init) &&
    (n.kind === 'var' || n.kind === 'let' || n.kind === 'const') &&
    !isForInStatement(parent) &&
    !isForOfStatement(parent) &&
    !isExportNamedDeclaration(parent)
  );
}

/** The declarator, or the declarators it splits into (each split again where it can be). */
function split(d: t.VariableDeclarator, fresh: FreshName): t.VariableDeclarator[] {
  const pattern = d.id;
  if (!isObjectPattern(pattern) || !d.init || pattern.properties.some((p) => isRestElement(p))) return [d];
  const properties = pattern.properties as t.ObjectProperty[];
  const at = properties.findIndex(
    (p) => isAssignmentPattern(p.value) && (isObjectPattern(p.value.left) || isArrayPattern(p.value.left)),
  );
  if (at < 0) return [d];
  const target = properties[at].value as t.AssignmentPattern;
  const rest = properties.slice(at + 1);
  const value = fresh('pp_v');
  const source = rest.length ? fresh('pp_o') : null;
  const head: t.VariableDeclarator[] = source ? [variableDeclarator(source, d.init)] : [];
  // `_pp_v = D` would give an anonymous function or class D the name `_pp_v`: `(0, D)` keeps it nameless.
  const initializer = assignTemp(cloneNode(value), target.right).right;
  const first = objectPattern([
    ...properties.slice(0, at),
    objectProperty(
      properties[at].key,
      locatedAt(assignmentPattern(value, initializer), target),
      properties[at].computed,
    ),
  ]);
  return [
    ...head,
    variableDeclarator(first, source ? cloneNode(source) : d.init),
    ...split(variableDeclarator(target.left, cloneNode(value)), fresh),
    ...(source ? split(variableDeclarator(objectPattern(rest), cloneNode(source)), fresh) : []),
  ];
}

/** The variable declarations `root` runs itself, outside `for…in`/`for…of` heads and exports. */
function ownDeclarations(root: t.Node, visit: (d: t.VariableDeclaration) => void): void {
  const walk = (n: t.Node, parent: t.Node | null): void => {
    if (n !== root && (isFunction(n) || isClass(n) || isTSModuleBlock(n))) return;
    if (isVariableDeclaration(n) && isLowerableDeclaration(n, parent)) visit(n);
    for (const c of childNodes(n)) walk(c, n);
  };
  walk(root, null);
}
