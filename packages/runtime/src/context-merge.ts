import type { ContextCounts, StackRecord } from './profile-format';

/**
 * Sums the calling contexts of one file over several profiles: stacks are matched by what they are (their
 * entries from the bottom), not by their index in each profile, and counts of the same context add up.
 */
export class ContextMerge {
  private readonly stacks: StackRecord[] = [];
  private readonly stackIndex = new Map<string, number>();
  private readonly entries = new Map<string, [number, number, number]>();
  private readonly paths = new Map<string, { stack: number; value: number; counts: Map<number, number> }>();

  add(counts: ContextCounts): void {
    const mapped: number[] = [];
    for (const [parent, ...entry] of counts.stacks) {
      const p = parent < 0 ? -1 : mapped[parent];
      const key = JSON.stringify([p, ...entry]);
      let index = this.stackIndex.get(key);
      if (index === undefined) {
        index = this.stacks.push([p, ...entry]) - 1;
        this.stackIndex.set(key, index);
      }
      mapped.push(index);
    }
    const stackOf = (s: number) => (s < 0 ? -1 : mapped[s]);
    for (const [s, value, n] of counts.entries) {
      const stack = stackOf(s);
      const key = `${stack},${value}`;
      const known = this.entries.get(key);
      if (known) known[2] += n;
      else this.entries.set(key, [stack, value, n]);
    }
    for (const [s, value, pairs] of counts.paths ?? []) {
      const stack = stackOf(s);
      const key = `${stack},${value}`;
      let entry = this.paths.get(key);
      if (!entry) this.paths.set(key, (entry = { stack, value, counts: new Map() }));
      for (const [path, n] of pairs) entry.counts.set(path, (entry.counts.get(path) ?? 0) + n);
    }
  }

  /** The merged contexts, in a stable order. */
  result(): ContextCounts {
    const byContext = (a: [number, number, ...unknown[]], b: [number, number, ...unknown[]]) =>
      a[0] - b[0] || a[1] - b[1];
    const paths = [...this.paths.values()]
      .map(({ stack, value, counts }): [number, number, [number, number][]] => [
        stack,
        value,
        [...counts].sort((a, b) => a[0] - b[0]),
      ])
      .sort(byContext);
    return {
      stacks: this.stacks,
      entries: [...this.entries.values()].sort(byContext),
      ...(paths.length ? { paths } : {}),
    };
  }
}
