import * as t from '@babel/types';
import type { CfgRootKind } from './control-flow-graph';

// Read once: @babel/types' exports are getters, which V8 does not inline on these hot paths.
const {
  isAssignmentExpression,
  isClassAccessorProperty,
  isClassMethod,
  isClassPrivateMethod,
  isClassPrivateProperty,
  isClassProperty,
  isExportDefaultDeclaration,
  isFunction,
  isFunctionDeclaration,
  isFunctionExpression,
  isIdentifier,
  isMemberExpression,
  isNumericLiteral,
  isObjectMethod,
  isObjectProperty,
  isPrivateName,
  isStaticBlock,
  isStringLiteral,
  isTSModuleBlock,
  isTSModuleDeclaration,
  isThisExpression,
  isVariableDeclarator,
} = t;

/** A piece of code that gets its own graph, with what the graph calls it. */
export interface CfgRoot {
  readonly node: t.Node;
  readonly kind: CfgRootKind;
  readonly name: string;
  /** How many roots hold this one in their subtree (the program 0, its functions 1, …). */
  readonly depth: number;
  /**
   * A generator that is an async function's body, compiled (TypeScript's `__awaiter(…, function* () {…})`):
   * its `yield`s are the awaits, resumed by next() or throw() and never closed by return().
   */
  readonly yieldsAreAwaits?: boolean;
  /** The constructor of a class that extends another: `this` is bound only once `super()` returns. */
  readonly derivedConstructor?: boolean;
}

type Named = { node: t.Node; parent: t.Node | null };

/**
 * Whether `node` is a graph root (see `findCfgRoots`): the root but for its depth, or null; `className` names
 * the class `node` is in (see `classNameOf`).
 */
export function rootOf(
  node: t.Node,
  parent: t.Node | null,
  className: string | null,
): Omit<CfgRoot, 'depth'> | null {
  if (isFunction(node)) {
    if (!node.body) return null;
    const name = functionName({ node, parent }, className);
    return { node, kind: 'function', name };
  }
  if (
    (isClassProperty(node) || isClassPrivateProperty(node) || isClassAccessorProperty(node)) &&
    node.value
  ) {
    if ('declare' in node && node.declare) return null;
    return {
      node,
      kind: 'class-field',
      name: `${className ?? '<class>'}.${keyName(node.key, 'computed' in node && node.computed)}`,
    };
  }
  if (isStaticBlock(node)) return { node, kind: 'static-block', name: `${className ?? '<class>'}.<static>` };
  if (isTSModuleBlock(node) && isTSModuleDeclaration(parent) && !parent.declare) {
    return { node, kind: 'namespace', name: `namespace ${keyName(parent.id)}` };
  }
  return null;
}

/** The name the members of a class are known by: its own, or the one it gets from where it stands. */
export function classNameOf(node: t.Class, parent: t.Node): string | null {
  return node.id?.name ?? nameFromContext({ node, parent });
}

function functionName(n: Named, className: string | null): string {
  const node = n.node as t.Function;
  if ((isFunctionDeclaration(node) || isFunctionExpression(node)) && node.id) return node.id.name;
  if (isClassMethod(node) || isClassPrivateMethod(node)) {
    const prefix = node.kind === 'get' || node.kind === 'set' ? `${node.kind} ` : '';
    const member = node.kind === 'constructor' ? 'constructor' : keyName(node.key, node.computed);
    return `${prefix}${className ?? '<class>'}.${member}`;
  }
  if (isObjectMethod(node)) {
    const prefix = node.kind === 'get' || node.kind === 'set' ? `${node.kind} ` : '';
    return `${prefix}${keyName(node.key, node.computed)}`;
  }
  return nameFromContext(n) ?? '<anonymous>';
}

/** The name an anonymous function or class gets from where it stands: `const f = () => …`, `{ f: … }`. */
function nameFromContext({ node, parent }: Named): string | null {
  if (isVariableDeclarator(parent) && parent.init === node && isIdentifier(parent.id)) return parent.id.name;
  if (isAssignmentExpression(parent) && parent.right === node) return exprName(parent.left);
  if (isObjectProperty(parent) && parent.value === node) return keyName(parent.key, parent.computed);
  if ((isClassProperty(parent) || isClassPrivateProperty(parent)) && parent.value === node) {
    return keyName(parent.key, 'computed' in parent && parent.computed);
  }
  if (isExportDefaultDeclaration(parent)) return 'default';
  return null;
}

function exprName(e: t.Node): string | null {
  if (isIdentifier(e)) return e.name;
  if (isMemberExpression(e) && !e.computed) {
    const object = exprName(e.object) ?? (isThisExpression(e.object) ? 'this' : null);
    return object ? `${object}.${keyName(e.property)}` : keyName(e.property);
  }
  return null;
}

/**
 * A member's name from its key. A computed key that is a name or a chain of names reads as written
 * (`[Symbol.asyncIterator]`, `[KEY]`), a computed literal as the name it gives; any other computed key is
 * `[computed]`.
 */
function keyName(key: t.Node, computed = false): string {
  if (isStringLiteral(key) || isNumericLiteral(key)) return String(key.value);
  if (computed) {
    const written = exprName(key);
    return written ? `[${written}]` : '[computed]';
  }
  if (isIdentifier(key)) return key.name;
  if (isPrivateName(key)) return `#${key.id.name}`;
  return '[computed]';
}
