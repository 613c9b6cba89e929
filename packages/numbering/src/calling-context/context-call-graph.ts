/** A call site: its program-wide id and the function that contains it. */
export interface ContextCallSite {
  readonly site: number;
  readonly caller: number;
}

/** A call-graph edge `<caller, callee, site>`: one statically resolved (or profiled) target of a site. */
export interface ContextCallEdge {
  readonly site: number;
  readonly callee: number;
}

/**
 * The call graph PCCE encodes (Sumner et al. §3). Two sites of one caller calling the same function are two
 * edges; a site may list several targets (a polymorphic call whose targets were resolved or profiled) or none
 * (an unknown callee: every call through it falls back to push-and-reset).
 */
export interface ContextCallGraph {
  readonly functionNames: readonly string[];
  /**
   * Functions that start a context without an instrumented call, main or the module body first, then exported
   * functions, callbacks, event handlers, and every function an unknown call may reach: each gets a dummy edge,
   * so id 0 there means "a context starts here". Functions no entry reaches get one as well.
   */
  readonly entries: readonly number[];
  readonly sites: readonly ContextCallSite[];
  /** In the order each callee numbers its in-edges: the first numbered edge into a function costs nothing. */
  readonly edges: readonly ContextCallEdge[];
}

/** One frame of a calling context: a function, and the site that called it (null where the context starts). */
export interface ContextFrame {
  readonly function: number;
  readonly site: number | null;
}
