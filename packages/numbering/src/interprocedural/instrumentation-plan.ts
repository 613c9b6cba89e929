import type { InterproceduralScheme } from './procedure-dag';
import type { LinearFunction } from './linear-function';

/**
 * One instruction on an edge, over the global path number `pathNum`, the activation's `nvc` (its
 * numValidCompsFromExit) and, in the context scheme, its `pathNumOnEntry`; `f(nvc)` is `a·nvc + b`:
 * - `add`:       `pathNum += f(nvc)`;
 * - `record`:    the path ends: `profile[pathNum + f(nvc)]++`;
 * - `restart`:   context scheme, a new path with the same context: `pathNum = pathNumOnEntry + f(nvc)`;
 * - `restart-piecewise`: a new path from `GEntry_P`: `pathNum = pathNumber; nvc = nvcValue; cnt = 0`.
 */
export type InterproceduralOp =
  | { readonly kind: 'add'; readonly increment: LinearFunction }
  | { readonly kind: 'record'; readonly increment: LinearFunction }
  | { readonly kind: 'restart'; readonly increment: LinearFunction }
  | { readonly kind: 'restart-piecewise'; readonly pathNumber: bigint; readonly nvc: bigint };

/**
 * What a call site does around its call:
 * - `crossed`: the callee continues the caller's path. `pathNum` is exact at the call and passed by reference;
 *   the callee's `nvc` is `argument(nvc)`. Piecewise: `cnt++` before the call; after it returns,
 *   `if (cnt == 0) { pathNum += returnFixup.value; nvc = returnFixup.nvc } else cnt--`.
 * - `cut`: park `pathNum` (and `cnt`) before the call, restore them after it returns or throws; an
 *   instrumented callee runs as a root activation.
 */
export type CallSitePlan =
  | {
      readonly kind: 'crossed';
      readonly argument: LinearFunction;
      readonly returnFixup: { readonly value: bigint; readonly nvc: bigint } | null;
    }
  | { readonly kind: 'cut' };

/**
 * Everything the instrumenter emits for one procedure. An activation entered by a crossed call starts with
 * `pathNumOnEntry = pathNum`. A root activation (entered without one) starts with `pathNum = rootStart;
 * nvc = 1; cnt = 1; pathNumOnEntry = pathNum`, and when it returns runs `if (cnt == 0) pathNum += rootExitValue`
 * (piecewise) then records `pathNum`. Exceptional edges carry no code of their own: the function-level handler
 * records `pathNum` as it is when an exception leaves (every `throw-end` is worth 0 there), unless the
 * exception came out of a crossed call, whose callee already recorded the path; a handler inside the
 * procedure entered by such an exception runs that edge's `restart`.
 */
export interface ProcedurePlan {
  /** Per original edge, the ops to run when it is taken, in order. */
  readonly edgeOps: readonly (readonly InterproceduralOp[])[];
  /** Per call site (index in the procedure's `callSites`). */
  readonly callSites: readonly CallSitePlan[];
  /** `START` of `Entry_global → Entry_P`, or null when the procedure is only entered by crossed calls. */
  readonly rootStart: bigint | null;
  readonly rootExitValue: bigint;
  /**
   * The first path number of the procedure's component (`InterproceduralNumbering.components`): every path
   * through it is numbered from there, so code may keep `pathNum - componentStart`, a value below the
   * component's own count, and add it back where the path is recorded.
   */
  readonly componentStart: bigint;
}

export interface InterproceduralPlan {
  readonly scheme: InterproceduralScheme;
  readonly procedures: readonly ProcedurePlan[];
  /**
   * No value the instrumentation computes (`pathNum - componentStart`, `nvc`, an increment `f(nvc)` or its
   * product `a·nvc`) exceeds this in magnitude: plain numbers are exact when it is at most
   * `Number.MAX_SAFE_INTEGER`, else the emitted code must use BigInt (or a hybrid policy must cut more sites).
   */
  readonly valueBound: bigint;
  /** The same bound per component: the components to cut calls in when `valueBound` is too large. */
  readonly componentBounds: readonly bigint[];
}
