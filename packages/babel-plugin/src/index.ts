import type { NodePath, PluginObj, PluginPass, types as t } from '@babel/core';
import * as path from 'node:path';
import { instrumentProgram } from './instrument-program';
import { ignoresFile } from './ignore-comments';
import { resolveOptions, type ResolvedOptions } from './options';
import { cutWarning } from './fallbacks';
import { warnUnnamedFile } from './unnamed-files';
import { compilerAddedCode } from './compiler-added-code';
import {
  compiledWithoutMap,
  originalSource,
  warnCompiledWithoutMap,
  withOriginalLocations,
  type InputMap,
} from './input-source-map';
import { loadInterestingSet } from './interesting-set-file';
import { staleWarning } from './preferential-mode';
import { scopeCacheOf, type LaterPlugins } from './handler-scopes';
import { splitsExports } from './split-exports';

export type { PluginOptions, Mode, Scheme, SuccessorOrder } from './options';
export type { FileNotes } from './instrument-program';
export type { InterproceduralNote, CallSiteNote } from './interprocedural-mode';
export type { PreferentialNote, FunctionAt } from './preferential-mode';
export { FunctionFingerprints } from './function-fingerprint';
export { interproceduralNumberingOf, programOf, callSitesOf } from './interprocedural-metadata';
export { ContextDecoder, type ContextFileRef, type DecodedFrame } from './context-decoding';
export type { OpaqueDefaultNote, PathFallback } from './fallbacks';
export {
  flowGraphOf,
  graphMetadata,
  numberingOf,
  edgePlanOf,
  type FileMetadata,
  type FunctionMetadata,
  type InterproceduralMetadata,
  type PreferentialSetMetadata,
  type PreferentialFunctionMetadata,
  type ContextMetadata,
} from './metadata';
/** The source hash in a profile (`hash`): a reader compares it with the current source. */
export { fingerprint } from './fingerprint';
/** The files the plugin leaves alone unless `exclude` is given: spread it to extend rather than replace. */
export { DEFAULT_EXCLUDE } from './default-exclude';
export { buildId } from './build-id';
/** The plugin's options checked, with the file selection they make (what `all` lists). */
export { resolveOptions, type ResolvedOptions } from './options';

/**
 * babel-plugin-pathprof: `plugins: ['pathprof']` or `plugins: [['pathprof', { mode: 'edge' }]]`. The work
 * happens once per file in `Program` enter, like babel-plugin-istanbul, so it sees the source before other
 * plugins and presets rewrite it; the libraries do everything else.
 */
export default function pathprof(
  api: { assertVersion(range: number | string): void },
  rawOptions: unknown,
): PluginObj {
  api.assertVersion('^7.20.0 || ^8.0.0');
  const options = resolveOptions(rawOptions);
  const scopes = scopeCacheOf(api);
  return {
    name: 'pathprof',
    visitor: {
      Program: {
        enter(programPath, state: PluginPass) {
          // Alone in its pass, the plugin has done all there is to do: Babel's walk of the rewritten file would
          // only look for other plugins' visitors (and hoist statements that nothing here marks), at a third of
          // the transform's time.
          const plugins = state.file.opts.plugins ?? [];
          const alone = plugins.length === 1;
          const later =
            alone || !scopes
              ? null
              : { scopes, splitsExports: splitsExports(plugins.map((p) => (p as { key?: string }).key)) };
          instrumentFile(programPath, state, options, later);
          if (alone) programPath.skip();
        },
      },
    },
  };
}

/** Instruments the file `state` is transforming, if the options select it, and notes what was done. */
function instrumentFile(
  programPath: NodePath<t.Program>,
  state: PluginPass,
  options: ResolvedOptions,
  later: LaterPlugins | null,
): void {
  const filename = state.filename;
  if (!filename) return warnUnnamedFile();
  // Code compiled before Babel (ts-jest, tsc with .map files) is profiled as its original source: the
  // key, the hash and every location are the original's, which the report reads.
  const source = originalSource(filename, (state.file as { inputMap?: InputMap }).inputMap ?? null);
  const key = path
    .relative(state.cwd ?? process.cwd(), source?.file ?? filename)
    .split(path.sep)
    .join('/');
  if (!options.selects(key) || ignoresFile(state.file.ast)) return;
  const cwd = state.cwd ?? process.cwd();
  const interesting = options.interesting ? loadInterestingSet(cwd, options.interesting) : null;
  // Found at the compiled code's positions, before they become the source's.
  const added = source && compilerAddedCode(programPath.node, source.map);
  const withoutMap = !source && compiledWithoutMap(filename, state.file.code);
  if (withoutMap) warnCompiledWithoutMap(key);
  const instrument = () =>
    instrumentProgram(programPath, key, source?.text ?? state.file.code, options, {
      interesting,
      later,
      added,
      withoutMap,
    });
  const notes = source ? withOriginalLocations(programPath.node, source.map, instrument) : instrument();
  (state.file.metadata as { pathprof?: unknown }).pathprof = notes;
  const warning = cutWarning(key, options.maxPaths, notes.fallbacks);
  if (warning) console.warn(warning);
  const stale = notes.preferential && staleWarning(key, notes.preferential);
  if (stale) console.warn(stale);
}
