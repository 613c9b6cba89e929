import { hasExceptionalExit, type ControlFlowGraph } from '@pathprof/cfg';
import type { InterproceduralNumbering, InterproceduralPlan, LinearFunction } from '@pathprof/numbering';

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
  /**
   * The procedure's nvc when every activation has the same one throughout (null otherwise): every entry
   * gives it the same value (1 as a root; the linear function of a caller's constant nvc at each crossed
   * site) and every restart or return fix-up that sets it sets that value. Its code then folds nvc into
   * constants and no caller hands it one: fewer mailbox writes and reads on each crossed call.
   */
  readonly constantNvc: readonly (bigint | null)[];
  /**
   * The procedure keeps its register relative to its entry: it starts at 0 and hands back what it added,
   * which the caller adds to the register it kept; the hand-off writes nothing. Only where no path ends in
   * it but by an exception leaving it: never a root, no parameter defaults that are path decisions, only
   * increments on its edges (no back edge records, no handler restarts after a crossed call), and every
   * crossed callee relative too. An exception that leaves
   * it hands its relative register up (pending) for the first caller that knows its own to record, so every
   * crossed caller must run code when an exception leaves it (a program's top level runs none).
   * Relative registers reach twice the value bound: only where that is still an exact number.
   */
  readonly relative: readonly boolean[];
}

export function procedureFacts(
  numbering: InterproceduralNumbering,
  plan: InterproceduralPlan,
  graphs: readonly ControlFlowGraph[],
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
  const constantNvc = constantNvcs(numbering, plan, alwaysOpen as boolean[]);
  const relative = relativeProcedures(numbering, plan, graphs, crossedInto);
  return { crossedInto, readsNvc, alwaysOpen: alwaysOpen as boolean[], constantNvc, relative };
}

function relativeProcedures(
  numbering: InterproceduralNumbering,
  plan: InterproceduralPlan,
  graphs: readonly ControlFlowGraph[],
  crossedInto: readonly boolean[],
): boolean[] {
  const exact = 2n * plan.valueBound + 2n <= BigInt(Number.MAX_SAFE_INTEGER);
  const crossedFromTop = new Array<boolean>(graphs.length).fill(false);
  numbering.procedures.forEach((procedure, p) => {
    if (hasExceptionalExit(graphs[p])) return;
    procedure.callSites.forEach((site, k) => {
      if (plan.procedures[p].callSites[k].kind === 'crossed') crossedFromTop[site.callee!] = true;
    });
  });
  const relative = new Array<boolean | undefined>(numbering.procedures.length).fill(undefined);
  // Callees first: the crossed call graph is acyclic (recursion is cut).
  const resolve = (p: number): boolean => {
    let known = relative[p];
    if (known !== undefined) return known;
    const procedurePlan = plan.procedures[p];
    known =
      exact &&
      crossedInto[p] &&
      // Its register would cross its defaults in a carrier where 0 means "nothing ran yet".
      graphs[p].parameterDefaults.length === 0 &&
      !crossedFromTop[p] &&
      procedurePlan.rootStart === null &&
      procedurePlan.edgeOps.every(
        (ops, e) => leavesByException(graphs[p], e) || ops.every((op) => op.kind === 'add'),
      ) &&
      numbering.procedures[p].callSites.every(
        (site, k) => procedurePlan.callSites[k].kind !== 'crossed' || resolve(site.callee!),
      );
    relative[p] = known;
    return known;
  };
  return numbering.procedures.map((_, p) => resolve(p));
}

function constantNvcs(
  numbering: InterproceduralNumbering,
  plan: InterproceduralPlan,
  alwaysOpen: readonly boolean[],
): (bigint | null)[] {
  const count = numbering.procedures.length;
  // The values set inside a procedure (a root's 1, restarts, return fix-ups) and its crossed entries.
  const own = numbering.procedures.map(() => new Set<bigint>());
  const entries: { caller: number; argument: LinearFunction }[][] = own.map(() => []);
  numbering.procedures.forEach((procedure, p) => {
    const procedurePlan = plan.procedures[p];
    if (procedurePlan.rootStart !== null) own[p].add(1n);
    for (const ops of procedurePlan.edgeOps) {
      for (const op of ops) if (op.kind === 'restart-piecewise') own[p].add(op.nvc);
    }
    procedure.callSites.forEach((site, k) => {
      const sitePlan = procedurePlan.callSites[k];
      if (sitePlan.kind !== 'crossed') return;
      entries[site.callee!].push({ caller: p, argument: sitePlan.argument });
      if (sitePlan.returnFixup && !alwaysOpen[site.callee!]) own[p].add(sitePlan.returnFixup.nvc);
    });
  });
  const constant = new Array<bigint | null | undefined>(count).fill(undefined);
  // Callers first: the crossed call graph is acyclic (recursion is cut).
  const resolve = (p: number): bigint | null => {
    const known = constant[p];
    if (known !== undefined) return known;
    const taken = new Set(own[p]);
    let varies = false;
    for (const { caller, argument } of entries[p]) {
      const callerNvc = argument.a === 0n ? 0n : resolve(caller);
      if (callerNvc === null) varies = true;
      else taken.add(argument.a * callerNvc + argument.b);
    }
    const result = !varies && taken.size === 1 ? [...taken][0] : null;
    constant[p] = result;
    return result;
  };
  return numbering.procedures.map((_, p) => resolve(p));
}

/** An exception leaving the activation: its code is the function-level handler's, not the edge's ops. */
function leavesByException(cfg: ControlFlowGraph, edge: number): boolean {
  return cfg.edgeExceptional[edge] !== 0 && cfg.edgeDst[edge] === cfg.exit;
}
