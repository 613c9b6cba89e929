import * as t from '@babel/types';
import type { NodePath } from '@babel/core';
import type { PathClass, ScopeCache } from './handler-scopes';

/** Whether a plugin of the pass rewrites the module's exports through `splitExportDeclaration`. */
export function splitsExports(pluginKeys: readonly (string | undefined)[]): boolean {
  return pluginKeys.some((key) => key !== undefined && /^transform-modules-(commonjs|amd|umd)$/.test(key));
}

/**
 * `export class A {…}` → `class A {…} export { A };`, `export default class A {…}` → `class A {…} export { A
 * as default };`, and the same for functions (a named one: the same binding, hoisted or not as before), made here when a
 * module transform (CommonJS, AMD, UMD) follows in the pass. That transform makes the same split itself
 * (@babel/helper-module-transforms' `splitExportDeclaration`) and prints the same code either way; but its
 * split gives the declaration a new path, so a new scope, which Babel crawls whole: every exported class
 * and function a second time, with all the code we inserted in it (luxon: 77–95 ms of a transform of 1.2 s,
 * bench/NOTES.md, tf27). Split here, the declaration keeps the scope Babel crawled before our pass: it is
 * handed the declaration's new path, the one Babel's walk will find for it. Comments go with the
 * declaration, as the transform's `replaceWith` moves them. Declarations whose scope Babel did not keep are
 * left as they are.
 */
export function splitExportedDeclarations(program: NodePath<t.Program>, cache: ScopeCache): void {
  const body = program.node.body;
  const PathOf = program.constructor as unknown as PathClass;
  for (let i = 0; i < body.length; i++) {
    const statement = body[i];
    if (!t.isExportNamedDeclaration(statement) && !t.isExportDefaultDeclaration(statement)) continue;
    const declaration = statement.declaration;
    if (!t.isClassDeclaration(declaration) && !t.isFunctionDeclaration(declaration)) continue;
    if (!declaration.id || declaration.declare) continue;
    const scope = cache.get(declaration);
    if (!scope || !(scope as { inited?: boolean }).inited) continue;
    const name = declaration.id.name;
    const exported = t.isExportDefaultDeclaration(statement) ? 'default' : name;
    t.inheritsComments(declaration, statement);
    body.splice(
      i,
      1,
      declaration,
      t.exportNamedDeclaration(null, [t.exportSpecifier(t.identifier(name), t.identifier(exported))]),
    );
    (scope as { path: NodePath }).path = PathOf.get({
      hub: program.hub,
      parentPath: program,
      parent: program.node,
      container: body,
      listKey: 'body',
      key: i,
    });
    i++;
  }
}
