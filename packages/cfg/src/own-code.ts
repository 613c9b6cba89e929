import * as t from '@babel/types';

// Read once: @babel/types' exports are getters, which V8 does not inline on these hot paths.
const {
  isAwaitExpression,
  isClassAccessorProperty,
  isClassMethod,
  isClassPrivateMethod,
  isClassPrivateProperty,
  isClassProperty,
  isForOfStatement,
  isFunction,
  isLabeledStatement,
  isLoop,
  isObjectMethod,
  isReturnStatement,
  isStaticBlock,
  isTSModuleBlock,
  isTryStatement,
  isYieldExpression,
} = t;

/**
 * Visits the nodes whose code runs in the activations of `root` (a graph's node): its body and, for a
 * function, its parameters, but not the functions, class field initializers, static blocks or namespace bodies
 * inside it, which run in activations of their own. What runs where an object or class is made runs in
 * `root`'s: a class's `extends`, the computed keys and decorators of its methods and fields, and an object
 * method's computed key (`{ [f()]() {} }` calls `f` in `root`, not in the method).
 */
export function visitOwnCode(root: t.Node, visit: (node: t.Node) => void): void {
  const children = (node: t.Node, keys: readonly string[]): void => {
    for (const key of keys) {
      const child = (node as unknown as Record<string, unknown>)[key];
      if (Array.isArray(child)) {
        for (const c of child) if (c && typeof c === 'object' && 'type' in c) walk(c as t.Node);
      } else if (child && typeof child === 'object' && 'type' in child) walk(child as t.Node);
    }
  };
  const walk = (node: t.Node): void => {
    if (node !== root && startsActivation(node)) {
      children(node, outsideKeys(node));
      return;
    }
    visit(node);
    const keys = t.VISITOR_KEYS[node.type] ?? [];
    if (node === root) {
      const outside = outsideKeys(node);
      children(node, outside.length ? keys.filter((key) => !outside.includes(key)) : keys);
    } else children(node, isClassField(node) ? keys.filter((key) => key !== 'value') : keys);
  };
  walk(root);
}

function startsActivation(node: t.Node): boolean {
  return isFunction(node) || isStaticBlock(node) || isTSModuleBlock(node);
}

/**
 * The keys of a graph's node that run outside its activations, where the object or class is made: a method's
 * computed key and decorators, a class field's key and decorators (its value is the field's graph).
 */
function outsideKeys(node: t.Node): readonly string[] {
  if (isObjectMethod(node) || isClassMethod(node) || isClassPrivateMethod(node))
    return node.computed ? ['key', 'decorators'] : ['decorators'];
  return isClassField(node) ? ['key', 'decorators'] : [];
}

/** A class field's value runs when an instance (or the class) is initialised: a graph of its own. */
function isClassField(node: t.Node): boolean {
  return isClassProperty(node) || isClassPrivateProperty(node) || isClassAccessorProperty(node);
}

/**
 * Where an activation of `root` can suspend: its `await`s, `yield`s (`yield*` too) and `for await` loops, and in
 * an async generator its `return`s of a value (the value is awaited before any `finally` runs); and the
 * `finally` blocks, which can run after a suspension with no code before them (that `return`, a generator's
 * `return()` at a `yield`, a `for await` loop's iterator closed by a `throw`).
 */
export interface SuspensionPoints {
  readonly awaits: t.AwaitExpression[];
  readonly yields: t.YieldExpression[];
  readonly forAwaits: t.ForOfStatement[];
  readonly awaitedReturns: t.ReturnStatement[];
  readonly finallies: t.TryStatement[];
  /**
   * Where control lands after a `for await` loop is left by a jump (its iterator's `return()` is awaited
   * first): where a `continue` to an outer loop lands (a `for`'s update, a `while`'s or `do`'s test, and the
   * loops' bodies), and the statements after loops and after labeled statements (outermost labels: a labeled
   * loop's body cannot be wrapped).
   */
  readonly loops: t.Loop[];
  readonly afterJumps: t.Statement[];
}

export function suspensionPoints(root: t.Node): SuspensionPoints {
  const points: SuspensionPoints = {
    awaits: [],
    yields: [],
    forAwaits: [],
    awaitedReturns: [],
    finallies: [],
    loops: [],
    afterJumps: [],
  };
  const asyncGenerator = isFunction(root) && root.async && root.generator;
  const labeledBodies = new Set<t.Node>();
  visitOwnCode(root, (node) => {
    if (isLabeledStatement(node)) {
      if (!labeledBodies.has(node)) points.afterJumps.push(node);
      labeledBodies.add(node.body);
    }
    if (isLoop(node)) {
      points.loops.push(node);
      if (!labeledBodies.has(node)) points.afterJumps.push(node);
    }
    if (isAwaitExpression(node)) points.awaits.push(node);
    else if (isYieldExpression(node)) points.yields.push(node);
    else if (isForOfStatement(node) && node.await) points.forAwaits.push(node);
    else if (isReturnStatement(node) && node.argument && asyncGenerator) points.awaitedReturns.push(node);
    else if (isTryStatement(node) && node.finalizer) points.finallies.push(node);
  });
  return points;
}
