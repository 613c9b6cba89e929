import * as path from 'node:path';
import { resolveOptions } from './options';

/** The extensions Babel reads as JavaScript by default (@babel/core's DEFAULT_EXTENSIONS). */
const JAVASCRIPT = /\.(?:js|jsx|es6|es|mjs|cjs)$/i;

/** What the hooks know of a file's Babel options (`loadPartialConfig`'s): its plugins and presets. */
export interface PartialOptions {
  readonly cwd?: string;
  readonly plugins?: readonly { readonly value: unknown; readonly options?: unknown }[];
  readonly presets?: readonly unknown[];
}

/**
 * Whether Babel, with a file's resolved options, would run nothing on it but this plugin, which leaves it out
 * (a test file, by the default `exclude`): the hooks then load the file as written, as it runs without
 * pathprof. Babel's reprinting moved its lines where no source map reaches: node:test's `location:` of a
 * test is V8's position of its `test()` call, a line off in fastify-plugin's suite. So is a file that is
 * not JavaScript by its extension, which Babel with no preset cannot read: a TypeScript module that another
 * loader hook compiles after ours (tsx's, `node --import tsx`) is left to it, where it was a SyntaxError. A
 * file that brings a source map of its own is compiled as before (the plugin would name it by the map's source).
 */
export function onlyPathprofLeavesOut(
  options: PartialOptions,
  plugin: unknown,
  filename: string,
  source: string,
): boolean {
  if ((options.presets ?? []).length > 0) return false;
  const plugins = options.plugins ?? [];
  if (plugins.length === 0 || plugins.some((item) => item.value !== plugin)) return false;
  if (!JAVASCRIPT.test(filename)) return true;
  if (source.includes('sourceMappingURL')) return false;
  const key = path
    .relative(options.cwd ?? process.cwd(), filename)
    .split(path.sep)
    .join('/');
  try {
    return plugins.every((item) => !resolveOptions(item.options ?? {}).selects(key));
  } catch {
    return false; // Options the plugin refuses: Babel says so, naming the file.
  }
}
