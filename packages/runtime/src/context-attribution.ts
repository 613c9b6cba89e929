import { FileTables, nonzeroPaths } from './context-profile';
import { ROOT_STACK } from './context-stack';
import type { ContextState, FileContexts } from './context-state';
import type { PathCounter } from './path-counter';
import type { ContextCounts } from './profile-format';

/**
 * What one file counted per calling context over some stretch of a run: entries, then paths, by the realm's
 * encoding-stack node and the context's realm-wide value. Nodes stay valid for the realm's life (stacks are
 * never forgotten, only their counts), so these become a profile's `contexts` only when taken.
 */
export interface ContextTally {
  /** Entries into a stack's own context (its callee's context id 0, counted in a field), by stack. */
  readonly own: Map<number, number>;
  readonly entries: Map<number, Map<number, number>>;
  readonly paths: Map<number, Map<number, Map<number, number>>>;
}

export function contextTally(): ContextTally {
  return { own: new Map(), entries: new Map(), paths: new Map() };
}

/**
 * What a realm's contexts held at the last test boundary. Most entries are counted in a stack's own field
 * (its callee's context id 0): those are remembered by stack in a typed array, so that a boundary in a full
 * realm (100,000 stacks) is not a hash lookup per entry; the others, and paths, per file.
 */
export class ContextsSeen {
  private own = new Float64Array(1024);
  private readonly files = new WeakMap<FileContexts, ContextTally>();

  /** What stack `s`'s own field held; `s`'s slot made if needed. */
  ownOf(s: number): number {
    if (s >= this.own.length) {
      const grown = new Float64Array(Math.max(2 * this.own.length, s + 1));
      grown.set(this.own);
      this.own = grown;
    }
    return this.own[s];
  }

  setOwn(s: number, n: number): void {
    this.own[s] = n;
  }

  of(file: FileContexts): ContextTally {
    let tally = this.files.get(file);
    if (!tally) this.files.set(file, (tally = contextTally()));
    return tally;
  }

  /** `file`'s contexts were written and cleared: they count from zero again. */
  forget(file: FileContexts): void {
    this.files.delete(file);
    const stacks = file.state.stacks;
    const end = Math.min(this.own.length, stacks.size);
    for (let s = 1; s < end; s++) {
      const callee = stacks.callee(s);
      if (callee >= file.base && callee < file.base + file.size) this.own[s] = 0;
    }
  }
}

/**
 * Adds to `gainsOf(file)` what each of `files` counted per context since the last call (or since it was last
 * cleared), remembering in `seen` what its counters hold now. One pass over the realm's stacks (as the profile
 * writer makes), so a test boundary costs time in the realm's number of stacks: it is made only when tests
 * are told apart by name.
 */
export function settleContexts(
  state: ContextState,
  files: ReadonlySet<FileContexts>,
  seen: ContextsSeen,
  gainsOf: (file: FileContexts) => ContextTally,
): void {
  const stacks = state.stacks;
  const entry = (file: FileContexts, s: number, v: number, n: number) => {
    if (s !== ROOT_STACK && v === stacks.callee(s)) {
      const gained = n - seen.ownOf(s);
      if (gained === 0) return;
      seen.setOwn(s, n);
      const { own } = gainsOf(file);
      own.set(s, (own.get(s) ?? 0) + gained);
      return;
    }
    const before = inner(seen.of(file).entries, s);
    const gained = n - (before.get(v) ?? 0);
    if (gained === 0) return;
    before.set(v, n);
    const gains = inner(gainsOf(file).entries, s);
    gains.set(v, (gains.get(v) ?? 0) + gained);
  };
  const paths = (file: FileContexts, s: number, v: number, counter: PathCounter) => {
    let before: Map<number, number> | undefined;
    let gains: Map<number, number> | undefined;
    for (const [path, n] of nonzeroPaths(counter)) {
      before ??= inner(inner(seen.of(file).paths, s), v);
      const gained = n - (before.get(path) ?? 0);
      if (gained === 0) continue;
      before.set(path, n);
      gains ??= inner(inner(gainsOf(file).paths, s), v);
      gains.set(path, (gains.get(path) ?? 0) + gained);
    }
  };
  for (const file of files) {
    file.counts.forEach((n, i) => {
      if (n !== 0) entry(file, ROOT_STACK, file.base + i, n);
    });
    file.paths.forEach((counter, i) => {
      if (counter) paths(file, ROOT_STACK, file.base + i, counter);
    });
  }
  // A stack's values are mostly one file's: the file of the last value is tried first.
  let file: FileContexts | undefined;
  const fileOf = (v: number): FileContexts | undefined => {
    if (file === undefined || v < file.base || v >= file.base + file.size) file = state.fileOf(v);
    return file && files.has(file) ? file : undefined;
  };
  stacks.eachCounted(
    (s, v, n) => {
      const f = fileOf(v);
      if (f) entry(f, s, v, n);
    },
    (s, v, counter) => {
      const f = fileOf(v);
      if (f) paths(f, s, v, counter);
    },
  );
}

/** A tally of `file`'s contexts as its profile carries them (its stacks listed, parents first). */
export function tallyCounts(file: FileContexts, tally: ContextTally): ContextCounts {
  const tables = new FileTables(file.state);
  const entries: [number, number, number][] = [];
  const { stacks } = file.state;
  for (const [s, n] of tally.own) entries.push([tables.stack(s), stacks.callee(s) - file.base, n]);
  for (const [s, values] of tally.entries) {
    for (const [v, n] of values) entries.push([tables.stack(s), v - file.base, n]);
  }
  const paths: [number, number, [number, number][]][] = [];
  for (const [s, values] of tally.paths) {
    for (const [v, counts] of values)
      paths.push([tables.stack(s), v - file.base, [...counts].sort((a, b) => a[0] - b[0])]);
  }
  // In context order, as the merge gives them.
  const byContext = (a: [number, number, ...unknown[]], b: [number, number, ...unknown[]]) =>
    a[0] - b[0] || a[1] - b[1];
  entries.sort(byContext);
  paths.sort(byContext);
  return { stacks: tables.stacks, entries, ...(paths.length ? { paths } : {}) };
}

function inner<V>(outer: Map<number, Map<number, V>>, key: number): Map<number, V> {
  let map = outer.get(key);
  if (!map) outer.set(key, (map = new Map()));
  return map;
}
