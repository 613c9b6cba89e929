import { ContextMerge } from './context-merge';
import { nodeModules } from './node-fs';
import { ProfileError, validateProfile, type FileProfile, type Profile } from './profile-format';
import { currentRun } from './run';
import { isMetadataFile, resolveMetadata } from './shared-metadata';

/**
 * Reads and checks one profile file, with the metadata files it names (see `shared-metadata.ts`; `metadata`
 * keeps each parsed once across the profiles of a directory); a `ProfileError` names the file and what is
 * wrong with it.
 */
export function readProfile(file: string, metadata = new Map<string, unknown>()): Profile {
  const node = nodeModules();
  if (!node) throw new Error('pathprof: reading profiles needs Node.js');
  let text: string;
  try {
    text = node.fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new ProfileError(file, `cannot read: ${(error as Error).message}`);
  }
  if (text.trim() === '') throw new ProfileError(file, 'empty file');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ProfileError(file, `not valid JSON (truncated or corrupt): ${(error as Error).message}`);
  }
  return validateProfile(resolveMetadata(value, file, metadata), file);
}

/**
 * The profiles of a directory (files named `pathprof-*.json`) that belong to its current run, the ones that
 * could not be used, and how many were left by other runs (not read). A profile without a run (made by
 * hand, or before runs existed) belongs to any run; a directory without a run marker takes every profile.
 */
export function readProfileDirectory(dir: string): {
  profiles: Profile[];
  errors: ProfileError[];
  otherRuns: number;
} {
  const node = nodeModules();
  if (!node) throw new Error('pathprof: reading profiles needs Node.js');
  const names = node.fs
    .readdirSync(dir)
    .filter((n) => n.startsWith('pathprof-') && n.endsWith('.json') && !isMetadataFile(n));
  const run = currentRun(dir);
  const metadata = new Map<string, unknown>();
  const profiles: Profile[] = [];
  const errors: ProfileError[] = [];
  let otherRuns = 0;
  for (const name of names.sort()) {
    try {
      const profile = readProfile(node.path.join(dir, name), metadata);
      if (run === null || profile.run === undefined || profile.run === run) profiles.push(profile);
      else otherRuns++;
    } catch (error) {
      if (error instanceof ProfileError) errors.push(error);
      else throw error;
    }
  }
  return { profiles, errors, otherRuns };
}

/** One file's counts in one test (summed over the profiles that ran it), as `mergeProfiles` gives them. */
export interface FileTestRun {
  readonly testFile: string;
  /**
   * The test's name (describe blocks, then its own); null for what ran outside every test of the file;
   * absent for the whole test file, when its tests were not told apart.
   */
  readonly name?: readonly string[] | null;
  readonly counts: [number, number][];
  readonly hashed: [number, [number, number][]][];
}

/** A file's counts merged over profiles; `tests` when some of them split their counts by test. */
export interface MergedFileProfile extends FileProfile {
  readonly tests?: FileTestRun[];
}

interface Tally {
  readonly counts: Map<number, number>;
  readonly hashed: Map<number, Map<number, number>>;
}

/**
 * Sums profiles file by file: counts of the same file with the same hash and mode add up (calling contexts
 * too, see `ContextMerge`); a file seen with different hashes (its source changed between runs), modes or
 * interesting sets is kept once per hash, mode and set, so nothing is decoded against the wrong graph or
 * counters. Counts split by test (`tests`) are summed per test file and test name.
 */
export function mergeProfiles(profiles: readonly Profile[]): MergedFileProfile[] {
  const merged = new Map<
    string,
    {
      file: FileProfile;
      total: Tally;
      tests: Map<string, Pick<FileTestRun, 'testFile' | 'name'> & { tally: Tally }>;
      contexts: ContextMerge | null;
    }
  >();
  for (const profile of profiles) {
    const ids = new Map<string, string>();
    for (const file of profile.files) {
      // The same source instrumented in two modes, against two interesting sets, or in path mode with and
      // without calling contexts (or with another context budget), counts in two layouts: never added together.
      const meta = file.meta as {
        mode?: unknown;
        preferential?: { digest?: unknown };
        contexts?: { maxContexts?: unknown };
      } | null;
      const layout = [meta?.mode, meta?.preferential?.digest, meta?.contexts?.maxContexts].join('\0');
      const id = `${file.key}\0${file.hash}\0${layout}`;
      ids.set(file.key, id);
      let entry = merged.get(id);
      if (!entry) {
        entry = { file, total: tally(), tests: new Map(), contexts: null };
        merged.set(id, entry);
      }
      add(entry.total, file);
      if (file.contexts) (entry.contexts ??= new ContextMerge()).add(file.contexts);
    }
    // A test file whose tests were not told apart is one test.
    const wholeFile = profile.testFile !== undefined && !profile.tests;
    const tests = wholeFile ? [{ name: undefined, files: profile.files }] : (profile.tests ?? []);
    for (const test of tests) {
      const testId = JSON.stringify([profile.testFile, test.name ?? '']);
      for (const file of test.files) {
        const tests = merged.get(ids.get(file.key)!)!.tests;
        let run = tests.get(testId);
        if (!run) {
          // A profile with tests has a test file (validateProfile).
          run = { testFile: profile.testFile!, name: test.name, tally: tally() };
          tests.set(testId, run);
        }
        add(run.tally, file);
      }
    }
  }
  return [...merged.values()].map(({ file, total, tests, contexts }) => ({
    key: file.key,
    hash: file.hash,
    meta: file.meta,
    ...pairs(total),
    ...(tests.size
      ? {
          tests: [...tests.values()].map(({ testFile, name, tally }) => ({
            testFile,
            name,
            ...pairs(tally),
          })),
        }
      : {}),
    ...(contexts ? { contexts: contexts.result() } : {}),
  }));
}

function tally(): Tally {
  return { counts: new Map(), hashed: new Map() };
}

function add(to: Tally, file: Pick<FileProfile, 'counts' | 'hashed'>): void {
  for (const [i, n] of file.counts) to.counts.set(i, (to.counts.get(i) ?? 0) + n);
  for (const [slot, pairs] of file.hashed) {
    const table = to.hashed.get(slot) ?? new Map<number, number>();
    for (const [path, n] of pairs) table.set(path, (table.get(path) ?? 0) + n);
    to.hashed.set(slot, table);
  }
}

function pairs(t: Tally): Pick<FileProfile, 'counts' | 'hashed'> {
  return {
    counts: [...t.counts].sort((a, b) => a[0] - b[0]),
    hashed: [...t.hashed]
      .sort((a, b) => a[0] - b[0])
      .map(([slot, table]): [number, [number, number][]] => [slot, [...table].sort((a, b) => a[0] - b[0])]),
  };
}
