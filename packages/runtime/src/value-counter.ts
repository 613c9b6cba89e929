import { valueHash } from './hashes';
import { pathCounter, type PathCounter } from './path-counter';

/** How many keys a table finds by hashing alone before it indexes a window of keys directly. */
const HASHED_KEYS = 4;
/**
 * The widest window a table indexes directly, in keys (4 bytes each): a file's context values, which the
 * numbered calls from an encoding stack's callee stay in (lodash has 6,408).
 */
const MAX_WINDOW = 16_384;
/**
 * What the tables of this copy of the runtime (one per process, or per realm that loads its own) may still
 * spend on windows, in keys (16 MB in all).
 */
let windowBudget = 1 << 22;
const NO_WINDOW = new Int32Array(0);

/**
 * Counts, and path counters, per non-negative integer key below 2^31 (context values): each key gets a dense
 * index, in the order keys are first looked up, under which its count and its path counter are kept. An
 * open-addressing table of typed arrays finds the index of a table's first keys (a multiply, a mask and a
 * compare or two); past `HASHED_KEYS` keys, a direct index of the window of keys from the least to the
 * greatest seen (`MAX_WINDOW` at most) finds it in one load (lodash's stacks count up to 270 contexts each,
 * one entry in ten the same as the last). Neither allocates per update, where a `Map` hashes and allocates
 * entries (counting calls per context, and finding a context's path counter, are on every call's path).
 */
export class ValueCounter {
  /**
   * By key − `lo`: the dense index + 1 of each key in the window, 0 for one not looked up yet; empty until
   * made (most tables keep to a few keys: acorn has 5,300, 95% of them with one or two).
   */
  private window = NO_WINDOW;
  private lo = 0;
  /** Key + 1 per slot, 0 for an empty one; keys in the window are found there instead. */
  private keys = new Int32Array(8);
  /** The dense index of each slot's key. */
  private index = new Int32Array(8);
  /** Keys put in `keys` (some may be in the window since). */
  private hashed = 0;
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
    const d = key - this.lo;
    const window = this.window;
    if (d >= 0 && d < window.length) {
      const i = window[d] - 1;
      return i >= 0 ? i : (window[d] = this.add(key) + 1) - 1;
    }
    return this.hashedIndexOf(key);
  }

  private hashedIndexOf(key: number): number {
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
    if (this.values.length >= HASHED_KEYS && this.widen(key)) return this.indexOf(key);
    const dense = this.add(key);
    keys[i] = stored;
    this.index[i] = dense;
    if (++this.hashed * 2 > keys.length) this.grow();
    this.lastKey = key;
    return (this.lastIndex = dense);
  }

  /** Gives `key` the next dense index (its count 0, no path counter) and returns it. */
  private add(key: number): number {
    const dense = this.values.push(key) - 1;
    if (dense >= this.counts.length) {
      const counts = new Float64Array(this.counts.length * 2);
      counts.set(this.counts);
      this.counts = counts;
    }
    return dense;
  }

  /**
   * Widens the window to take `key` (and every key seen, made), filled with the keys seen in it; false, and
   * the window as it was, when that is wider than `MAX_WINDOW` or the budget left.
   */
  private widen(key: number): boolean {
    let lo = key;
    let hi = key;
    for (const k of this.values) {
      if (k < lo) lo = k;
      else if (k > hi) hi = k;
    }
    const width = hi - lo + 1;
    const cost = width - this.window.length;
    if (width > MAX_WINDOW || cost > windowBudget) return false;
    windowBudget -= cost;
    const window = new Int32Array(width);
    this.values.forEach((k, dense) => (window[k - lo] = dense + 1));
    this.window = window;
    this.lo = lo;
    return true;
  }

  /** Doubles the hashed table, keeping only the keys outside the window. */
  private grow(): void {
    const size = this.keys.length * 2;
    const mask = size - 1;
    this.keys = new Int32Array(size);
    this.index = new Int32Array(size);
    this.hashed = 0;
    this.values.forEach((k, dense) => {
      if (k - this.lo >= 0 && k - this.lo < this.window.length) return;
      this.hashed++;
      let i = valueHash(k) & mask;
      while (this.keys[i] !== 0) i = (i + 1) & mask;
      this.keys[i] = k + 1;
      this.index[i] = dense;
    });
  }
}
