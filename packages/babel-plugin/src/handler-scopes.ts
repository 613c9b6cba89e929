import * as t from '@babel/types';
import type { NodePath } from '@babel/core';

/** A scope as Babel 7 keeps it (`inited`: crawled, or made so; its typings leave these fields out). */
type Scope = NodePath['scope'] & { inited: boolean; data: object; crawling: boolean };

/** `NodePath.get` of the running Babel: the path of `container[key]` under `parent`, cached by `parent`. */
export interface PathClass {
  get(at: {
    hub: unknown;
    parentPath: unknown;
    parent: t.Node;
    container: object;
    listKey?: string;
    key: string | number;
  }): NodePath;
}

/** Babel's scope cache (`@babel/traverse`'s `cache.scope`), as the running Babel hands it to plugins. */
export interface ScopeCache {
  get(node: t.Node): Scope | undefined;
}

/** What the plugin knows of the plugins that walk the file after it, in the same pass. */
export interface LaterPlugins {
  scopes: ScopeCache;
  /** A module transform that splits exported declarations from their exports (split-exports.ts). */
  splitsExports: boolean;
}

/** The scope cache of the Babel running the plugin (`api.traverse.cache.scope`), if it has one we know. */
export function scopeCacheOf(api: unknown): ScopeCache | null {
  const cache = (api as { traverse?: { cache?: { scope?: Partial<ScopeCache> } } }).traverse?.cache;
  if (typeof cache?.scope?.get !== 'function') return null;
  // Read at each use: Babel replaces the map when it clears its cache.
  return { get: (node) => cache.scope!.get!(node) };
}

/**
 * The scopes of the `try` blocks that wrap instrumented function bodies (the exception handlers), made
 * already initialised, so that the plugins after ours do not crawl them. A new `BlockStatement` under a `try`
 * is a new scope to Babel, and the first walk to reach it crawls it whole: for a function body that is a
 * second walk of every node in it, nested functions included (117 ms of luxon's 24 files through
 * @babel/preset-env, bench/NOTES.md, tf24). What the crawl would find is known already: the body's
 * block-scoped declarations, which Babel's crawl of the file before our pass bound in the function's scope
 * (the body was the function's block then). They move to the new scope, as the same bindings; everything
 * else stays where Babel put it, as for any code a plugin rewrites without paths.
 *
 * Only where that holds exactly: the function's scope is the cached one from before our pass, the `try` block
 * has no scope yet, and each of its block-scoped declarations is bound, by that very identifier, in the
 * function's scope (not a declaration lowering made). Anything else is left for Babel to crawl as before.
 */
export function initHandlerScopes(cache: ScopeCache, functions: Iterable<t.Node>): void {
  for (const fn of functions) {
    if (!t.isFunction(fn) || !t.isBlockStatement(fn.body)) continue;
    const fnScope = cache.get(fn);
    if (!fnScope?.inited) continue;
    const statements = fn.body.body;
    const index = statements.length - 1;
    const handler = statements[index];
    if (!t.isTryStatement(handler) || cache.get(handler.block)) continue;
    const names = ownBindingNames(handler.block, fnScope);
    if (!names) continue;
    const NodePathOf = fnScope.path.constructor as unknown as PathClass;
    const body = NodePathOf.get({
      hub: fnScope.path.hub,
      parentPath: fnScope.path,
      parent: fn,
      container: fn,
      key: 'body',
    });
    const tryPath = NodePathOf.get({
      hub: body.hub,
      parentPath: body,
      parent: fn.body,
      container: statements,
      listKey: 'body',
      key: index,
    });
    const blockPath = NodePathOf.get({
      hub: body.hub,
      parentPath: tryPath,
      parent: handler,
      container: handler,
      key: 'block',
    });
    const ScopeOf = fnScope.constructor as new (path: NodePath) => Scope;
    const scope = new ScopeOf(blockPath);
    // As Scope.init leaves a crawled scope (its resetScope, then the collector's bindings).
    Object.assign(scope, {
      references: Object.create(null),
      uids: Object.create(null),
      bindings: Object.create(null),
      globals: Object.create(null),
      data: Object.create(null),
      inited: true,
      crawling: false,
    });
    for (const name of names) fnScope.moveBindingTo(name, scope);
  }
}

/**
 * The names `block`'s own statements declare block-scoped (`let`, `const`, `using`, classes, functions), if
 * each is bound by that identifier in `fnScope`; null if any is not (or a labelled declaration hides one).
 */
function ownBindingNames(block: t.BlockStatement, fnScope: Scope): string[] | null {
  const names: string[] = [];
  for (const statement of block.body) {
    if (t.isLabeledStatement(statement)) return null;
    const declared =
      t.isClassDeclaration(statement) || t.isFunctionDeclaration(statement)
        ? statement.id
          ? { [statement.id.name]: statement.id }
          : {}
        : t.isVariableDeclaration(statement) && statement.kind !== 'var'
          ? t.getBindingIdentifiers(statement)
          : null;
    if (!declared) continue;
    for (const [name, id] of Object.entries(declared)) {
      if (fnScope.getOwnBinding(name)?.identifier !== id) return null;
      names.push(name);
    }
  }
  return names;
}
