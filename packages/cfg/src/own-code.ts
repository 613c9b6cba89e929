import * as t from '@babel/types';

/**
 * Visits the nodes whose code runs in the activations of `root` (a graph's node): its body and, for a
 * function, its parameters, but not the functions, class field initializers, static blocks or namespace bodies
 * inside it, which run in activations of their own (a class's computed keys and `extends` run in `root`'s).
 */
export function visitOwnCode(root: t.Node, visit: (node: t.Node) => void): void {
  const walk = (node: t.Node): void => {
    if (node !== root && startsActivation(node)) return;
    visit(node);
    for (const key of t.VISITOR_KEYS[node.type] ?? []) {
      if (node !== root && isInitializer(node, key)) continue;
      const child = (node as unknown as Record<string, unknown>)[key];
      if (Array.isArray(child)) {
        for (const c of child) if (c && typeof c === 'object' && 'type' in c) walk(c as t.Node);
      } else if (child && typeof child === 'object' && 'type' in child) walk(child as t.Node);
    }
  };
  walk(root);
}

function startsActivation(node: t.Node): boolean {
  return t.isFunction(node) || t.isStaticBlock(node) || t.isTSModuleBlock(node);
}

/** A class field's value runs when an instance (or the class) is initialised: a graph of its own. */
function isInitializer(node: t.Node, key: string): boolean {
  return (
    key === 'value' &&
    (t.isClassProperty(node) || t.isClassPrivateProperty(node) || t.isClassAccessorProperty(node))
  );
}

/** Where an activation of `root` can suspend: its `await`s, `yield`s (`yield*` too) and `for await` loops. */
export interface SuspensionPoints {
  readonly awaits: t.AwaitExpression[];
  readonly yields: t.YieldExpression[];
  readonly forAwaits: t.ForOfStatement[];
}

export function suspensionPoints(root: t.Node): SuspensionPoints {
  const points: SuspensionPoints = { awaits: [], yields: [], forAwaits: [] };
  visitOwnCode(root, (node) => {
    if (t.isAwaitExpression(node)) points.awaits.push(node);
    else if (t.isYieldExpression(node)) points.yields.push(node);
    else if (t.isForOfStatement(node) && node.await) points.forAwaits.push(node);
  });
  return points;
}
