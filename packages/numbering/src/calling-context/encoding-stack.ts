/** One entry of the encoding stack: the id of a finished acyclic sub-path and the call site that left it. */
export interface StackEntry {
  readonly id: number;
  readonly site: number;
}

/** A run of identical consecutive entries, kept once with its length. */
export interface StackRun extends StackEntry {
  readonly count: number;
}

/**
 * The encoding stack with PCCE's featherweight compression (§5): consecutive identical `<id, site>` entries,
 * as deep repetitive recursion produces (`ACGF CGF CGF …`), are one run with a count, bumped on push and
 * dropped on pop, so such a recursion costs one entry however deep it goes.
 */
export class EncodingStack {
  private readonly runs: { id: number; site: number; count: number }[] = [];
  private entries = 0;

  push(id: number, site: number): void {
    const top = this.runs.at(-1);
    if (top !== undefined && top.id === id && top.site === site) top.count++;
    else this.runs.push({ id, site, count: 1 });
    this.entries++;
  }

  pop(): StackEntry {
    const top = this.runs.at(-1);
    if (top === undefined) throw new RangeError('pop from an empty encoding stack');
    if (--top.count === 0) this.runs.pop();
    this.entries--;
    return { id: top.id, site: top.site };
  }

  /** How many entries are stacked (the uncompressed depth). */
  get depth(): number {
    return this.entries;
  }

  /** The runs, bottom first: what a snapshot of a context records. */
  snapshot(): StackRun[] {
    return this.runs.map((run) => ({ ...run }));
  }
}
