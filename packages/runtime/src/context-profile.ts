import { ROOT_STACK } from './context-stack';
import type { ContextState, FileContexts } from './context-state';
import type { PathCounter } from './path-counter';
import type { ContextCounts, StackRecord } from './profile-format';

/**
 * What `files` (of one realm) counted per calling context, as their profiles carry it: one pass over the
 * realm's stacks, each file listing the stacks its contexts use (parents first).
 */
export function contextCounts(
  state: ContextState,
  files: readonly FileContexts[],
): Map<FileContexts, ContextCounts> {
  const out = new Map<FileContexts, FileTables>();
  for (const file of files) out.set(file, new FileTables(state));
  for (const [file, tables] of out) {
    file.counts.forEach((n, i) => {
      if (n !== 0) tables.entries.push([-1, i, n]);
    });
    file.paths.forEach((counter, i) => {
      const pairs = counter && nonzeroPaths(counter);
      if (pairs?.length) tables.paths.push([-1, i, pairs]);
    });
  }
  // A stack's values are mostly one file's: the file of the last value is tried first.
  let file: FileContexts | undefined;
  let tables: FileTables | undefined;
  const tablesOf = (v: number): FileTables | undefined => {
    if (file === undefined || v < file.base || v >= file.base + file.size) {
      file = state.fileOf(v);
      tables = file && out.get(file);
    }
    return tables;
  };
  state.stacks.eachCounted(
    (stack, v, n) => {
      const t = tablesOf(v);
      if (t) t.entries.push([t.stack(stack), v - file!.base, n]);
    },
    (stack, v, counter) => {
      const t = tablesOf(v);
      const pairs = t && nonzeroPaths(counter);
      if (t && pairs?.length) t.paths.push([t.stack(stack), v - file!.base, pairs]);
    },
  );
  return new Map(
    [...out].map(([file, t]) => [
      file,
      { stacks: t.stacks, entries: t.entries, ...(t.paths.length ? { paths: t.paths } : {}) },
    ]),
  );
}

/** Whether the file counted any context since its counts were last taken. */
export function countedContexts(state: ContextState, file: FileContexts): boolean {
  if (file.counts.some((n) => n !== 0)) return true;
  const end = file.base + file.size;
  return state.stacks.countedInto(file.base, end);
}

/** Forgets what `files` counted per context (after it was written); the stacks stay. */
export function clearContexts(state: ContextState, files: readonly FileContexts[]): void {
  for (const file of files) {
    file.counts.fill(0);
    file.paths.length = 0;
    state.stacks.clear(file.base, file.base + file.size);
  }
}

/** One file's contexts as its profile lists them: `stack(node)` lists a stack (parents first) on first use. */
export class FileTables {
  readonly stacks: StackRecord[] = [];
  readonly entries: [number, number, number][] = [];
  readonly paths: [number, number, [number, number][]][] = [];
  private readonly index = new Map<number, number>();

  constructor(private readonly state: ContextState) {}

  /** The node's index in this file's stacks, listing it (and its parents first) on first use. */
  stack(node: number): number {
    if (node === ROOT_STACK) return -1;
    const known = this.index.get(node);
    if (known !== undefined) return known;
    const stacks = this.state.stacks;
    const parent = this.stack(stacks.parent(node));
    const callerValue = stacks.caller(node);
    const caller = stacks.cut(node) ? undefined : this.state.fileOf(callerValue);
    const record: StackRecord = caller
      ? [parent, caller.key, caller.hash, callerValue - caller.base, stacks.site(node), stacks.run(node)]
      : [parent, '', '', 0, 0, 0];
    const index = this.stacks.push(record) - 1;
    this.index.set(node, index);
    return index;
  }
}

/** A path counter's nonzero counts, `[path, count]`. */
export function nonzeroPaths(counter: PathCounter): [number, number][] {
  if (!Array.isArray(counter)) return counter.entries().filter(([, n]) => n !== 0);
  const pairs: [number, number][] = [];
  counter.forEach((n, p) => {
    if (n !== 0) pairs.push([p, n]);
  });
  return pairs;
}
