import { valueHash } from './hashes';
import { pathCounter, type PathCounter } from './path-counter';

/**
 * Counts, and path counters, per non-negative integer key below 2^31 (context values): an open-addressing table
 * of typed arrays gives each key a dense index, under which its count and its path counter are kept. An update
 * is a multiply, a mask and a compare or two, with no allocation, where a `Map` hashes and allocates entries
 * (counting calls per context, and finding a context's path counter, are on every call's path).
 */
export class ValueCounter {
  /** Key + 1 per slot, 0 for an empty one. */
  private keys = new Int32Array(8);
  /** The dense index of each slot's key. */
  private index = new Int32Array(8);
  /** By dense index: the key, its count, its path counter. */
  private readonly values: number[] = [];
  private counts = new Float64Array(4);
  private readonly paths: (PathCounter | undefined)[] = [];
  /** The dense index of the last key looked up: a loop counts the same one over and over. */
  private lastKey = -1;
  private lastIndex = 0;

  inc(key: number): void {
    // The index first: finding it may replace the counts array.
    const i = this.indexOf(key);
    this.counts[i]++;
  }

  /** The path counter kept for `key` (of a function with `pathCount` paths), made on first use. */
  pathsOf(key: number, pathCount: number, hashThreshold: number): PathCounter {
    const i = this.indexOf(key);
    return (this.paths[i] ??= pathCounter(pathCount, hashThreshold));
  }

  /** Counts `key` (`inc`) and returns its path counter (`pathsOf`): one lookup for both. */
  incPaths(key: number, pathCount: number, hashThreshold: number): PathCounter {
    const i = this.indexOf(key);
    this.counts[i]++;
    return (this.paths[i] ??= pathCounter(pathCount, hashThreshold));
  }

  /** Every key counted, with its count. */
  entries(): [number, number][] {
    const out: [number, number][] = [];
    this.values.forEach((k, i) => {
      if (this.counts[i] !== 0) out.push([k, this.counts[i]]);
    });
    return out;
  }

  /** Every key with a path counter, with it. */
  pathCounters(): [number, PathCounter][] {
    const out: [number, PathCounter][] = [];
    this.paths.forEach((counter, i) => {
      if (counter !== undefined) out.push([this.values[i], counter]);
    });
    return out;
  }

  /** Forgets the counts and path counters of keys `lo … hi - 1`. */
  clear(lo: number, hi: number): void {
    this.values.forEach((k, i) => {
      if (k < lo || k >= hi) return;
      this.counts[i] = 0;
      this.paths[i] = undefined;
    });
  }

  private indexOf(key: number): number {
    if (key === this.lastKey) return this.lastIndex;
    const keys = this.keys;
    const mask = keys.length - 1;
    const stored = key + 1;
    let i = valueHash(key) & mask;
    for (; keys[i] !== 0; i = (i + 1) & mask) {
      if (keys[i] === stored) {
        this.lastKey = key;
        return (this.lastIndex = this.index[i]);
      }
    }
    const dense = this.values.push(key) - 1;
    keys[i] = stored;
    this.index[i] = dense;
    if (dense >= this.counts.length) {
      const counts = new Float64Array(this.counts.length * 2);
      counts.set(this.counts);
      this.counts = counts;
    }
    if (this.values.length * 2 > keys.length) this.grow();
    this.lastKey = key;
    return (this.lastIndex = dense);
  }

  private grow(): void {
    const size = this.keys.length * 2;
    const mask = size - 1;
    this.keys = new Int32Array(size);
    this.index = new Int32Array(size);
    this.values.forEach((k, dense) => {
      let i = valueHash(k) & mask;
      while (this.keys[i] !== 0) i = (i + 1) & mask;
      this.keys[i] = k + 1;
      this.index[i] = dense;
    });
  }
}
