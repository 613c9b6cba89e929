import type { HashCounter } from './hash-counter';

/**
 * Slots of a file's `HashFront`. The plugin's emitted counting function picks a path's slot as
 * `path & (HASH_FRONT_SLOTS - 1)`, as `miss` does here.
 */
export const HASH_FRONT_SLOTS = 1024;
const MASK = HASH_FRONT_SLOTS - 1;

/**
 * A direct-mapped cache in front of a file's hash tables, for interprocedural files, whose large components
 * count every path end in a table: the emitted code counts a path whose slot holds it with one compare and
 * one increment (`keys[p & MASK] === p ? counts[p & MASK]++ : miss(p, table)`), no call and no hashing, and
 * only a path that finds another in its slot calls `miss`. Lodash's piecewise run spent 12% of its time in
 * `HashCounter.inc` (bench/NOTES.md). Keys are path numbers, unique across the file's tables (each
 * component's paths are a range of their own); a slot also remembers its path's table. Every count moves to
 * the tables before they are read: `HashCounter.entries` and `clear` flush the front of their file first.
 */
export class HashFront {
  /** Per slot, the path counted there, or -1. */
  readonly keys = new Float64Array(HASH_FRONT_SLOTS).fill(-1);
  /** Per slot, how often its path ran since the slot was last flushed. */
  readonly counts = new Float64Array(HASH_FRONT_SLOTS);
  private readonly tables = new Int32Array(HASH_FRONT_SLOTS);
  private used = false;

  constructor(private readonly hashed: readonly HashCounter[]) {}

  /** Counts `path` of table `table` (its slot holds another path, or the file's body has not run yet). */
  miss(path: number, table: number): void {
    const i = path & MASK;
    if (this.keys[i] === path) {
      this.counts[i]++;
      return;
    }
    if (this.counts[i] > 0) this.hashed[this.tables[i]].add(this.keys[i], this.counts[i]);
    this.keys[i] = path;
    this.counts[i] = 1;
    this.tables[i] = table;
    this.used = true;
  }

  /** Moves every count held here to its table. */
  flush(): void {
    if (!this.used) return;
    const { keys, counts, tables } = this;
    for (let i = 0; i < HASH_FRONT_SLOTS; i++) {
      if (counts[i] === 0) continue;
      this.hashed[tables[i]].add(keys[i], counts[i]);
      counts[i] = 0;
    }
  }
}
