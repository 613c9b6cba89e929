import { ContextMerge } from './context-merge';
import { countPairs, CountSum, type CountColumns } from './count-sum';
import type { PairList } from './packed-pairs';
import type { ContextCounts, FileProfile, Profile } from './profile-format';

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

/** Counters and hash tables as `mergeProfileCounts` sums them: columns, hash tables by increasing slot. */
export interface CountTables {
  readonly counts: CountColumns;
  readonly hashed: [number, CountColumns][];
}

/** `FileTestRun` with its counts in columns. */
export interface TestRunCounts extends CountTables {
  readonly testFile: string;
  readonly name?: readonly string[] | null;
}

/** `MergedFileProfile` with its counts in columns: no object per counted path. */
export interface MergedFileCounts extends CountTables {
  readonly key: string;
  readonly hash: string;
  readonly meta: unknown;
  readonly contexts?: ContextCounts;
  readonly tests?: TestRunCounts[];
  /**
   * The calling contexts (and paths counted per context) of each test whose profiles have them, named as in
   * `tests`: per test when its profile split them by test, else per test file (a test file's profile is its
   * own realm's); exact either way.
   */
  readonly testContexts?: TestContexts[];
}

/** One test's calling contexts (`name` as `FileTestRun`'s: absent for a whole test file). */
export interface TestContexts {
  readonly testFile: string;
  readonly name?: readonly string[] | null;
  readonly contexts: ContextCounts;
}

interface Tally {
  readonly counts: CountSum;
  readonly hashed: Map<number, CountSum>;
}

/**
 * Sums profiles file by file (see `ProfileMerge`), counts as `[index, count]` pairs in increasing order.
 */
export function mergeProfiles(profiles: readonly Profile[]): MergedFileProfile[] {
  return mergeProfileCounts(profiles).map((file) => ({
    key: file.key,
    hash: file.hash,
    meta: file.meta,
    ...pairs(file),
    ...(file.tests
      ? { tests: file.tests.map((run) => ({ testFile: run.testFile, name: run.name, ...pairs(run) })) }
      : {}),
    ...(file.contexts ? { contexts: file.contexts } : {}),
  }));
}

/** What `mergeProfiles` sums, with the counts in columns (what a report of millions of paths reads). */
export function mergeProfileCounts(profiles: readonly Profile<PairList>[]): MergedFileCounts[] {
  const merge = new ProfileMerge();
  for (const profile of profiles) merge.add(profile);
  return merge.result();
}

interface MergedEntry {
  readonly file: Pick<FileProfile, 'key' | 'hash' | 'meta'>;
  readonly total: Tally;
  readonly tests: Map<string, Pick<FileTestRun, 'testFile' | 'name'> & { tally: Tally }>;
  contexts: ContextMerge | null;
  readonly testContexts: Map<string, Pick<TestContexts, 'testFile' | 'name'> & { merge: ContextMerge }>;
}

/**
 * Sums profiles file by file, one at a time: counts of the same file with the same hash and mode add up
 * (calling contexts too, see `ContextMerge`); a file seen with different hashes (its source changed between
 * runs), modes or interesting sets is kept once per hash, mode and set, so nothing is decoded against the
 * wrong graph or counters. Counts split by test (`tests`) are summed per test file and test name. Counts are
 * copied into typed arrays as they come (`CountSum`): a profile added can be dropped.
 */
export class ProfileMerge {
  private readonly merged = new Map<string, MergedEntry>();

  add(profile: Profile<PairList>): void {
    const { merged } = this;
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
        const { key, hash } = file;
        entry = {
          file: { key, hash, meta: file.meta },
          total: tally(),
          tests: new Map(),
          contexts: null,
          testContexts: new Map(),
        };
        merged.set(id, entry);
      }
      add(entry.total, file);
      if (file.contexts) (entry.contexts ??= new ContextMerge()).add(file.contexts);
    }
    // A test file whose tests were not told apart is one test.
    const wholeFile = profile.testFile !== undefined && !profile.tests;
    const tests = wholeFile ? [{ name: undefined, files: profile.files }] : (profile.tests ?? []);
    // Contexts split by test are the tests'; a profile that split only its counters (written before the
    // runtime split contexts) gives its test file its contexts whole.
    const splitContexts = new Set(tests.flatMap((t) => t.files.flatMap((f) => (f.contexts ? [f.key] : []))));
    for (const test of tests) {
      const testId = JSON.stringify([profile.testFile, test.name ?? '']);
      for (const file of test.files) {
        const entry = merged.get(ids.get(file.key)!)!;
        let run = entry.tests.get(testId);
        if (!run) {
          // A profile with tests has a test file (validateProfile).
          run = { testFile: profile.testFile!, name: test.name, tally: tally() };
          entry.tests.set(testId, run);
        }
        add(run.tally, file);
        if (file.contexts) testContextsOf(entry, testId, run).add(file.contexts);
      }
    }
    if (profile.testFile === undefined) return;
    for (const file of profile.files) {
      if (!file.contexts || splitContexts.has(file.key)) continue;
      const testId = JSON.stringify([profile.testFile]);
      testContextsOf(merged.get(ids.get(file.key)!)!, testId, { testFile: profile.testFile }).add(
        file.contexts,
      );
    }
  }

  /** The sums of the profiles added, by file in the order first seen. */
  result(): MergedFileCounts[] {
    return [...this.merged.values()].map(({ file, total, tests, contexts, testContexts }) => ({
      key: file.key,
      hash: file.hash,
      meta: file.meta,
      ...sums(total),
      ...(tests.size
        ? {
            tests: [...tests.values()].map(({ testFile, name, tally }) => ({
              testFile,
              name,
              ...sums(tally),
            })),
          }
        : {}),
      ...(contexts ? { contexts: contexts.result() } : {}),
      ...(testContexts.size
        ? {
            testContexts: [...testContexts.values()].map(({ testFile, name, merge }) => ({
              testFile,
              name,
              contexts: merge.result(),
            })),
          }
        : {}),
    }));
  }
}

function testContextsOf(
  entry: MergedEntry,
  testId: string,
  test: Pick<TestContexts, 'testFile' | 'name'>,
): ContextMerge {
  let known = entry.testContexts.get(testId);
  if (!known)
    entry.testContexts.set(
      testId,
      (known = { testFile: test.testFile, name: test.name, merge: new ContextMerge() }),
    );
  return known.merge;
}

function tally(): Tally {
  return { counts: new CountSum(), hashed: new Map() };
}

function add(to: Tally, file: Pick<FileProfile<PairList>, 'counts' | 'hashed'>): void {
  to.counts.add(file.counts);
  for (const [slot, pairs] of file.hashed) {
    let table = to.hashed.get(slot);
    if (!table) to.hashed.set(slot, (table = new CountSum()));
    table.add(pairs);
  }
}

function sums(t: Tally): CountTables {
  return {
    counts: t.counts.result(),
    hashed: [...t.hashed]
      .sort((a, b) => a[0] - b[0])
      .map(([slot, table]): [number, CountColumns] => [slot, table.result()]),
  };
}

function pairs(t: CountTables): Pick<FileProfile, 'counts' | 'hashed'> {
  return {
    counts: countPairs(t.counts),
    hashed: t.hashed.map(([slot, table]): [number, [number, number][]] => [slot, countPairs(table)]),
  };
}
