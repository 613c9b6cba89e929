import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import {
  contextOfValue,
  contextValues,
  countsByPathNumber,
  PathEnds,
  type ComponentStorage,
  type InterproceduralNumbering,
  type PathNumbering,
} from '@pathprof/numbering';
import {
  countPairs,
  CountSum,
  expandMetadata,
  ProfileMerge,
  readEachProfile,
  RUN_FILE,
  type ContextCounts,
  type CountColumns,
  type CountTables,
  type FileProfile,
  type MergedFileCounts,
  type TestContexts,
} from '@pathprof/runtime';
import {
  fingerprint,
  interproceduralNumberingOf,
  numberingOf,
  type FileMetadata,
  type FunctionMetadata,
  type PreferentialFunctionMetadata,
} from 'babel-plugin-pathprof';
import { exceptionOrigins } from './exception-origins';
import { checkExecutedFeasible, infeasiblePaths, type InfeasiblePaths } from './infeasible-paths';
import { Problems } from './problems';
import { SourceText } from './source-text';
import { unloadedFiles } from './unloaded-files';

/** One function's executed paths: path number → count (nonzero only), with the numbering that decodes them. */
export interface FunctionPaths {
  readonly meta: FunctionMetadata;
  readonly numbering: PathNumbering;
  readonly counts: ReadonlyMap<number, number>;
  /** How its potential paths end: counts by kind, each path's kind, the paths that end some ways. */
  readonly ends: PathEnds;
  /**
   * Which tests took each executed path, and how often, when some profile split its counts by test (a path's
   * count beyond their sum ran in a process that did not: a plain `node` or mocha run).
   */
  readonly tests?: ReadonlyMap<number, readonly PathTest[]>;
  /** Counted in preferential mode: which of its paths are interesting (the rest are residual). */
  readonly preferential?: PreferentialPaths;
  /** Its paths no run can take (two decisions on one unchanging condition contradict), when it has any. */
  readonly infeasible?: InfeasiblePaths;
}

/** A function counted in preferential mode: its counts are by Ball-Larus id, interesting and residual alike. */
export interface PreferentialPaths {
  /** The Ball-Larus ids of the paths its interesting set names. */
  readonly interesting: ReadonlySet<number>;
  /** How many counters its interesting paths had (holes included). */
  readonly counters: number;
  /** Whether the set listed it (if not: new, or its file never ran in the baseline; every path is residual). */
  readonly listed: boolean;
}

/**
 * A test that took a path, and how often: its test file and name (null: the file outside its tests; absent:
 * the whole file, whose tests were not told apart).
 */
export interface PathTest {
  readonly testFile: string;
  readonly name?: readonly string[] | null;
  readonly count: number;
}

/** A source file's merged counts, checked against its current source. */
export interface ProfiledFile {
  /** The file as the plugin named it: relative to Babel's working directory. */
  readonly key: string;
  /** The fingerprint of the source it was instrumented from (calling contexts name files by key and hash). */
  readonly hash: string;
  /** Where its source is now. */
  readonly path: string;
  readonly meta: FileMetadata;
  readonly source: SourceText;
  /**
   * Per-function paths (path and preferential modes; in preferential mode a function without
   * `preferential` changed since the interesting set was made and was counted in path mode); empty for a
   * file counted in interprocedural mode.
   */
  readonly functions: FunctionPaths[];
  /** Interprocedural mode: the file's executed paths by global number, with the numbering that decodes them. */
  readonly interprocedural?: InterproceduralPaths;
  /**
   * Calling contexts (the plugin's `contexts` option): each context's entries and, in path mode, its paths.
   * A function's paths in `functions` are then the sums over its contexts.
   */
  readonly contexts?: ContextCounts;
  /**
   * Its calling contexts per test (or per test file when its tests were not told apart), when some profile
   * named its tests: they sum to `contexts`, but for runs outside any test file.
   */
  readonly testContexts?: readonly TestContexts[];
}

/** A file's interprocedural counts: global path number → count (nonzero only). */
export interface InterproceduralPaths {
  readonly numbering: InterproceduralNumbering;
  readonly counts: ReadonlyMap<number, number>;
}

/** Reports progress of work on many functions (see `Progress`). */
export type OnProgress = (done: number, total: number) => void;

/**
 * Where a relative profile directory missing here is in a directory above (the report run in `src/`): said, so
 * that the user runs the report where the tests ran, where the profiles' paths start.
 */
function foundAbove(dir: string): string {
  if (isAbsolute(dir)) return '';
  for (let above = dirname(resolve()); above !== dirname(above); above = dirname(above)) {
    const there = join(above, dir);
    if (existsSync(there)) return ` (${there} is: run the report in ${above})`;
  }
  return '';
}

/**
 * Reads the profile directories, merges their counts (shards, workers, runs add up) and decodes each file
 * against its current source: the first of `roots` where the file is (profile keys are relative to Babel's
 * working directory, usually the project holding `.pathprof`). Only each directory's current run is read (see the
 * runtime's runs); leftovers of other runs are noted. Anything that cannot be decoded exactly is skipped with a
 * problem: unreadable profiles, files whose source is missing or changed since instrumentation (their
 * extents would point at the wrong code), functions numbered by another version of pathprof.
 */
export function loadProfiledFiles(
  dirs: readonly string[],
  roots: readonly string[],
  problems: Problems,
  onProgress: OnProgress = () => {},
): ProfiledFile[] {
  // Each profile is added as it is read, and dropped: the counts of millions of paths are most of the memory.
  const merge = new ProfileMerge();
  for (const dir of dirs) {
    if (!existsSync(dir)) {
      problems.add(`${dir}: no such profile directory${foundAbove(dir)}`);
      continue;
    }
    if (!statSync(dir).isDirectory()) {
      problems.add(`${dir}: not a directory`);
      continue;
    }
    const read = readEachProfile(dir, (profile) => merge.add(profile));
    for (const error of read.errors) problems.add(`${error.message}; skipped`);
    if (read.otherRuns) problems.note(`${dir}: ignored ${read.otherRuns} profile(s) left by other runs`);
    if (read.unreadableMarker)
      problems.add(
        `${join(dir, RUN_FILE)}: names no run (corrupt?), so the profiles of every run in ${dir} were read; ` +
          'rerun the tests to start a new run',
      );
  }
  const merged: (MergedFileCounts | FileProfile)[] = merge.result();
  const builds = new Map<string, number>();
  for (const file of merged) builds.set(file.key, (builds.get(file.key) ?? 0) + 1);
  for (const [key, n] of builds)
    if (n > 1)
      problems.note(
        `${key}: counted by ${n} builds in this run (the plugin's options changed between accumulated commands): ` +
          'reported apart; lcov, istanbul and check add their line, branch and function counts, html gives each build a page',
      );
  // `all: true`: the files the tests never loaded, with no counts.
  merged.push(...unloadedFiles(roots[0] ?? '.', new Set(merged.map((f) => f.key)), problems));
  merged.sort((a, b) => a.key.localeCompare(b.key));
  const total = merged.reduce((n, f) => n + functionCount(f), 0);
  let done = 0;
  const files: ProfiledFile[] = [];
  for (const profile of merged) {
    const file = profiledFile(profile, roots, problems, () => onProgress(++done, total));
    if (file) files.push(file);
  }
  return files;
}

function functionCount(profile: MergedFileCounts | FileProfile): number {
  const meta = expandMetadata(profile.meta);
  return isFileMetadata(meta) ? meta.functions.length : 0;
}

function profiledFile(
  profile: MergedFileCounts | FileProfile,
  roots: readonly string[],
  problems: Problems,
  onFunction: () => void,
): ProfiledFile | null {
  const { key } = profile;
  const path = roots.map((root) => resolve(root, key)).find((p) => existsSync(p));
  if (!path) {
    problems.skip(key, `source not found under ${roots.join(', ')} (use --root)`);
    return null;
  }
  return decodeFileProfile(profile, path, readFileSync(path, 'utf8'), problems, onFunction);
}

/**
 * One file's merged profile (or one profile's entry for it) decoded against `text`, its source now at `path`:
 * null (with a problem) when the text is not the source it was instrumented from; functions that cannot be
 * decoded are left out.
 */
export function decodeFileProfile(
  profile: MergedFileCounts | FileProfile,
  path: string,
  text: string,
  problems: Problems,
  onFunction: () => void = () => {},
): ProfiledFile | null {
  const { key } = profile;
  // Profiles read from disk have theirs expanded already; a snapshot taken in this process may not.
  const meta = expandMetadata(profile.meta);
  if (!isFileMetadata(meta)) {
    problems.skip(key, 'metadata is not pathprof-meta/1');
    return null;
  }
  if (
    meta.mode !== 'path' &&
    meta.mode !== 'interprocedural' &&
    meta.mode !== 'preferential' &&
    meta.mode !== 'contexts'
  ) {
    problems.skip(
      key,
      `instrumented in ${meta.mode} mode, not path, interprocedural, preferential or contexts mode`,
    );
    return null;
  }

  if (meta.compiledWithoutMap) {
    problems.skip(
      key,
      "compiled before Babel with no source map (ts-jest or tsc with sourceMap: false?), so its paths cannot be placed in it; turn the compiler's source maps on",
    );
    return null;
  }
  if (fingerprint(text) !== profile.hash) {
    problems.skip(key, 'source changed since it was instrumented (rerun the tests)');
    return null;
  }
  if (meta.mode === 'interprocedural') {
    meta.functions.forEach(() => onFunction());
    const interprocedural = interproceduralPaths(profile, meta, problems);
    if (!interprocedural) return null;
    return {
      key,
      hash: profile.hash,
      path,
      meta,
      source: new SourceText(text),
      functions: [],
      interprocedural,
    };
  }
  const { testContexts } = profile as MergedFileCounts;
  const contexts: Pick<ProfiledFile, 'contexts' | 'testContexts'> = meta.contexts
    ? { contexts: profile.contexts ?? { stacks: [], entries: [] }, ...(testContexts ? { testContexts } : {}) }
    : {};
  if (meta.mode === 'contexts') {
    meta.functions.forEach(() => onFunction());
    return { key, hash: profile.hash, path, meta, source: new SourceText(text), functions: [], ...contexts };
  }

  const total = countsBySlot(countTables(profile));
  const perContext = meta.contexts ? pathsOverContexts(meta, contexts.contexts!, problems) : null;
  // Paths counted per calling context are told apart by test through their contexts; what is wrong with a
  // test's was reported with the total, which sums them.
  const testRuns = perContext
    ? undefined
    : (profile as MergedFileCounts).tests?.map((run) => ({ run, tables: countsBySlot(run) }));
  const testContextRuns = perContext
    ? testContexts?.map(({ testFile, name, contexts }) => ({
        test: { testFile, name },
        paths: pathsOverContexts(meta, contexts, new Problems()),
      }))
    : undefined;
  const functions: FunctionPaths[] = [];
  for (const [index, fn] of meta.functions.entries()) {
    onFunction();
    if (!fn.path && !fn.preferential) continue;
    let numbering: PathNumbering;
    try {
      numbering = numberingOf(meta, fn);
    } catch (error) {
      problems.add(`${(error as Error).message}; skipped`);
      continue;
    }
    const pathCounts = perContext
      ? (perContext.get(index) ?? new Map<number, number>())
      : functionCounts(fn, total);
    if (typeof pathCounts === 'string') {
      problems.add(`${key}: ${fn.name} ${pathCounts}; skipped`);
      continue;
    }
    const tests = (testRuns || testContextRuns) && new Map<number, PathTest[]>();
    for (const { test, paths } of testContextRuns ?? []) {
      for (const [p, count] of paths.get(index) ?? []) {
        tests!.set(p, [...(tests!.get(p) ?? []), { ...test, count }]);
      }
    }
    for (const { run, tables } of testRuns ?? []) {
      const testCounts = functionCounts(fn, tables);
      // A test's counters are counted in the total too: what is wrong with them was reported above.
      if (typeof testCounts === 'string') continue;
      for (const [p, count] of testCounts) {
        const taken = { testFile: run.testFile, name: run.name, count };
        tests!.set(p, [...(tests!.get(p) ?? []), taken]);
      }
    }
    const outside = [...pathCounts.keys()].find((p) => p >= numbering.pathCount);
    if (outside !== undefined) {
      problems.add(`${key}: ${fn.name} has a count for path ${outside}, which does not exist; skipped`);
      continue;
    }
    const ends = new PathEnds(numbering, exceptionOrigins(fn));
    const infeasible = infeasiblePaths(fn, numbering, ends);
    const paths: FunctionPaths = {
      meta: fn,
      numbering,
      counts: pathCounts,
      ends,
      ...(tests ? { tests } : {}),
      ...(fn.preferential ? { preferential: preferentialPaths(fn.preferential) } : {}),
      ...(infeasible ? { infeasible } : {}),
    };
    checkExecutedFeasible(paths, key);
    functions.push(paths);
  }
  noteUnfinishedTopLevel(key, functions, problems);
  return { key, hash: profile.hash, path, meta, source: new SourceText(text), functions, ...contexts };
}

/**
 * A file's top level counts its path only when it finishes: it has no handler of its own (wrapping it would
 * change its scoping), so a top level that an exception left, or that the process ended during, counted
 * nothing. Its functions exist only once it started, so when some of them ran and it has no count, it ran
 * without finishing in every run: its path is missing, and the lines it ran read as not executed.
 */
function noteUnfinishedTopLevel(key: string, functions: readonly FunctionPaths[], problems: Problems): void {
  const top = functions.find((f) => f.meta.kind === 'program');
  if (!top || top.counts.size > 0 || !functions.some((f) => f.counts.size > 0)) return;
  problems.note(
    `${key}: its top level ran but never finished (an exception left it, or the process ended during it), so its path is not counted and the lines it ran read as not executed`,
  );
}

/** Paths counted per calling context, summed per function (by index): what path mode alone counts. */
function pathsOverContexts(
  meta: FileMetadata,
  contexts: ContextCounts,
  problems: Problems,
): Map<number, Map<number, number>> {
  const values = contextValues(meta.contexts!.numbering);
  const sums = new Map<number, Map<number, number>>();
  for (const [, value, pairs] of contexts.paths ?? []) {
    const fn = contextOfValue(values, value)?.function;
    if (fn === undefined) {
      problems.add(`${meta.file}: paths counted in context ${value}, which does not exist; skipped`);
      continue;
    }
    let counts = sums.get(fn);
    if (!counts) sums.set(fn, (counts = new Map()));
    for (const [p, n] of pairs) if (n > 0) counts.set(p, (counts.get(p) ?? 0) + n);
  }
  return sums;
}

/** A file's counters, and its hash tables by slot. */
interface SlotTables {
  readonly counts: CountColumns;
  readonly hashed: ReadonlyMap<number, CountColumns>;
}

/** The counts of a merged profile, or those of one profile's entry summed as a merge would. */
function countTables(profile: MergedFileCounts | FileProfile): CountTables {
  if (!Array.isArray(profile.counts)) return profile as MergedFileCounts;
  const { counts, hashed } = profile as FileProfile;
  const sum = (pairs: [number, number][]) => {
    const into = new CountSum();
    into.add(pairs);
    return into.result();
  };
  return { counts: sum(counts), hashed: hashed.map(([slot, pairs]) => [slot, sum(pairs)]) };
}

function countsBySlot(tables: CountTables): SlotTables {
  return { counts: tables.counts, hashed: new Map(tables.hashed) };
}

const NO_COUNTS: CountColumns = { keys: new Float64Array(0), counts: new Float64Array(0) };

/** The first position of `columns` whose key is at least `key`. */
function firstAtLeast(columns: CountColumns, key: number): number {
  let lo = 0;
  let hi = columns.keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (columns.keys[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * A function's nonzero path counts, from its file's counters or its hash table; in preferential mode by
 * Ball-Larus id, or what is wrong with them (see `preferentialCounts`).
 */
function functionCounts(fn: FunctionMetadata, tables: SlotTables): Map<number, number> | string {
  if (fn.preferential) return preferentialCounts(fn.preferential, tables);
  const storage = fn.path!.storage;
  const pathCounts = new Map<number, number>();
  if (storage.kind === 'hash') {
    const { keys, counts } = tables.hashed.get(storage.slot) ?? NO_COUNTS;
    for (let i = 0; i < keys.length; i++) if (counts[i] > 0) pathCounts.set(keys[i], counts[i]);
  } else {
    const { keys, counts } = tables.counts;
    const end = storage.offset + fn.path!.pathCount;
    for (let i = firstAtLeast(tables.counts, storage.offset); i < keys.length && keys[i] < end; i++)
      if (counts[i]) pathCounts.set(keys[i] - storage.offset, counts[i]);
  }
  return pathCounts;
}

/**
 * A preferential function's counts by Ball-Larus id: each interesting counter under the id its slot holds,
 * then the residual table's. What would be inconsistent with the classification the code makes (a count in a
 * hole, an interesting path in the residual table) is returned as a problem instead.
 */
function preferentialCounts(
  fn: PreferentialFunctionMetadata,
  tables: SlotTables,
): Map<number, number> | string {
  const into = new Map<number, number>();
  const { keys, counts } = tables.counts;
  const end = fn.offset + fn.slotPathId.length;
  for (let i = firstAtLeast(tables.counts, fn.offset); i < keys.length && keys[i] < end; i++) {
    const n = counts[i];
    if (!n) continue;
    const slot = keys[i] - fn.offset;
    if (fn.slotPathId[slot] < 0) return `has a count for counter ${slot}, which no path has`;
    into.set(fn.slotPathId[slot], n);
  }
  const slotted = new Set(fn.slotPathId);
  const residual = tables.hashed.get(fn.table) ?? NO_COUNTS;
  for (let i = 0; i < residual.keys.length; i++) {
    const id = residual.keys[i];
    const n = residual.counts[i];
    if (n <= 0) continue;
    if (slotted.has(id)) return `has residual counts for path ${id}, which has a counter`;
    into.set(id, n);
  }
  return into;
}

function preferentialPaths(fn: PreferentialFunctionMetadata): PreferentialPaths {
  return {
    interesting: new Set([...fn.slotPathId.filter((id) => id >= 0), ...fn.droppedPathIds]),
    counters: fn.slotPathId.length,
    listed: fn.listed,
  };
}

/** The file's interprocedural counts, checked against its numbering; null (with a problem) if unusable. */
function interproceduralPaths(
  profile: MergedFileCounts | FileProfile,
  meta: FileMetadata,
  problems: Problems,
): InterproceduralPaths | null {
  let numbering: InterproceduralNumbering;
  try {
    numbering = interproceduralNumberingOf(meta);
  } catch (error) {
    problems.add(`${(error as Error).message}; skipped`);
    return null;
  }
  const storage = meta.interprocedural?.storage;
  if (!isComponentStorage(storage, numbering.components.length)) {
    problems.skip(profile.key, 'instrumented by an older pathprof (its counts are laid out otherwise)');
    return null;
  }
  let counts: Map<number, number>;
  try {
    const { counts: array, hashed } = countsBySlot(countTables(profile));
    const table = (k: number) => countPairs(hashed.get(k) ?? NO_COUNTS);
    counts = new Map(countsByPathNumber(numbering, storage, countPairs(array), table));
  } catch (error) {
    problems.skip(profile.key, (error as Error).message);
    return null;
  }
  return { numbering, counts };
}

function isComponentStorage(storage: unknown, components: number): storage is ComponentStorage {
  const s = storage as Partial<ComponentStorage> | null | undefined;
  return Array.isArray(s?.arrayOffset) && Array.isArray(s.table) && s.arrayOffset.length === components;
}

function isFileMetadata(meta: unknown): meta is FileMetadata {
  const m = meta as Partial<FileMetadata> | null;
  return m?.format === 'pathprof-meta/1' && Array.isArray(m.functions);
}
