import type * as t from '@babel/types';
import type { ControlFlowGraph } from './control-flow-graph';

/** Hidden locals of one activation: the same identifier for the same purpose, declared by the inserter. */
export interface FunctionLocals {
  get(purpose: string, hint: string): t.Identifier;
}

export interface ParameterState {
  readonly purpose: string;
  readonly hint: string;
  readonly initial: t.Expression;
  /**
   * A generator binds its parameters when called and runs its body at the first `next()`: after each default
   * (the activation leaves until the next default or the body) and before each later one (it is back), the
   * plan may run code on the carried state. Only generators' defaults use these.
   */
  readonly leave?: (state: t.Expression) => t.Expression[];
  readonly reenter?: (state: t.Expression) => t.Expression[];
  /**
   * What else of the activation the next default or the body needs, fixed where the activation starts (in
   * `initial`) and kept by the plan in places of its own: each default's wrapper copies it into its locals
   * (`parameterPrologue`), and these expressions, run right after the wrapper puts the state back, put it
   * back from them (code run by the default's value may have used those places).
   */
  readonly handOn?: (locals: FunctionLocals) => t.Expression[];
}

/**
 * Code around the points where an activation stops running without ending, and runs again: `await`, `yield`,
 * `yield*` (between the delegate's steps), each step of `for await`. `suspend` runs right before the
 * activation suspends; `resume` right after it runs again, and must do nothing when it did not suspend (after
 * a `for await` loop ends without a last step). A resumption by an exception (`throw()`, a rejected promise)
 * or by a generator's `return()` runs no `resume`: the plan sees it in its handler entries, its exceptional
 * exit and on the `yield-return` edges.
 */
export interface Suspension {
  readonly suspend: t.Expression[];
  readonly resume: t.Expression[];
}

/**
 * What an instrumenter wants to run, per graph: `insertEdgeCode` puts it where the graph's sites say.
 * Every method may return an empty list (nothing is inserted, and the construct is left as written).
 */
export interface EdgeCodePlan {
  /** Whether to instrument this graph (graphs `canInstrument` rejects never are). */
  include(cfg: ControlFlowGraph): boolean;
  /**
   * Statements run first in every activation's body, before the ENTRY edge's code (declare registers, …).
   * `carried` is given when the graph has parameter defaults that are path decisions: the state they left
   * (see `parameterState`), falsy when none ran; the state local starts from it.
   */
  prologue(cfg: ControlFlowGraph, locals: FunctionLocals, carried?: t.Expression): t.Statement[];
  /**
   * The per-activation state the plan's edge code updates (the path register, the trace activation), which
   * must cross the parameter list when its defaults are path decisions: the local that holds it and its
   * value before anything ran. Null when the plan keeps none.
   */
  parameterState(cfg: ControlFlowGraph): ParameterState | null;
  /** Statements that set up a parameter default's wrapper's own locals, other than the state (aliases). */
  parameterPrologue(cfg: ControlFlowGraph, locals: FunctionLocals): t.Statement[];
  /** Expressions evaluated, in order, exactly when `edge` is taken. Never called for exceptional edges. */
  edgeCode(cfg: ControlFlowGraph, edge: number, locals: FunctionLocals): t.Expression[];
  /** Expressions evaluated when an exception lands in `block` (a `catch`, or a `finally` entered by one). */
  handlerEntry(cfg: ControlFlowGraph, block: number, locals: FunctionLocals): t.Expression[];
  /**
   * Statements run when an exception leaves the activation, before it is rethrown unchanged; `error` names
   * the caught value. Empty: no function-level handler is added. Programs and namespace bodies get none.
   */
  exceptionalExit(cfg: ControlFlowGraph, error: t.Identifier, locals: FunctionLocals): t.Statement[];
  /** Code at the graph's suspension points (see `Suspension`); absent or null: none. */
  suspension?(cfg: ControlFlowGraph, locals: FunctionLocals): Suspension | null;
  /**
   * Code that runs right before each of these calls enters its callee, once the callee and every argument
   * are evaluated (after the last argument; for no arguments after the callee, `(t = f, code, t)()`). The
   * calls must be plain calls (no spread argument) in the graph's own code, outside its parameter list.
   */
  beforeCalls?(cfg: ControlFlowGraph, locals: FunctionLocals): ReadonlyMap<t.CallExpression, t.Expression[]>;
}

/**
 * Whether an exception leaving the graph's activation runs the plan's `exceptionalExit`: a program or a
 * namespace body has no function-level handler (nothing of it could run after a throw out of it anyway).
 */
export function hasExceptionalExit(cfg: ControlFlowGraph): boolean {
  return cfg.kind !== 'program' && cfg.kind !== 'namespace';
}
