/**
 * One instruction the instrumenter emits for path profiling, over the activation's path register `r` and the
 * function's path counters `count`:
 * - `set`:         `r = value`
 * - `add`:         `r += value`
 * - `count-add`:   `count[r + value]++` (`value` 0 is the plain `count[r]++`)
 * - `count-const`: `count[value]++` (the whole path is known at this point; `r` is not read)
 * Values may be negative; only the index a count uses is guaranteed to lie in `[0, pathCount)`.
 */
export type PathOp =
  | { readonly kind: 'set'; readonly value: number }
  | { readonly kind: 'add'; readonly value: number }
  | { readonly kind: 'count-add'; readonly value: number }
  | { readonly kind: 'count-const'; readonly value: number };
