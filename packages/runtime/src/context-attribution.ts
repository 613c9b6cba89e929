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
  readonly entries: Map<number, Map<number, number>>;
  readonly paths: Map<number, Map<number, Map<number, number>>>;
}

export function contextTally(): ContextTally {
  return { entries: new Map(), paths: new Map() };
}

/**
 * Adds to `gainsOf(file)` what each of `files` counted per context since the last call (or since it was last
 * cleared), remembering in `seen` what its counters hold now; `seen` forgets a file whose counts were written
 * and cleared (`WeakMap.delete`). One pass over the realm's stacks (as the profile writer makes), so a test
 * boundary costs time in the realm's number of stacks: it is made only when tests are told apart by name.
 */
export function settleContexts(
  state: ContextState,
  files: ReadonlySet<FileContexts>,
  seen: WeakMap<FileContexts, ContextTally>,
  gainsOf: (file: FileContexts) => ContextTally,
): void {
  const seenOf = (file: FileContexts) => {
    let tally = seen.get(file);
    if (!tally) seen.set(file, (tally = contextTally()));
    return tally;
  };
  const entry = (file: FileContexts, s: number, v: number, n: number) => {
    const before = inner(seenOf(file).entries, s);
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
      before ??= inner(inner(seenOf(file).paths, s), v);
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
  state.stacks.eachCounted(
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
  for (const [s, values] of tally.entries) {
    for (const [v, n] of values) entries.push([tables.stack(s), v - file.base, n]);
  }
  const paths: [number, number, [number, number][]][] = [];
  for (const [s, values] of tally.paths) {
    for (const [v, counts] of values)
      paths.push([tables.stack(s), v - file.base, [...counts].sort((a, b) => a[0] - b[0])]);
  }
  return { stacks: tables.stacks, entries, ...(paths.length ? { paths } : {}) };
}

function inner<V>(outer: Map<number, Map<number, V>>, key: number): Map<number, V> {
  let map = outer.get(key);
  if (!map) outer.set(key, (map = new Map()));
  return map;
}
