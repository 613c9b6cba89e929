import * as t from '@babel/types';
import { scanProgram } from './program-scan';

// Read once: @babel/types' exports are getters, which V8 does not inline on these hot paths.
const { identifier } = t;

/** Makes identifiers that collide with no name in a file; a Babel scope's `generateUidIdentifier` also fits. */
export type FreshName = (hint: string) => t.Identifier;

/**
 * Fresh names for a parsed file: `_hint`, `_hint2`, … skipping every name the file uses anywhere (a superset
 * of what could clash). Cheaper than building Babel's scope when only names are needed.
 */
export function freshNamesFor(file: t.File): FreshName {
  return freshNamesAvoiding(scanProgram(file.program).names);
}

/** Fresh names that avoid `taken` (every name of a file: `scanProgram`'s), which this adds the new ones to. */
export function freshNamesAvoiding(taken: Set<string>): FreshName {
  // Where each hint's search resumes: a file with thousands of functions asks for `pp_r` thousands of times.
  const next = new Map<string, number>();
  return (hint) => {
    const base = `_${hint}`;
    let i = next.get(hint) ?? 1;
    let name = i === 1 ? base : `${base}${i}`;
    while (taken.has(name)) name = `${base}${++i}`;
    next.set(hint, i + 1);
    taken.add(name);
    return identifier(name);
  };
}
