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
}
