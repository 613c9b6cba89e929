/** Node's file system and path modules, reached only when called: importing the runtime touches no Node API. */
export function nodeModules(): { fs: typeof import('node:fs'); path: typeof import('node:path') } | null {
  const p = (globalThis as { process?: NodeJS.Process }).process;
  if (!p || typeof p.getBuiltinModule !== 'function') return null;
  return { fs: p.getBuiltinModule('node:fs'), path: p.getBuiltinModule('node:path') };
}

/** Node's modules, or an error saying that `what` needs Node.js. */
export function nodeOrThrow(what: string): NonNullable<ReturnType<typeof nodeModules>> {
  const modules = nodeModules();
  if (!modules) throw new Error(`pathprof: ${what} needs Node.js`);
  return modules;
}
