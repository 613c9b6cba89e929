/**
 * A seeded pseudo-random source (mulberry32) for property tests and program generators: a failing case is
 * reproduced from its seed alone, and runs are identical on every machine.
 */
export class Random {
  private state: number;

  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** Uniform integer in [lo, hi]. */
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('Random.pick: no items');
    return items[this.int(items.length)];
  }
}

/** How many random cases a property test runs: the fixed count in the test command, more under `PATHPROF_SOAK`. */
export function caseCount(normal: number): number {
  const soak = Number(process.env.PATHPROF_SOAK);
  return Number.isFinite(soak) && soak > 1 ? normal * soak : normal;
}

/** The seed of a property run: fixed in the test command, chosen by `PATHPROF_SEED` when reproducing or soaking. */
export function baseSeed(fixed: number): number {
  const fromEnv = Number(process.env.PATHPROF_SEED);
  return Number.isInteger(fromEnv) ? fromEnv : fixed;
}
