import * as t from '@babel/types';

/** Calls `visit` on each child node of `node`, in its visitor keys' order (Babel's `traverse` order). */
export function forEachChild(node: t.Node, visit: (child: t.Node) => void): void {
  for (const key of t.VISITOR_KEYS[node.type] ?? []) {
    const child = (node as unknown as Record<string, unknown>)[key];
    if (Array.isArray(child)) {
      for (const c of child) if (c && typeof c === 'object' && 'type' in c) visit(c as t.Node);
    } else if (child && typeof child === 'object' && 'type' in child) visit(child as t.Node);
  }
}
