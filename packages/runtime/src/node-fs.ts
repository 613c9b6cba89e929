/**
 * Node's file system, path and crypto modules, reached only when called: importing the runtime touches no Node API (a
 * bundle for a page has no `require('node:fs')` to resolve). Outside Node, null. Node before 20.16 (and 21, and 22
 * before 22.3) has no `process.getBuiltinModule`: a clear error, as the packages' `engines` say.
 */
export function nodeModules(): {
  fs: typeof import('node:fs');
  path: typeof import('node:path');
  crypto: typeof import('node:crypto');
} | null {
  const p = (globalThis as { process?: NodeJS.Process }).process;
  if (!p?.versions?.node) return null;
  if (typeof p.getBuiltinModule !== 'function') {
    throw new Error(
      `pathprof: Node ${p.version} has no process.getBuiltinModule; pathprof needs Node 20.16 or later (22.3 or later on 22)`,
    );
  }
  return {
    fs: p.getBuiltinModule('node:fs'),
    path: p.getBuiltinModule('node:path'),
    crypto: p.getBuiltinModule('node:crypto'),
  };
}

/** Node's modules, or an error saying that `what` needs Node.js. */
export function nodeOrThrow(what: string): NonNullable<ReturnType<typeof nodeModules>> {
  const modules = nodeModules();
  if (!modules) throw new Error(`pathprof: ${what} needs Node.js`);
  return modules;
}

/** Node's zlib, or an error saying that `what` needs Node.js (apart: only metadata's writers and readers use it). */
export function nodeZlibOrThrow(what: string): typeof import('node:zlib') {
  nodeOrThrow(what);
  return (globalThis as { process: NodeJS.Process }).process.getBuiltinModule('node:zlib');
}
