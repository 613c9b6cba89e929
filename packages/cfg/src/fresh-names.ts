import * as t from '@babel/types';

/** Makes identifiers that collide with no name in a file; a Babel scope's `generateUidIdentifier` also fits. */
export type FreshName = (hint: string) => t.Identifier;

/**
 * Fresh names from one scan of the file's identifiers: `_hint`, `_hint2`, … skipping every name the file
 * uses anywhere (a superset of what could clash). Cheaper than building Babel's scope when only names are
 * needed.
 */
export function freshNamesFor(root: t.Node): FreshName {
  const taken = new Set<string>();
  t.traverseFast(root, (n) => {
    if (t.isIdentifier(n) || t.isJSXIdentifier(n)) taken.add(n.name);
    else if (t.isLabeledStatement(n)) taken.add(n.label.name);
  });
  return (hint) => {
    const base = `_${hint}`;
    let name = base;
    for (let i = 2; taken.has(name); i++) name = `${base}${i}`;
    taken.add(name);
    return t.identifier(name);
  };
}
