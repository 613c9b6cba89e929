/** Where a call returns to: the caller and the index of its call site. */
export interface CallSiteRef {
  readonly procedure: number;
  readonly site: number;
}

/**
 * One step of a path through G*_fn:
 * - `edge`: a DAG edge of `procedure` (any kind but `call`: a crossed call is taken as `call … return`);
 * - `call`: `call vertex → Entry_Q` at call site `site` (its index in the procedure's `callSites`);
 * - `return`: `Exit_procedure → return site` of `to`, or `→ Exit_global` when `to` is null.
 */
export type PathStep =
  | { readonly kind: 'edge'; readonly procedure: number; readonly edge: number }
  | { readonly kind: 'call'; readonly procedure: number; readonly site: number }
  | { readonly kind: 'return'; readonly procedure: number; readonly to: CallSiteRef | null };

/**
 * An observable path: `Entry_global → ` the entry point (an index in `entryPoints`), then the steps. It ends at
 * `Exit_global`, either by an edge into some `GExit_P` (then `GExit_P → Exit_global`) or by a return to it.
 */
export interface SupergraphPath {
  readonly entryPoint: number;
  readonly steps: readonly PathStep[];
}

/** A vertex of the supergraph: a vertex of one procedure's DAG (a block, `GExit_P` or `GEntry_P`). */
export interface SupergraphVertex {
  readonly procedure: number;
  readonly vertex: number;
}
