import type { ContextCallGraph } from './context-call-graph';
import { numberContexts, type ContextNumbering } from './number-contexts';

/**
 * A file's context values: every function's contexts `0 .. numCC-1` laid end to end, function by function,
 * so one number names a function and one of its contexts (`base[f] + id`); `total` values in all. A
 * numbered call from a context of `p` into `f` adds the constant `base[f] - base[p] + En(e)`.
 */
export interface ContextValues {
  readonly numbering: ContextNumbering;
  readonly base: readonly number[];
  readonly total: number;
}

export function contextValues(numbering: ContextNumbering): ContextValues {
  const base: number[] = [];
  let total = 0;
  for (const n of numbering.numCC) {
    base.push(total);
    total += n;
  }
  return { numbering, base, total };
}

/**
 * Numbers the contexts of a file whose values must stay below `maxValues`: each function's budget starts
 * there and halves until the functions' contexts together fit (selective reduction pushes instead of adding
 * on the reduced calls). Every function has at least one context, so a file with more functions than
 * `maxValues` gets one per function.
 */
export function fitContextValues(graph: ContextCallGraph, maxValues: number): ContextValues {
  let budget = Math.max(1, maxValues);
  for (;;) {
    const values = contextValues(numberContexts(graph, { budget }));
    if (values.total <= maxValues || budget === 1) return values;
    budget = Math.max(1, Math.floor(budget / 2));
  }
}

/** Which function and context id a file's context value stands for; null when none. */
export function contextOfValue(
  values: ContextValues,
  value: number,
): { readonly function: number; readonly id: number } | null {
  if (!Number.isInteger(value) || value < 0 || value >= values.total) return null;
  let lo = 0;
  let hi = values.base.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (values.base[mid] <= value) lo = mid;
    else hi = mid - 1;
  }
  // Functions with no context (none here: every function has one) would share a base; take the last.
  return { function: lo, id: value - values.base[lo] };
}
