/**
 * What an execution does, as the instrumented program would see it, one event at a time:
 * - `enter`: an activation of `procedure` starts without a crossed call (the program's start, a callback from
 *   native code, the callee of a cut call site);
 * - `call`: the running activation calls at the site with this program-wide id; at a crossed site the callee's
 *   activation starts at once (its events follow), at a cut site any `enter` may follow, or none (native code);
 * - `edge`: the running activation takes one of its original edges. `call → returnSite` is taken when the call
 *   returns, the call vertex's exceptional edge when it throws. An edge into the exit ends the activation.
 */
export type ExecutionEvent =
  | { readonly kind: 'enter'; readonly procedure: number }
  | { readonly kind: 'call'; readonly site: number }
  | { readonly kind: 'edge'; readonly edge: number };
