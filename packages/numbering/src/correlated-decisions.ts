/**
 * Decisions on one condition taken more than once in a function (the plugin's `correlated` metadata, from
 * `@pathprof/cfg`'s `correlatedConditions`): per condition, its edges as `2 * edge + 1` where taking the edge
 * means the condition holds, `2 * edge` where it fails. The condition's value cannot change during an
 * activation, so a path taking two of its edges with opposite outcomes is infeasible: no run takes it.
 */
export class CorrelatedDecisions {
  /** Per original edge: its condition's index, or -1. */
  readonly conditionOf: Int32Array;
  /** Per original edge: 1 where taking it means its condition holds. */
  readonly holds: Uint8Array;
  readonly conditionCount: number;

  constructor(edgeCount: number, conditions: readonly (readonly number[])[]) {
    this.conditionOf = new Int32Array(edgeCount).fill(-1);
    this.holds = new Uint8Array(edgeCount);
    this.conditionCount = conditions.length;
    conditions.forEach((edges, c) => {
      for (const code of edges) {
        const e = code >> 1;
        if (!(e >= 0 && e < edgeCount))
          throw new RangeError(`correlated decision on edge ${e}, which does not exist`);
        this.conditionOf[e] = c;
        this.holds[e] = code & 1;
      }
    });
  }

  /**
   * The first two edges of a path (its original edges, in order) that decide one condition both ways, the
   * earlier first; null when the path is feasible as far as these conditions tell.
   */
  contradiction(edges: readonly number[]): [number, number] | null {
    const seen = new Map<number, number>();
    for (const e of edges) {
      const c = this.conditionOf[e];
      if (c < 0) continue;
      const earlier = seen.get(c);
      if (earlier === undefined) seen.set(c, e);
      else if (this.holds[earlier] !== this.holds[e]) return [earlier, e];
    }
    return null;
  }
}
