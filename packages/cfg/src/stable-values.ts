import * as t from '@babel/types';
import type { Binding, NodePath } from '@babel/traverse';
import { hasDynamicScope } from './call-targets';

/**
 * Per identifier read in a condition, a key naming the value it reads when that value cannot change while one
 * activation of the function that reads it runs (the same key: the same binding); `undefined` for the global
 * `undefined`. Identifiers not in the map are anything else. What `correlatedConditions` builds on: two tests
 * of one such value on one Ball-Larus path see the same value.
 *
 * Why each kind of binding qualifies (a Ball-Larus path takes no back edge, so it runs each block at most once
 * and never re-enters a scope it is in: the declarations it runs make no second binding of the ones it read):
 * - `const`, and `let` that Babel's scope sees no assignment to (`binding.constant`), in any enclosing
 *   function: one binding holds one value from its declaration on, and a read before the declaration throws
 *   (the temporal dead zone), so it takes no branch.
 * - parameters never assigned, unless the function that declares them mentions `arguments` anywhere in its
 *   code (a sloppy function's `arguments[0] = x` assigns its first simple parameter; an arrow inside it
 *   shares its `arguments`; a nested function's own `arguments` counts too, which only ever excludes more).
 * - a `var` never assigned, read in the function that declares it, when no loop of that function holds its
 *   declaration and every read tested is after the declaration in the source: a `var` is `undefined` until its
 *   declaration runs, and control only goes back in the source through a loop's back edge.
 * A classic script's top-level `let` and `var` never qualify (other scripts of the realm can assign them).
 * Nothing in a program with `with` or a direct `eval`, which bind and assign names no scope analysis sees.
 * Imports (live bindings), function declarations (sloppy block semantics) and other kinds never qualify.
 *
 * Run before lowering rewrites the program (Babel's scope describes the code as written); lowering keeps the
 * identifier nodes of the code it moves, and the ones it makes are not in the map.
 */
export function stableConditionValues(program: NodePath<t.Program>): Map<t.Node, string> {
  const values = new Map<t.Node, string>();
  if (hasDynamicScope(program.node)) return values;
  const keys = new Map<Binding, string | null>();
  const stableKey = (read: NodePath<t.Identifier>, binding: Binding): string | null => {
    let key = keys.get(binding);
    if (key === undefined) {
      key = isStable(binding) ? `v${keys.size}` : null;
      keys.set(binding, key);
    }
    // A `var` also needs the read to be its own function's, after the declaration (see above).
    if (key !== null && binding.kind === 'var') {
      const declared = binding.path.node;
      const own = read.scope.getFunctionParent() === binding.scope.getFunctionParent();
      if (!own || read.node.start == null || declared.end == null || read.node.start < declared.end)
        return null;
    }
    return key;
  };
  const visit = (path: NodePath): void => {
    if (path.isIdentifier()) {
      const binding = path.scope.getBinding(path.node.name);
      const key = binding ? stableKey(path, binding) : path.node.name === 'undefined' ? 'undefined' : null;
      if (key !== null) values.set(path.node, key);
      return;
    }
    // The shapes a condition's value is computed from (`correlatedConditions` decides which are pure).
    if (path.isUnaryExpression()) visit(path.get('argument'));
    else if (path.isBinaryExpression() || path.isLogicalExpression()) {
      visit(path.get('left') as NodePath);
      visit(path.get('right') as NodePath);
    } else if (path.isConditionalExpression()) {
      visit(path.get('test'));
      visit(path.get('consequent'));
      visit(path.get('alternate'));
    } else if (path.isSequenceExpression()) {
      const last = path.get('expressions').at(-1);
      if (last) visit(last);
    } else if (
      path.isTSAsExpression() ||
      path.isTSSatisfiesExpression() ||
      path.isTSNonNullExpression() ||
      path.isTSTypeAssertion() ||
      path.isParenthesizedExpression()
    ) {
      visit(path.get('expression') as NodePath);
    }
  };
  const visitTest = (path: NodePath<t.Node & { test?: t.Expression | null }>) => {
    if (path.node.test) visit(path.get('test') as NodePath);
  };
  program.traverse({
    IfStatement: visitTest,
    ConditionalExpression: visitTest,
    WhileStatement: visitTest,
    DoWhileStatement: visitTest,
    ForStatement: visitTest,
    LogicalExpression(path) {
      visit(path.get('left'));
    },
    OptionalMemberExpression(path) {
      if (path.node.optional) visit(path.get('object'));
    },
    OptionalCallExpression(path) {
      if (path.node.optional) visit(path.get('callee'));
    },
  });
  return values;
}

function isStable(binding: Binding): boolean {
  if (!binding.constant || binding.constantViolations.length > 0) return false;
  switch (binding.kind) {
    case 'const':
      return true;
    case 'let':
      // Another classic script of the realm can assign a script's top-level `let`.
      return !(binding.scope.path.isProgram() && binding.scope.path.node.sourceType === 'script');
    case 'param': {
      const fn = binding.scope.getFunctionParent()?.path.node;
      return !!fn && (t.isArrowFunctionExpression(fn) || !mentionsArguments(fn));
    }
    case 'var': {
      // A classic script's top-level `var` is a property of the global object, which any code can assign.
      if (binding.scope.path.isProgram() && binding.scope.path.node.sourceType === 'script') return false;
      const fn = binding.scope.getFunctionParent()?.path ?? binding.scope.getProgramParent().path;
      for (let p: NodePath | null = binding.path; p && p !== fn; p = p.parentPath)
        if (p.isLoop()) return false;
      return true;
    }
    default:
      return false;
  }
}

function mentionsArguments(fn: t.Node): boolean {
  let found = false;
  t.traverseFast(fn, (n) => {
    if (t.isIdentifier(n, { name: 'arguments' })) found = true;
  });
  return found;
}
