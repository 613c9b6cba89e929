import * as t from '@babel/types';
import traverseModule, { type Binding, type NodePath, type Scope } from '@babel/traverse';

// Read once: @babel/types' exports are getters, which V8 does not inline on these hot paths.
const {
  FLIPPED_ALIAS_KEYS,
  VISITOR_KEYS,
  isArrowFunctionExpression,
  isBinaryExpression,
  isConditionalExpression,
  isExportDeclaration,
  isIdentifier,
  isProgram,
  isLogicalExpression,
  isParenthesizedExpression,
  isSequenceExpression,
  isTSAsExpression,
  isTSNonNullExpression,
  isTSSatisfiesExpression,
  isTSTypeAssertion,
  isUnaryExpression,
  traverseFast,
} = t;

/**
 * The node types Babel may give a scope (`isScope`: the scopables, and a pattern that is a function's or a
 * catch clause's parameter): the walk looks only these up in Babel's scope cache. Were a version of Babel to
 * scope another type, reads under it would resolve from the scope outside, find a binding whose references do
 * not include them, and count as not stable: never wrongly stable.
 */
const SCOPE_TYPES = new Set([...FLIPPED_ALIAS_KEYS.Scopable, ...FLIPPED_ALIAS_KEYS.Pattern]);
const FUNCTION_TYPES = new Set(FLIPPED_ALIAS_KEYS.Function);

// @babel/traverse is CommonJS with a `default` export; under Node's ESM interop it may be nested.
const traverse = (traverseModule as unknown as { default?: typeof traverseModule }).default ?? traverseModule;

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
 * Names declared in a TypeScript namespace never qualify (its exports compile to properties of its object).
 * A classic script's top-level `let` and `var` never qualify (other scripts of the realm can assign them).
 * Nothing in a program with `with` or a direct `eval`, which bind and assign names no scope analysis sees.
 * Imports (live bindings), function declarations (sloppy block semantics) and other kinds never qualify.
 *
 * Run before lowering rewrites the program (Babel's scope describes the code as written); lowering keeps the
 * identifier nodes of the code it moves, and the ones it makes are not in the map.
 */
export function stableConditionValues(program: NodePath<t.Program>): Map<t.Node, string> {
  const values = new Map<t.Node, string>();
  // The scopes Babel's crawl made, by node: a walk of plain nodes finds them without building a path per node
  // (a traversal of paths was 30% of lodash's transform). They are this module's cache only when Babel's
  // traverse is the same copy as ours: if not, nothing is found stable.
  const scopes = traverse.cache.scope;
  if (scopes.get(program.node) !== program.scope) return values;
  const keys = new Map<Binding, string | null>();
  // Per function, whether it mentions `arguments` (asked once per function, not per parameter).
  const argumentsUse = new Map<t.Node, boolean>();
  const aliased = (fn: t.Node): boolean => {
    let uses = argumentsUse.get(fn);
    if (uses === undefined) argumentsUse.set(fn, (uses = mentionsArguments(fn)));
    return uses;
  };
  const references = new Map<Binding, Set<t.Node>>();
  const stableKey = (read: t.Identifier, scope: Scope): string | null => {
    const binding = scope.getBinding(read.name);
    if (!binding) return read.name === 'undefined' ? 'undefined' : null;
    let key = keys.get(binding);
    if (key === undefined) {
      key = isStable(binding, aliased) ? `v${keys.size}` : null;
      keys.set(binding, key);
    }
    if (key === null) return null;
    // The read must be one Babel resolved to this binding (a scope missed on the way would find an outer one).
    let refs = references.get(binding);
    if (!refs) references.set(binding, (refs = new Set(binding.referencePaths.map((p) => p.node))));
    if (!refs.has(read)) return null;
    // A `var` also needs the read to be its own function's, after the declaration (see above).
    if (binding.kind === 'var') {
      const declared = binding.path.node;
      const own = scope.getFunctionParent() === binding.scope.getFunctionParent();
      if (!own || read.start == null || declared.end == null || read.start < declared.end) return null;
    }
    return key;
  };
  // The shapes a condition's value is computed from (`correlatedConditions` decides which are pure).
  const collect = (node: t.Node, scope: Scope): void => {
    if (isIdentifier(node)) {
      const key = stableKey(node, scope);
      if (key !== null) values.set(node, key);
    } else if (isUnaryExpression(node)) collect(node.argument, scope);
    else if (isBinaryExpression(node) || isLogicalExpression(node)) {
      collect(node.left, scope);
      collect(node.right, scope);
    } else if (isConditionalExpression(node)) {
      collect(node.test, scope);
      collect(node.consequent, scope);
      collect(node.alternate, scope);
    } else if (isSequenceExpression(node)) {
      collect(node.expressions[node.expressions.length - 1], scope);
    } else if (
      isTSAsExpression(node) ||
      isTSSatisfiesExpression(node) ||
      isTSNonNullExpression(node) ||
      isTSTypeAssertion(node) ||
      isParenthesizedExpression(node)
    ) {
      collect(node.expression, scope);
    }
  };
  // Annex B: in sloppy code a function declared in a block also assigns a `var` of its name in the enclosing
  // function when the block runs (Babel's scope does not model it), so no value of that name is trusted.
  const functionBodies = new Set<t.Node>();
  const blockFunctions = new Set<string>();
  const walk = (node: t.Node, outer: Scope, parent: t.Node | null): void => {
    const type = node.type;
    let scope = outer;
    if (SCOPE_TYPES.has(type)) {
      scope = scopes.get(node) ?? outer;
      if (FUNCTION_TYPES.has(type)) functionBodies.add((node as t.Function).body);
      if (type === 'FunctionDeclaration' && node.id) {
        const top = !parent || isProgram(parent) || isExportDeclaration(parent) || functionBodies.has(parent);
        if (!top) blockFunctions.add(node.id.name);
      }
    }
    switch (node.type) {
      case 'IfStatement':
      case 'ConditionalExpression':
      case 'WhileStatement':
      case 'DoWhileStatement':
      case 'ForStatement':
        if (node.test) collect(node.test, scope);
        break;
      case 'LogicalExpression':
        collect(node.left, scope);
        break;
      case 'SwitchStatement':
        collect(node.discriminant, scope);
        for (const c of node.cases) if (c.test) collect(c.test, scope);
        break;
      case 'OptionalMemberExpression':
        if (node.optional) collect(node.object, scope);
        break;
      case 'OptionalCallExpression':
        if (node.optional) collect(node.callee, scope);
        break;
      case 'WithStatement':
        dynamic = true;
        break;
      case 'CallExpression':
        if (node.callee.type === 'Identifier' && node.callee.name === 'eval') dynamic = true;
        break;
    }
    // Indexed loops: a `for…of` not yet optimised allocates an iterator and a result per step, and this walk
    // of every node runs mostly before V8 optimises it (a fresh process's first transform).
    const keys = VISITOR_KEYS[type];
    if (!keys) return;
    for (let k = 0; k < keys.length; k++) {
      const child = (node as unknown as Record<string, unknown>)[keys[k]];
      if (Array.isArray(child)) {
        for (let i = 0; i < child.length; i++) {
          const c: unknown = child[i];
          if (c && typeof c === 'object' && 'type' in c) walk(c as t.Node, scope, node);
        }
      } else if (child && typeof child === 'object' && 'type' in child) walk(child as t.Node, scope, node);
    }
  };
  // `with` and a direct `eval` bind and assign names no scope analysis sees.
  let dynamic = false;
  walk(program.node, program.scope, null);
  if (dynamic) return new Map();
  for (const read of values.keys()) if (blockFunctions.has((read as t.Identifier).name)) values.delete(read);
  return values;
}

function isStable(binding: Binding, aliased: (fn: t.Node) => boolean): boolean {
  if (!binding.constant || binding.constantViolations.length > 0) return false;
  // TypeScript compiles a namespace's exported names to properties of its object, which any code can assign.
  if (binding.path.findParent((p) => p.isTSModuleDeclaration())) return false;
  switch (binding.kind) {
    case 'const':
      return true;
    case 'let':
      // A catch clause's parameter: a `var` of its name in the clause assigns it (Annex B), unseen by Babel.
      if (binding.path.isCatchClause()) return false;
      // Another classic script of the realm can assign a script's top-level `let`.
      return !(binding.scope.path.isProgram() && binding.scope.path.node.sourceType === 'script');
    case 'param': {
      const fn = binding.scope.getFunctionParent()?.path.node;
      return !!fn && (isArrowFunctionExpression(fn) || !aliased(fn));
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
  traverseFast(fn, (n) => {
    if (n.type === 'Identifier' && n.name === 'arguments') found = true;
  });
  return found;
}
