import { isPacked, type PairList } from './packed-pairs';

/** Counts by key (a counter's index, a path number) as two columns: keys strictly increasing, counts beside. */
export interface CountColumns {
  readonly keys: Float64Array;
  readonly counts: Float64Array;
}

/**
 * Sums lists of `[key, count]` pairs (profiles' counters and hash tables) into `CountColumns`: the pairs are
 * appended to typed arrays as they come, with no object or map entry per pair, then put in key order by a
 * natural merge sort whose merges add up equal keys. A list in increasing key order, as the runtime writes
 * them, is one run, so the lists of k profiles merge in log2(k) passes; any other order still sorts.
 */
export class CountSum {
  private keys = new Float64Array(16);
  private counts = new Float64Array(16);
  private size = 0;
  /** Where each run of strictly increasing keys starts. */
  private runs: number[] = [];

  add(pairs: PairList): void {
    const length = isPacked(pairs) ? pairs.values.length / 2 : pairs.length;
    if (length === 0) return;
    if (this.size + length > this.keys.length) this.grow(this.size + length);
    if (isPacked(pairs)) {
      const { values } = pairs;
      for (let i = 0; i < length; i++) this.append(values[2 * i], values[2 * i + 1], i === 0);
    } else {
      for (let i = 0; i < length; i++) this.append(pairs[i][0], pairs[i][1], i === 0);
    }
  }

  private append(key: number, count: number, first: boolean): void {
    const size = this.size++;
    // `+ 0`: -0 is 0, as a Map's key and as a sum starting from 0.
    const k = key + 0;
    if (first || !(k > this.keys[size - 1])) this.runs.push(size);
    this.keys[size] = k;
    this.counts[size] = count + 0;
  }

  /** The sums by key; the sum forgets what was added. */
  result(): CountColumns {
    let keys = this.keys;
    let counts = this.counts;
    let runs = this.runs;
    let size = this.size;
    let intoKeys = new Float64Array(runs.length > 1 ? size : 0);
    let intoCounts = new Float64Array(intoKeys.length);
    while (runs.length > 1) {
      const merged: number[] = [];
      let out = 0;
      for (let r = 0; r < runs.length; r += 2) {
        merged.push(out);
        const aEnd = r + 1 < runs.length ? runs[r + 1] : size;
        const bEnd = r + 2 < runs.length ? runs[r + 2] : size;
        let a = runs[r];
        let b = aEnd;
        while (a < aEnd || b < bEnd) {
          let key: number;
          let count: number;
          if (b === bEnd || (a < aEnd && keys[a] < keys[b])) {
            key = keys[a];
            count = counts[a++];
          } else if (a === aEnd || keys[b] < keys[a]) {
            key = keys[b];
            count = counts[b++];
          } else {
            key = keys[a];
            count = counts[a++] + counts[b++];
          }
          intoKeys[out] = key;
          intoCounts[out++] = count;
        }
      }
      [keys, intoKeys] = [intoKeys, keys];
      [counts, intoCounts] = [intoCounts, counts];
      runs = merged;
      size = out;
    }
    this.keys = new Float64Array(16);
    this.counts = new Float64Array(16);
    this.size = 0;
    this.runs = [];
    return { keys: keys.slice(0, size), counts: counts.slice(0, size) };
  }

  private grow(needed: number): void {
    let length = this.keys.length * 2;
    while (length < needed) length *= 2;
    const keys = new Float64Array(length);
    const counts = new Float64Array(length);
    keys.set(this.keys.subarray(0, this.size));
    counts.set(this.counts.subarray(0, this.size));
    this.keys = keys;
    this.counts = counts;
  }
}

/** Columns as `[key, count]` pairs, in key order. */
export function countPairs(columns: CountColumns): [number, number][] {
  const pairs = new Array<[number, number]>(columns.keys.length);
  for (let i = 0; i < pairs.length; i++) pairs[i] = [columns.keys[i], columns.counts[i]];
  return pairs;
}
