import * as t from '@babel/types';
import type { CfgRootKind } from './control-flow-graph';

/** A piece of code that gets its own graph, with what the graph calls it. */
export interface CfgRoot {
  readonly node: t.Node;
  readonly kind: CfgRootKind;
  readonly name: string;
}

type Named = { node: t.Node; parent: t.Node | null; grandparent: t.Node | null };

/**
 * Every function-like of a program, in source order (an outer function before the functions inside it):
 * the program itself, functions, arrows, methods (also private, getters, setters, constructors), class
 * field initializers, static blocks and TypeScript namespace bodies. Bodiless declarations (overloads,
 * `declare`, abstract members) have no graph.
 */
export function findCfgRoots(program: t.Program): CfgRoot[] {
  const roots: CfgRoot[] = [{ node: program, kind: 'program', name: '<program>' }];
  const visit = (
    node: t.Node,
    parent: t.Node | null,
    grandparent: t.Node | null,
    className: string | null,
  ) => {
    const root = rootOf({ node, parent, grandparent }, className);
    if (root) roots.push(root);
    const nextClass = t.isClass(node)
      ? (node.id?.name ?? nameFromContext({ node, parent, grandparent }))
      : className;
    for (const key of t.VISITOR_KEYS[node.type] ?? []) {
      const child = (node as unknown as Record<string, unknown>)[key];
      if (Array.isArray(child)) {
        for (const c of child) if (c && typeof c === 'object') visit(c as t.Node, node, parent, nextClass);
      } else if (child && typeof child === 'object') {
        visit(child as t.Node, node, parent, nextClass);
      }
    }
  };
  for (const s of program.body) visit(s, program, null, null);
  return roots;
}

function rootOf(n: Named, className: string | null): CfgRoot | null {
  const { node } = n;
  if (t.isFunction(node)) {
    if (!node.body) return null;
    const name = functionName(n, className);
    return { node, kind: 'function', name };
  }
  if (
    (t.isClassProperty(node) || t.isClassPrivateProperty(node) || t.isClassAccessorProperty(node)) &&
    node.value
  ) {
    if ('declare' in node && node.declare) return null;
    return { node, kind: 'class-field', name: `${className ?? '<class>'}.${keyName(node.key)}` };
  }
  if (t.isStaticBlock(node))
    return { node, kind: 'static-block', name: `${className ?? '<class>'}.<static>` };
  if (t.isTSModuleBlock(n.node) && t.isTSModuleDeclaration(n.parent) && !n.parent.declare) {
    return { node, kind: 'namespace', name: `namespace ${keyName(n.parent.id)}` };
  }
  return null;
}

function functionName(n: Named, className: string | null): string {
  const node = n.node as t.Function;
  if ((t.isFunctionDeclaration(node) || t.isFunctionExpression(node)) && node.id) return node.id.name;
  if (t.isClassMethod(node) || t.isClassPrivateMethod(node)) {
    const prefix = node.kind === 'get' || node.kind === 'set' ? `${node.kind} ` : '';
    const member = node.kind === 'constructor' ? 'constructor' : keyName(node.key);
    return `${prefix}${className ?? '<class>'}.${member}`;
  }
  if (t.isObjectMethod(node)) {
    const prefix = node.kind === 'get' || node.kind === 'set' ? `${node.kind} ` : '';
    return `${prefix}${keyName(node.key)}`;
  }
  return nameFromContext(n) ?? '<anonymous>';
}

/** The name an anonymous function or class gets from where it stands: `const f = () => …`, `{ f: … }`. */
function nameFromContext({ node, parent }: Named): string | null {
  if (t.isVariableDeclarator(parent) && parent.init === node && t.isIdentifier(parent.id))
    return parent.id.name;
  if (t.isAssignmentExpression(parent) && parent.right === node) return exprName(parent.left);
  if (t.isObjectProperty(parent) && parent.value === node) return keyName(parent.key);
  if ((t.isClassProperty(parent) || t.isClassPrivateProperty(parent)) && parent.value === node) {
    return keyName(parent.key);
  }
  if (t.isExportDefaultDeclaration(parent)) return 'default';
  return null;
}

function exprName(e: t.Node): string | null {
  if (t.isIdentifier(e)) return e.name;
  if (t.isMemberExpression(e) && !e.computed) {
    const object = exprName(e.object) ?? (t.isThisExpression(e.object) ? 'this' : null);
    return object ? `${object}.${keyName(e.property)}` : keyName(e.property);
  }
  return null;
}

function keyName(key: t.Node): string {
  if (t.isIdentifier(key)) return key.name;
  if (t.isPrivateName(key)) return `#${key.id.name}`;
  if (t.isStringLiteral(key) || t.isNumericLiteral(key)) return String(key.value);
  return '[computed]';
}
