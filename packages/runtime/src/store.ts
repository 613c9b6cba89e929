import type { ContextState, FileContexts } from './context-state';
import type { HashCounter } from './hash-counter';
import type { HashFront } from './hash-front';
import type { VariableCounts } from './variable-counts';

/** One instrumented file's counters in this realm, and the metadata its profile carries. */
export interface FileRecord {
  /** The file's path relative to the project root, as the plugin saw it. */
  readonly key: string;
  /** Fingerprint of the instrumented source: counts of different versions of a file are never merged. */
  readonly hash: string;
  /** The plugin's metadata (JSON text) describing the functions, their graphs and numbering. */
  readonly meta: string;
  /** Where the profile goes unless `PATHPROF_DIR` says otherwise. */
  readonly outputDir: string;
  /**
   * Counters of every array-mode function, each at its own constant offset. Some may be counted in the file's
   * `variables` as well: read them after `flushCounts(record)`.
   */
  readonly counts: Float64Array;
  /**
   * The module variables some counters are counted in, one `VariableCounts` per evaluation of the file in this
   * realm (a registry reset evaluates it again; each keeps its evaluation's scope alive): see `flushCounts`.
   */
  readonly variables: VariableCounts[];
  /** Counters of hash-mode functions, by the index the plugin gave them. */
  readonly hashed: HashCounter[];
  /** The cache in front of `hashed` that interprocedural code counts through (when there are tables). */
  readonly front?: HashFront;
  /** Calling contexts (the plugin's `contexts` option): the file's range of context values and its counts. */
  readonly contexts?: FileContexts;
}

/** Everything counted in one realm (a process, a jest test file's context, a browser page). */
export interface PathprofStore {
  readonly version: 1;
  readonly files: Record<string, FileRecord>;
  /** The realm's running calling context, shared by every file counting contexts; made on first use. */
  contexts?: ContextState;
  /**
   * What writes this realm's counts when the process exit hook cannot (a jest test file's context): set by
   * the jest environment or setup file, the Vitest provider; without one such a realm warns that it is lost.
   */
  writer?: string;
}

export const STORE_GLOBAL = '__pathprof__';

/**
 * A realm's store, created on first use; lives on its global object (`globalThis` unless another realm's
 * global is given, as a jest environment holds its test file's) so every copy of the runtime shares it.
 */
export function getStore(global: object = globalThis): PathprofStore {
  const g = global as Record<string, PathprofStore | undefined>;
  let store = g[STORE_GLOBAL];
  if (!store) {
    store = { version: 1, files: {} };
    Object.defineProperty(global, STORE_GLOBAL, { value: store, configurable: true, writable: true });
  }
  return store;
}
