import { valueHash } from './hashes';

/**
 * Counts per non-negative integer key below 2^31 (context values), in an open-addressing table of typed arrays:
 * an update is a multiply, a mask and a compare or two, with no allocation, where a `Map` hashes and
 * allocates entries (counting calls per context is on every call's path).
 */
export class ValueCounter {
  /** Key + 1 per slot, 0 for an empty one. */
  private keys = new Int32Array(8);
  private counts = new Float64Array(8);
  private size = 0;
  /** The slot of the last key counted: a loop counts the same one over and over. */
  private lastKey = -1;
  private lastSlot = 0;

  inc(key: number): void {
    if (key === this.lastKey) {
      this.counts[this.lastSlot]++;
      return;
    }
    const keys = this.keys;
    const mask = keys.length - 1;
    const stored = key + 1;
    for (let i = valueHash(key) & mask; ; i = (i + 1) & mask) {
      const k = keys[i];
      if (k === stored) {
        this.counts[i]++;
        this.lastKey = key;
        this.lastSlot = i;
        return;
      }
      if (k === 0) {
        keys[i] = stored;
        this.counts[i] = 1;
        if (++this.size * 2 > keys.length) this.grow();
        else {
          this.lastKey = key;
          this.lastSlot = i;
        }
        return;
      }
    }
  }

  /** Every key counted, with its count. */
  entries(): [number, number][] {
    const out: [number, number][] = [];
    this.keys.forEach((k, i) => {
      if (k !== 0 && this.counts[i] !== 0) out.push([k - 1, this.counts[i]]);
    });
    return out;
  }

  /** Forgets the counts of keys `lo … hi - 1`. */
  clear(lo: number, hi: number): void {
    this.keys.forEach((k, i) => {
      if (k !== 0 && k - 1 >= lo && k - 1 < hi) this.counts[i] = 0;
    });
  }

  private grow(): void {
    const { keys, counts } = this;
    this.lastKey = -1;
    this.keys = new Int32Array(keys.length * 2);
    this.counts = new Float64Array(keys.length * 2);
    const mask = this.keys.length - 1;
    keys.forEach((k, j) => {
      if (k === 0) return;
      let i = valueHash(k - 1) & mask;
      while (this.keys[i] !== 0) i = (i + 1) & mask;
      this.keys[i] = k;
      this.counts[i] = counts[j];
    });
  }
}
