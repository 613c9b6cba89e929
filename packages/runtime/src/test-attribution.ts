import {
  contextTally,
  ContextsSeen,
  settleContexts,
  tallyCounts,
  type ContextTally,
} from './context-attribution';
import type { FileContexts } from './context-state';
import type { ContextCounts } from './profile-format';
import type { FileRecord, PathprofStore } from './store';
import { flushCounts } from './variable-counts';

/** A test's name: its describe blocks' names, then its own. */
export type TestName = readonly string[];

/**
 * What one file counted during one test (or outside every test): nonzero counters, and its calling contexts
 * when it counts them, as a profile holds them.
 */
export interface FileTestCounts<Pairs = [number, number][]> {
  readonly key: string;
  readonly counts: Pairs;
  readonly hashed: [number, Pairs][];
  readonly contexts?: ContextCounts;
}

/** The counts of one test of a test file, or (`name` null) of what ran outside its tests: loading, hooks. */
export interface TestCounts<Pairs = [number, number][]> {
  readonly name: TestName | null;
  readonly files: FileTestCounts<Pairs>[];
}

/** The test file whose counts a profile holds, and when asked for, its counts split by test. */
export interface TestAttribution {
  /** The test file, relative to the working directory, `/`-separated. */
  readonly testFile: string;
  /** Each count of the profile in exactly one entry; absent when tests were not told apart. */
  readonly tests?: TestCounts[];
}

interface Tally {
  readonly counts: Map<number, number>;
  readonly hashed: Map<number, Map<number, number>>;
  /** Calling contexts, of the record's contexts when the test ran (a changed file replaces them). */
  contexts?: { readonly file: FileContexts; readonly tally: ContextTally };
}

/** What the counters held at the last boundary, per record (a record replaced by a changed file starts anew). */
interface Seen {
  counts: Float64Array;
  hashed: Map<number, number>[];
  /**
   * In Node: whether counters `[from, to)` (by default all of them) still hold what they held then, compared
   * natively (memcmp).
   */
  unchanged: ((from?: number, to?: number) => boolean) | null;
}

/**
 * Counters compared at once: a test changes few of a realm's counters (tens of thousands in a large library),
 * so whole runs of them are found unchanged by one native comparison instead of a loop in a realm whose code
 * is never warm (jest loads the runtime anew for each test file: a loop over every counter at each test's
 * start and end cost luxon's suite 15% more CPU time).
 */
const RUN = 256;
/** Within a run that changed, the parts compared again before looking at each counter. */
const PART = 16;

interface Tracker {
  readonly testFile: string;
  readonly byName: boolean;
  /** Per test (by its name's JSON, `null` outside tests): per file key, its counts since attribution began. */
  readonly tallies: Map<string, Map<string, Tally>>;
  readonly seen: WeakMap<FileRecord, Seen>;
  /** What each file's calling contexts held at the last boundary. */
  readonly contextsSeen: ContextsSeen;
  current: TestName | null;
}

/** On the store itself, so every copy of the runtime in the realm (a module registry reset) sees it. */
const TRACKER = Symbol.for('pathprof.test-attribution');
type Tracked = PathprofStore & { [TRACKER]?: Tracker };
const trackers = {
  get: (store: PathprofStore) => (store as Tracked)[TRACKER],
  set: (store: PathprofStore, tracker: Tracker) =>
    Object.defineProperty(store, TRACKER, { value: tracker, configurable: true, writable: true }),
};

/**
 * This realm's counts are a test file's (a jest test file: its setup file or environment calls this), and with
 * `byName`, split by test from now on (the caller marks each test's start and end). Counts of code that runs
 * between tests (module loading, `beforeAll`, `afterAll`) then go to no test; a `beforeEach` or `afterEach`
 * counts toward its test. Tests that run concurrently (`test.concurrent`) or code a test leaves running (a
 * timer firing later) are attributed to whichever test is running when the path ends. Telling tests apart
 * compares the realm's counters at each test's start and end: about a tenth more CPU time on a large
 * library's suite (luxon, jest 29), so it is asked for; with calling contexts, it also walks the realm's
 * encoding stacks at each boundary (in a full realm of 100,000 stacks, acorn's: 9 ms of CPU with nothing
 * counted since the last boundary, 31 ms after a parse that took 57 ms).
 */
export function attributeTests(store: PathprofStore, testFile: string, byName = false): void {
  trackers.set(store, {
    testFile,
    byName,
    tallies: new Map(),
    seen: new WeakMap(),
    contextsSeen: new ContextsSeen(),
    current: null,
  });
}

/** A jest-circus test's name: its describe blocks' names (below the root block), then its own. */
export function circusTestName(test: { name: string; parent?: unknown }): string[] {
  const names: string[] = [];
  for (let block = test; block.parent; block = block.parent as typeof test) names.unshift(block.name);
  return names;
}

/** A test starts: what ran since the last boundary goes to no test. */
export function testStarted(store: PathprofStore, name: TestName): void {
  const tracker = trackers.get(store);
  if (!tracker?.byName) return;
  settle(store, tracker);
  tracker.current = name;
}

/** The running test ends (passed, failed or skipped): what ran since it started is its own. */
export function testEnded(store: PathprofStore): void {
  const tracker = trackers.get(store);
  if (!tracker?.byName) return;
  settle(store, tracker);
  tracker.current = null;
}

/**
 * The test file, and when tests are told apart the counts of `keys` so far split by test (what ran since the
 * last boundary to the running test, or to none), then forgotten with the counters themselves
 * (`writeProfiles` zeroes them); null when the realm is no test file's.
 */
export function takeTestAttribution(store: PathprofStore, keys: ReadonlySet<string>): TestAttribution | null {
  const tracker = trackers.get(store);
  if (!tracker) return null;
  if (!tracker.byName) return { testFile: tracker.testFile };
  settle(store, tracker);
  const tests: TestCounts[] = [];
  for (const [name, byFile] of tracker.tallies) {
    const files: FileTestCounts[] = [];
    for (const [key, tally] of byFile) {
      if (!keys.has(key)) continue;
      const { contexts } = tally;
      files.push({
        key,
        counts: [...tally.counts].sort((a, b) => a[0] - b[0]),
        hashed: [...tally.hashed].map(([slot, paths]) => [slot, [...paths].sort((a, b) => a[0] - b[0])]),
        ...(contexts ? { contexts: tallyCounts(contexts.file, contexts.tally) } : {}),
      });
      byFile.delete(key);
    }
    if (files.length) tests.push({ name: JSON.parse(name) as TestName | null, files });
  }
  return { testFile: tracker.testFile, tests };
}

/** The records of `keys` were written and zeroed: their next counts start from zero. */
export function forgetSeen(store: PathprofStore, records: readonly FileRecord[]): void {
  const tracker = trackers.get(store);
  if (!tracker) return;
  for (const record of records) {
    tracker.seen.delete(record);
    if (record.contexts) tracker.contextsSeen.forget(record.contexts);
  }
}

/** Adds what every counter gained since the last boundary to the current test's (or no test's) tally. */
function settle(store: PathprofStore, tracker: Tracker): void {
  const name = JSON.stringify(tracker.current);
  let byFile = tracker.tallies.get(name);
  const tallyOfKey = (key: string): Tally => {
    if (!byFile) tracker.tallies.set(name, (byFile = new Map()));
    let tally = byFile.get(key);
    if (!tally) byFile.set(key, (tally = { counts: new Map(), hashed: new Map() }));
    return tally;
  };
  const records = Object.values(store.files);
  for (const record of records) {
    flushCounts(record);
    let seen = tracker.seen.get(record);
    if (!seen) {
      const counts = new Float64Array(record.counts.length);
      seen = { counts, hashed: [], unchanged: comparer(record.counts, counts) };
      tracker.seen.set(record, seen);
    }
    // Most files run no code in a given test: one comparison of all their counters.
    if (record.hashed.length === 0 && seen.unchanged?.()) continue;
    let tally: Tally | undefined;
    const tallyOf = () => (tally ??= tallyOfKey(record.key));
    const { counts } = record;
    const { unchanged } = seen;
    const scanned = unchanged?.() ? 0 : counts.length;
    for (let from = 0; from < scanned; from += RUN) {
      const to = Math.min(from + RUN, counts.length);
      if (unchanged?.(from, to)) continue;
      for (let part = from; part < to; part += PART) {
        const end = Math.min(part + PART, to);
        if (unchanged?.(part, end)) continue;
        for (let i = part; i < end; i++) {
          const gained = counts[i] - seen.counts[i];
          if (gained === 0) continue;
          const t = tallyOf();
          t.counts.set(i, (t.counts.get(i) ?? 0) + gained);
          seen.counts[i] = counts[i];
        }
      }
    }
    record.hashed.forEach((counter, slot) => {
      const before = (seen.hashed[slot] ??= new Map());
      for (const [path, n] of counter.entries()) {
        const gained = n - (before.get(path) ?? 0);
        if (gained === 0) continue;
        const t = tallyOf();
        let paths = t.hashed.get(slot);
        if (!paths) t.hashed.set(slot, (paths = new Map()));
        paths.set(path, (paths.get(path) ?? 0) + gained);
        before.set(path, n);
      }
    });
  }
  const withContexts = new Set(records.flatMap((r) => (r.contexts ? [r.contexts] : [])));
  if (!store.contexts || withContexts.size === 0) return;
  settleContexts(store.contexts, withContexts, tracker.contextsSeen, (file) => {
    const tally = tallyOfKey(file.key);
    // A file changed within the test (same key, new contexts) counts from then on; its earlier contexts
    // were the replaced record's, which no profile writes.
    if (tally.contexts?.file !== file) tally.contexts = { file, tally: contextTally() };
    return tally.contexts.tally;
  });
}

/** In Node, a native comparison of runs of `counts` with `seen` (their bytes: counts are never -0 or NaN). */
function comparer(counts: Float64Array, seen: Float64Array): Seen['unchanged'] {
  const p = (globalThis as { process?: NodeJS.Process }).process;
  const buffer = p?.getBuiltinModule?.('node:buffer')?.Buffer;
  if (!buffer) return null;
  const now = buffer.from(counts.buffer, counts.byteOffset, counts.byteLength);
  const then = buffer.from(seen.buffer, seen.byteOffset, seen.byteLength);
  return (from, to) =>
    from === undefined ? now.equals(then) : now.compare(then, 8 * from, 8 * to!, 8 * from, 8 * to!) === 0;
}
