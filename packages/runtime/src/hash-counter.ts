import type { HashFront } from './hash-front';
import { pathHash } from './hashes';

/**
 * Counts for paths too many to give each a slot of an array: only executed paths take space. An
 * open-addressing table in typed arrays (linear probing, at most half full), keyed by path number + 1 so that
 * 0 marks a free slot: an increment is a multiply, a load, a compare and an add in optimised code, three times
 * faster than a `Map` update when paths vary and no slower when one path repeats (bench: interprocedural
 * files count their large components here). Path numbers are integers in [0, 2^53 - 1).
 */
export class HashCounter {
  private keys = new Float64Array(16);
  private counts = new Float64Array(16);
  private mask = 15;
  private size = 0;
  /** The cache in front of the file's tables, which may hold counts of this one (`registerFile` sets it). */
  front: HashFront | null = null;

  inc(path: number): void {
    this.add(path, 1);
  }

  /** Counts `path` `n` more times. */
  add(path: number, n: number): void {
    const keys = this.keys;
    const key = path + 1;
    for (let i = pathHash(path) & this.mask; ; i = (i + 1) & this.mask) {
      const k = keys[i];
      if (k === key) {
        this.counts[i] += n;
        return;
      }
      if (k === 0) {
        keys[i] = key;
        this.counts[i] = n;
        if (++this.size * 2 > this.mask) this.grow();
        return;
      }
    }
  }

  /** Forgets every count (after they were written). */
  clear(): void {
    this.front?.flush();
    this.keys = new Float64Array(16);
    this.counts = new Float64Array(16);
    this.mask = 15;
    this.size = 0;
  }

  /** Every executed path and its count, in no particular order. */
  entries(): [number, number][] {
    this.front?.flush();
    const out: [number, number][] = [];
    for (let i = 0; i < this.keys.length; i++)
      if (this.keys[i] !== 0) out.push([this.keys[i] - 1, this.counts[i]]);
    return out;
  }

  private grow(): void {
    const { keys, counts } = this;
    this.keys = new Float64Array(keys.length * 2);
    this.counts = new Float64Array(keys.length * 2);
    this.mask = keys.length * 2 - 1;
    for (let j = 0; j < keys.length; j++) {
      if (keys[j] === 0) continue;
      let i = pathHash(keys[j] - 1) & this.mask;
      while (this.keys[i] !== 0) i = (i + 1) & this.mask;
      this.keys[i] = keys[j];
      this.counts[i] = counts[j];
    }
  }
}
