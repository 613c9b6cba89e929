/**
 * Counts for a function with too many potential paths for an array: only executed paths take space. The
 * last path is cached, so a loop that repeats one path (the common case on a backedge) costs a compare and
 * an add, not a map update (Ball & Larus §5.1).
 */
export class HashCounter {
  private lastPath = -1;
  private lastCount = 0;
  private readonly counts = new Map<number, number>();

  inc(path: number): void {
    if (path === this.lastPath) {
      this.lastCount++;
      return;
    }
    this.flush();
    this.lastPath = path;
    this.lastCount = 1;
  }

  /** Forgets every count (after they were written). */
  clear(): void {
    this.counts.clear();
    this.lastCount = 0;
    this.lastPath = -1;
  }

  /** Every executed path and its count, the cached one included. */
  entries(): [number, number][] {
    this.flush();
    return [...this.counts];
  }

  private flush(): void {
    if (this.lastCount === 0) return;
    this.counts.set(this.lastPath, (this.counts.get(this.lastPath) ?? 0) + this.lastCount);
    this.lastCount = 0;
    this.lastPath = -1;
  }
}
