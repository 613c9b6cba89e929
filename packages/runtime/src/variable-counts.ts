import type { FileRecord } from './store';

/**
 * The values of one evaluation's counter variables, in the order of its slot runs, or `undefined` for each
 * before the file's body declared them (an ES module's hoisted function registered the file first).
 */
export type TakeVariables = () => ArrayLike<number | undefined>;

/**
 * Counters an instrumented file keeps in module-level variables rather than its counter array (constant-index
 * counts: edge mode's, and path mode's where the plugin's names are short): in unoptimised code `v++` of a
 * module variable costs a third of `C[k]++` into a typed array (bench/NOTES.md, "counts in module variables").
 * Each evaluation of the file has variables of its own and registers them with its record; every reader of the
 * record's `counts` calls `flushCounts` first, which adds what each variable gained since the last flush into
 * its slot of the array. The variables are never zeroed (the emitted code only increments them): this
 * remembers what it added, so zeroing the array after a write needs nothing from the file. A variable past 2^30 leaves V8's small-integer range and each
 * increment then stores a heap number: still exact (doubles up to 2^53), only slower, in very long runs.
 */
export class VariableCounts {
  /** The array slot of each variable, in the order `take` returns them. */
  private readonly slots: Int32Array;
  /** Each variable's value when it was last added into the array. */
  private readonly added: Float64Array;

  /** `runs`: the slots as `[first, end, first, end, …]` runs (ascending, end exclusive), as the file lists them. */
  constructor(
    private readonly take: TakeVariables,
    runs: readonly number[],
  ) {
    let size = 0;
    for (let i = 0; i < runs.length; i += 2) size += runs[i + 1] - runs[i];
    this.slots = new Int32Array(size);
    let n = 0;
    for (let i = 0; i < runs.length; i += 2) for (let s = runs[i]; s < runs[i + 1]; s++) this.slots[n++] = s;
    this.added = new Float64Array(size);
  }

  /** Adds what each variable gained since the last flush into `counts`. */
  flushInto(counts: Float64Array): void {
    const values = this.take();
    const { slots, added } = this;
    for (let i = 0; i < slots.length; i++) {
      const v = values[i];
      // Undefined before the body ran: nothing was counted in it (only code the body makes counts here).
      if (v === undefined || v === added[i]) continue;
      counts[slots[i]] += v - added[i];
      added[i] = v;
    }
  }
}

/** Brings `record.counts` up to date: what its evaluations counted in variables, added into the array. */
export function flushCounts(record: FileRecord): void {
  for (const v of record.variables) v.flushInto(record.counts);
}
