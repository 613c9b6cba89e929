/**
 * Decisions on values that cannot change during an activation, from the plugin's path-mode metadata (made by
 * `@pathprof/cfg`'s `correlatedConditions`):
 * - `correlated`: per condition tested more than once, its edges as `2 * edge + 1` where taking the edge means
 *   the condition holds, `2 * edge` where it fails;
 * - `implied`: per value tested by different conditions that constrain each other (`x == null` and `x`,
 *   `typeof x === 'string'` and `typeof x === 'number'`), `[classCount, edge, mask, edge, mask, …]`: the value's
 *   possible values fall in `classCount` classes that every test on it tells apart, and `mask` has bit `k` set
 *   when taking `edge` leaves class `k` possible.
 *
 * Each is a *value* here: a correlated condition is one with two classes (fails, holds). A path is infeasible,
 * no run takes it, when the decisions it takes on one value leave no class possible.
 */
export class CorrelatedDecisions {
  /** Per original edge: the value it decides something of, or -1. */
  readonly valueOf: Int32Array;
  /** Per original edge: the classes of its value still possible after taking it. */
  readonly mask: Int32Array;
  /** Per value: its number of classes. */
  readonly classCount: Int32Array;
  readonly valueCount: number;
  /** The classes of all values side by side: how many bits a set of possible classes per value takes. */
  readonly classTotal: number;

  constructor(
    edgeCount: number,
    correlated: readonly (readonly number[])[] = [],
    implied: readonly (readonly number[])[] = [],
  ) {
    this.valueOf = new Int32Array(edgeCount).fill(-1);
    this.mask = new Int32Array(edgeCount);
    const classCounts: number[] = [];
    const edge = (e: number) => {
      if (!(e >= 0 && e < edgeCount))
        throw new RangeError(`correlated decision on edge ${e}, which does not exist`);
      return e;
    };
    for (const group of implied) {
      const classes = group[0];
      if (!(classes >= 2 && classes <= 30 && group.length % 2 === 1))
        throw new RangeError(`implied decisions [${group.join(', ')}] are not [classCount, edge, mask, …]`);
      for (let i = 1; i < group.length; i += 2) {
        const e = edge(group[i]);
        this.valueOf[e] = classCounts.length;
        this.mask[e] = group[i + 1] & ((1 << classes) - 1);
      }
      classCounts.push(classes);
    }
    // A correlated condition also found among the implied decisions constrains nothing more: its edges there.
    for (const group of correlated) {
      const codes = group.filter((code) => this.valueOf[edge(code >> 1)] < 0);
      if (codes.length < 2) continue;
      for (const code of codes) {
        this.valueOf[code >> 1] = classCounts.length;
        this.mask[code >> 1] = code & 1 ? 2 : 1;
      }
      classCounts.push(2);
    }
    this.classCount = Int32Array.from(classCounts);
    this.valueCount = classCounts.length;
    this.classTotal = classCounts.reduce((a, b) => a + b, 0);
  }

  /**
   * The decisions of a path (its original edges, in order) that leave one value no possible class, the one that
   * empties it last and the earlier ones first (two when two of them already contradict); null when the path is
   * feasible as far as these decisions tell.
   */
  contradiction(edges: readonly number[]): number[] | null {
    const possible = new Map<number, { classes: number; narrowing: number[] }>();
    for (const e of edges) {
      const v = this.valueOf[e];
      if (v < 0) continue;
      let state = possible.get(v);
      if (!state) possible.set(v, (state = { classes: (1 << this.classCount[v]) - 1, narrowing: [] }));
      const classes = state.classes & this.mask[e];
      if (classes === 0) {
        const against = state.narrowing.find((earlier) => (this.mask[earlier] & this.mask[e]) === 0);
        return against !== undefined ? [against, e] : [...state.narrowing, e];
      }
      if (classes !== state.classes) state.narrowing.push(e);
      state.classes = classes;
    }
    return null;
  }
}
