import type { InterproceduralNumbering, InterproceduralPlan } from '@pathprof/numbering';

/**
 * What each procedure's code must exchange through the mailbox, known before any code is emitted (a caller
 * is emitted knowing its callees): the less a crossed call carries, the cheaper it is.
 */
export interface ProcedureFacts {
  /** Some crossed call site enters the procedure. */
  readonly crossedInto: readonly boolean[];
  /**
   * The procedure reads its nvc: an op or a crossed call's argument depends on it (`a ≠ 0`). Otherwise no
   * caller needs to hand it one and the procedure keeps none.
   */
  readonly readsNvc: readonly boolean[];
  /**
   * Piecewise: the procedure always returns with its left parenthesis still open (`cntOpenLfParens` unchanged):
   * no path restarts in it nor in a crossed callee that may close it. Its callers then skip the return fix-up
   * and it hands back no flag.
   */
  readonly alwaysOpen: readonly boolean[];
}

export function procedureFacts(
  numbering: InterproceduralNumbering,
  plan: InterproceduralPlan,
): ProcedureFacts {
  const count = numbering.procedures.length;
  const crossedInto = new Array<boolean>(count).fill(false);
  const readsNvc = new Array<boolean>(count).fill(false);
  numbering.procedures.forEach((procedure, p) => {
    const procedurePlan = plan.procedures[p];
    procedure.callSites.forEach((site, k) => {
      const sitePlan = procedurePlan.callSites[k];
      if (sitePlan.kind !== 'crossed') return;
      crossedInto[site.callee!] = true;
      if (sitePlan.argument.a !== 0n) readsNvc[p] = true;
    });
    for (const ops of procedurePlan.edgeOps) {
      for (const op of ops) if (op.kind !== 'restart-piecewise' && op.increment.a !== 0n) readsNvc[p] = true;
    }
  });
  // Callees first: the crossed call graph is acyclic (recursion is cut).
  const alwaysOpen = new Array<boolean | undefined>(count).fill(undefined);
  const open = (p: number): boolean => {
    let known = alwaysOpen[p];
    if (known !== undefined) return known;
    const procedurePlan = plan.procedures[p];
    known =
      plan.scheme === 'piecewise' &&
      !procedurePlan.edgeOps.some((ops) => ops.some((op) => op.kind === 'restart-piecewise')) &&
      numbering.procedures[p].callSites.every(
        (site, k) => procedurePlan.callSites[k].kind !== 'crossed' || open(site.callee!),
      );
    alwaysOpen[p] = known;
    return known;
  };
  for (let p = 0; p < count; p++) open(p);
  return { crossedInto, readsNvc, alwaysOpen: alwaysOpen as boolean[] };
}
