/**
 * Why control moves along an edge. Stored per edge in a `Uint8Array`; `edgeKindName` gives the text used in
 * fixtures, DOT dumps and reports.
 */
export enum EdgeKind {
  /** ENTRY to the first block of the body. */
  Entry = 0,
  /** Unconditional flow into the next block (a join, a loop header, the start of a `try`). */
  Normal,
  /** A condition evaluated truthy / falsy (`if`, loops, `?:`, the left side of `&&` `||`, `&&=` `||=`). */
  True,
  False,
  /** `??`, `??=` and `?.`: the value was `null`/`undefined`, or it was not. */
  Nullish,
  NotNullish,
  /** A `case` test matched (dispatch into its body) or did not (on to the next test). */
  CaseMatch,
  CaseMiss,
  /** No `case` test matched: into `default`, or past the `switch` when it has none. */
  Default,
  /** The end of one `case` body falls into the next. */
  Fallthrough,
  /** The end of a loop body or a `for` update back to the loop's test. */
  LoopBack,
  /** A `for…in`/`for…of` step produced a value / the iteration is done. */
  Next,
  Done,
  Break,
  Continue,
  Return,
  /** An explicit `throw` statement. Exceptional. */
  Throw,
  /** An implicit exception raised while a block runs (calls, property reads, `await`, …). Exceptional. */
  Exception,
  /** Leaving a `finally` block for the completion that entered it (normal, return, break, continue). */
  FinallyExit,
  /** A generator resumed at a `yield` by `next()`. */
  Resume,
  /** A generator finished at a suspended `yield` by `return()`: a return completion at that point. */
  YieldReturn,
  /** A block that can never reach EXIT (an empty infinite loop) leaves only if the process is interrupted. */
  Interrupt,
  /** A destructuring default: the value was `undefined`, so the default expression is evaluated. */
  DefaultValue,
  /**
   * A destructuring default: the value was present, the default is skipped. Silent: JavaScript has no place
   * for code here, so the edge carries none (see `isSilentKind`).
   */
  ValuePresent,
  /**
   * ENTRY to the parameters, when defaults there are path decisions: silent, since nothing can run before
   * parameters are bound. The edge from the parameters into the body then carries the prologue's site.
   */
  ParamsEntry,
}

const names: readonly string[] = [
  'entry',
  'normal',
  'true',
  'false',
  'nullish',
  'not-nullish',
  'case',
  'case-miss',
  'default',
  'fallthrough',
  'loop-back',
  'next',
  'done',
  'break',
  'continue',
  'return',
  'throw',
  'exception',
  'finally-exit',
  'resume',
  'yield-return',
  'interrupt',
  'default-value',
  'value-present',
  'params-entry',
];

export function edgeKindName(kind: EdgeKind): string {
  return names[kind];
}

/** Exceptional edges carry no code: control takes them from wherever in the block the exception arises. */
export function isExceptionalKind(kind: EdgeKind): boolean {
  return kind === EdgeKind.Throw || kind === EdgeKind.Exception || kind === EdgeKind.Interrupt;
}

/**
 * Silent edges have no insertion site: nothing can run on them. The graph guarantees that a silent edge's
 * target cannot throw and is left by an edge that has a site, so numbering can keep silent edges in the
 * spanning tree (increment 0) and no path is confused with another.
 */
export function isSilentKind(kind: EdgeKind): boolean {
  return kind === EdgeKind.ValuePresent || kind === EdgeKind.ParamsEntry;
}
