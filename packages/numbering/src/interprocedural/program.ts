import type { FlowGraph } from '../flow-graph';

/**
 * One call site inside a procedure's graph, split as the supergraph needs it (Melski & Reps §2.2): the call
 * vertex `call` ends with the call, and control resumes at the return-site vertex `returnSite` when the callee
 * returns. In the procedure's `FlowGraph` the edge `call → returnSite` stands for the whole call: it is the
 * call vertex's only normal out-edge and the return site's only in-edge. The call vertex may also have an
 * exceptional out-edge (the callee threw, or the call itself did).
 */
export interface CallSite {
  /** A program-wide id for the site, stable across builds of the same source: the decoder names sites by it. */
  readonly site: number;
  readonly call: number;
  readonly returnSite: number;
  /** The procedure called (index in `Program.procedures`) when it is known statically, else null (indirect
   *  calls, methods, callbacks, native code): such a site is always cut, like a recursive one. */
  readonly callee: number | null;
}

export interface Procedure {
  /** A human name, for messages and reports. */
  readonly name: string;
  /** The file that defines the procedure, for the per-file hybrid. */
  readonly file: string;
  readonly graph: FlowGraph;
  readonly callSites: readonly CallSite[];
  /**
   * Edges that end one path and start the next, as backedges do (T2): cut to keep the procedure's own paths
   * within a budget (`fitInterproceduralNumbering`). Never exceptional, silent, into the exit, or into or out
   * of a call vertex.
   */
  readonly splitEdges?: readonly number[];
}

/** The input of interprocedural numbering: every procedure's graph with its call sites. */
export interface Program {
  readonly procedures: readonly Procedure[];
  /**
   * Procedures that can start without an instrumented direct call (`Entry_global → Entry_P`): the program's
   * main or module body first, then exported functions, callbacks, and every procedure an unknown call site
   * may reach. Targets of recursive and cut sites are added to these automatically.
   */
  readonly roots: readonly number[];
}
