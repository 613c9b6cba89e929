import type { TestCounts } from './test-attribution';

/**
 * The profile file, versions 1, 2 and 3: what one realm counted, with the metadata needed to decode it. Written as
 * JSON by `writeProfiles`, read back by `readProfile` and merged by `mergeProfiles`.
 *
 * ```
 * { "format": "pathprof-profile/1", "created": ISO-8601, "pid": number | null, "run"?: string,
 *   "files": [ { "key", "hash", "meta": <plugin metadata>,
 *                "counts": [[counterIndex, count], …],            // nonzero array counters
 *                "hashed": [[slot, [[pathNumber, count], …]], …] } ] } // hash-mode functions
 * ```
 * Counts are exact integers (< 2^53). `meta` is the plugin's `pathprof-meta/1` object, kept opaque here.
 * `run` is the id of the run that wrote it (see `run.ts`); profiles made by hand (a browser's) have none.
 *
 * A test file's profile names it (`"testFile"`, relative to the working directory) and may split its counts
 * by test (`test-attribution.ts`): `"tests": [{ "name": [describe…, test] | null, "files": [{ "key",
 * "counts", "hashed" }] }]`, each count of `files` in exactly one test's entry (`name` null: outside every
 * test). A file counting calling contexts has its test's `contexts` too (the layout below), summing over the
 * tests to the file's. Readers that do not know these fields read the totals in `files` as before, so the
 * format's version is unchanged.
 *
 * Version 2 is version 1 where files may hold interprocedural counts (`meta.mode` is `interprocedural`): one
 * counter per file-wide path number, in `counts` or in the hash table of slot 0; or preferential counts
 * (`meta.mode` is `preferential`): per function, its interesting paths' counters in `counts` and its
 * residual paths in a hash table, by Ball-Larus id. Readers of version 1 did not know these layouts, so a
 * profile with such a file is written as version 2 (they refuse it, naming the format) and every other
 * profile stays version 1.
 *
 * Version 3 is version 2 where files may also hold calling contexts (the plugin's `contexts` option;
 * `meta.mode` is `contexts`, or `path` with `meta.contexts`): `contexts` counts each calling context's entries
 * and, in path mode, the paths taken in it (the file then has no `counts` or `hashed` of its own: a function's
 * paths are the sum over its contexts). A context is a value of the file's context numbering (a function and
 * its context id in the file) on an encoding stack; stacks are listed in the file, parents first:
 *
 * ```
 * "contexts": { "stacks": [[parent, callerKey, callerHash, callerValue, site, run], …],  // parent -1: empty
 *               "entries": [[stack, value, count], …],                                  // stack -1: empty
 *               "paths": [[stack, value, [[pathNumber, count], …]], …] }                // path mode only
 * ```
 * A stack entry names the activation that was running when a function was entered other than by a numbered
 * call: its file (key and hash), its context value there, and the call site (1 + its id in that file; 0 for a
 * callback, a method or another unknown call); `run` identical entries on top of each other (recursion). A
 * stack with `run` 0 is cut: what was pushed on its parent once the realm held its most stacks. Version 1 and 2
 * readers would misread such a file, so a profile with one is version 3 (whatever its other files hold);
 * other profiles keep their version.
 */
export const PROFILE_FORMAT = 'pathprof-profile/1';
export const INTERPROCEDURAL_PROFILE_FORMAT = 'pathprof-profile/2';
export const CONTEXTS_PROFILE_FORMAT = 'pathprof-profile/3';
const FORMATS: readonly string[] = [PROFILE_FORMAT, INTERPROCEDURAL_PROFILE_FORMAT, CONTEXTS_PROFILE_FORMAT];

/** An encoding stack: its parent (-1: the empty stack), then its top entry, repeated `run` times (0: cut). */
export type StackRecord = [
  parent: number,
  callerKey: string,
  callerHash: string,
  callerValue: number,
  site: number,
  run: number,
];

/** A file's calling contexts in a profile (version 3). */
export interface ContextCounts {
  readonly stacks: StackRecord[];
  /** `[stack, context value, entries]`. */
  readonly entries: [number, number, number][];
  /** Paths per context: `[stack, context value, [[path, count], …]]`. */
  readonly paths?: [number, number, [number, number][]][];
}

/** A file's counts in a profile; `Pairs` is how its `[key, count]` lists are held (`PairList` when packed). */
export interface FileProfile<Pairs = [number, number][]> {
  readonly key: string;
  readonly hash: string;
  readonly meta: unknown;
  readonly counts: Pairs;
  readonly hashed: [number, Pairs][];
  readonly contexts?: ContextCounts;
}

export interface Profile<Pairs = [number, number][]> {
  readonly format:
    typeof PROFILE_FORMAT | typeof INTERPROCEDURAL_PROFILE_FORMAT | typeof CONTEXTS_PROFILE_FORMAT;
  readonly created: string;
  readonly pid: number | null;
  readonly run?: string;
  readonly files: FileProfile<Pairs>[];
  /** The test file whose counts these are, when they are split by test. */
  readonly testFile?: string;
  readonly tests?: TestCounts<Pairs>[];
}

/**
 * The format a profile of these files is written in: version 3 when one holds calling contexts, else 2 when
 * one holds interprocedural or preferential counts, else 1.
 */
export function profileFormatOf(files: readonly FileProfile[]): Profile['format'] {
  if (files.some((f) => f.contexts)) return CONTEXTS_PROFILE_FORMAT;
  const newer = files.some((f) => {
    const mode = (f.meta as { mode?: unknown }).mode;
    return mode === 'interprocedural' || mode === 'preferential';
  });
  return newer ? INTERPROCEDURAL_PROFILE_FORMAT : PROFILE_FORMAT;
}

/** A profile that cannot be used, with the file it came from and what is wrong. */
export class ProfileError extends Error {
  constructor(
    readonly path: string,
    problem: string,
  ) {
    super(`${path}: ${problem}`);
    this.name = 'ProfileError';
  }
}

/** Checks the shape of a parsed profile; throws a `ProfileError` naming the first problem. */
export function validateProfile<Pairs = [number, number][]>(value: unknown, path: string): Profile<Pairs> {
  const fail = (problem: string): never => {
    throw new ProfileError(path, problem);
  };
  if (!isObject(value)) return fail('not a JSON object');
  if (typeof value.format !== 'string' || !FORMATS.includes(value.format)) {
    const quoted = FORMATS.map((f) => JSON.stringify(f));
    const expected = `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
    return fail(`not a pathprof profile (format ${JSON.stringify(value.format)}, expected ${expected})`);
  }
  if (value.run !== undefined && typeof value.run !== 'string') return fail('"run" is not a string');
  if (!Array.isArray(value.files)) return fail('"files" is not an array');
  value.files.forEach((f: unknown, i: number) => {
    if (!isObject(f)) return fail(`files[${i}] is not an object`);
    if (typeof f.key !== 'string' || typeof f.hash !== 'string')
      return fail(`files[${i}] has no key or hash`);
    checkCounts(f, `files[${i}]`, fail);
    if (f.contexts !== undefined) {
      const problem = contextsProblem(f.contexts);
      if (problem) return fail(`files[${i}].contexts: ${problem}`);
    }
  });
  if (value.testFile !== undefined && typeof value.testFile !== 'string')
    return fail('"testFile" is not a string');
  if (value.tests !== undefined) {
    if (typeof value.testFile !== 'string') return fail('"tests" without a "testFile"');
    if (!Array.isArray(value.tests)) return fail('"tests" is not an array');
    const keys = new Set((value.files as { key: string }[]).map((f) => f.key));
    value.tests.forEach((t: unknown, i: number) => {
      const at = `tests[${i}]`;
      if (!isObject(t)) return fail(`${at} is not an object`);
      if (t.name !== null && !(Array.isArray(t.name) && t.name.every((n) => typeof n === 'string')))
        return fail(`${at}.name is neither null nor a list of names`);
      if (!Array.isArray(t.files)) return fail(`${at}.files is not an array`);
      t.files.forEach((f: unknown, j: number) => {
        if (!isObject(f) || typeof f.key !== 'string' || !keys.has(f.key))
          return fail(`${at}.files[${j}] names no file of the profile`);
        checkCounts(f, `${at}.files[${j}]`, fail);
        if (f.contexts !== undefined) {
          const problem = contextsProblem(f.contexts);
          if (problem) return fail(`${at}.files[${j}].contexts: ${problem}`);
        }
      });
    });
  }
  return value as unknown as Profile<Pairs>;
}

function checkCounts(f: Record<string, unknown>, at: string, fail: (problem: string) => never): void {
  if (!isPairs(f.counts)) fail(`${at}.counts is not a list of [index, count] pairs`);
  if (!Array.isArray(f.hashed) || !f.hashed.every((h) => Array.isArray(h) && isCount(h[0]) && isPairs(h[1])))
    fail(`${at}.hashed is not a list of [slot, pairs]`);
}

/** What is wrong with a file's `contexts`, or null: stacks refer to earlier stacks, entries to stacks. */
function contextsProblem(c: unknown): string | null {
  if (!isObject(c)) return 'not an object';
  const { stacks, entries, paths } = c;
  if (!Array.isArray(stacks)) return '"stacks" is not an array';
  for (let i = 0; i < stacks.length; i++) {
    const s: unknown = stacks[i];
    if (
      !Array.isArray(s) ||
      s.length !== 6 ||
      !Number.isInteger(s[0]) ||
      s[0] < -1 ||
      s[0] >= i ||
      typeof s[1] !== 'string' ||
      typeof s[2] !== 'string' ||
      !isCount(s[3]) ||
      !isCount(s[4]) ||
      !isCount(s[5])
    )
      return `stacks[${i}] is not [earlier stack, caller key, caller hash, value, site, run]`;
  }
  const isStack = (v: unknown) => Number.isInteger(v) && (v as number) >= -1 && (v as number) < stacks.length;
  if (!Array.isArray(entries)) return '"entries" is not an array';
  for (const e of entries as unknown[]) {
    if (!Array.isArray(e) || e.length !== 3 || !isStack(e[0]) || !isCount(e[1]) || !isCount(e[2]))
      return `entry ${JSON.stringify(e)} is not [stack, context value, count]`;
  }
  if (paths !== undefined) {
    if (!Array.isArray(paths)) return '"paths" is not an array';
    for (const p of paths as unknown[]) {
      if (!Array.isArray(p) || p.length !== 3 || !isStack(p[0]) || !isCount(p[1]) || !isPairs(p[2]))
        return `paths entry ${JSON.stringify(p)} is not [stack, context value, [[path, count], …]]`;
    }
  }
  return null;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}

function isPairs(v: unknown): boolean {
  return (
    Array.isArray(v) &&
    v.every((p) => Array.isArray(p) && p.length === 2 && Number.isSafeInteger(p[0]) && isCount(p[1]))
  );
}
