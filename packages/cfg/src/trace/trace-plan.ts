import * as t from '@babel/types';
import type { ControlFlowGraph } from '../control-flow-graph';
import type { EdgeCodePlan, FunctionLocals, ParameterState } from '../edge-code-plan';
import { TRACE_GLOBAL } from './trace-recorder';

/**
 * The `trace` mode: every edge reports its id, every activation its start, every landed exception its
 * handler block, so an oracle can rebuild each activation's exact edge sequence. Slow by design.
 */
export class TracePlan implements EdgeCodePlan {
  private readonly ids = new Map<ControlFlowGraph, number>();

  constructor(graphs: readonly ControlFlowGraph[]) {
    graphs.forEach((g, i) => this.ids.set(g, i));
  }

  include(): boolean {
    return true;
  }

  prologue(cfg: ControlFlowGraph, locals: FunctionLocals, carried?: t.Expression): t.Statement[] {
    const enter = this.enter(cfg);
    const value = carried ? t.logicalExpression('||', carried, enter) : enter;
    return [t.expressionStatement(t.assignmentExpression('=', activation(locals), value))];
  }

  /** The activation starts at the first traced parameter default, or in the body. */
  parameterState(cfg: ControlFlowGraph): ParameterState {
    return { purpose: 'activation', hint: 'pp_activation', initial: this.enter(cfg) };
  }

  parameterPrologue(): t.Statement[] {
    return [];
  }

  private enter(cfg: ControlFlowGraph): t.Expression {
    return this.call('enter', [t.numericLiteral(this.ids.get(cfg)!)]);
  }

  edgeCode(_cfg: ControlFlowGraph, edge: number, locals: FunctionLocals): t.Expression[] {
    return [this.call('edge', [activation(locals), t.numericLiteral(edge)])];
  }

  handlerEntry(_cfg: ControlFlowGraph, block: number, locals: FunctionLocals): t.Expression[] {
    return [this.call('handler', [activation(locals), t.numericLiteral(block)])];
  }

  exceptionalExit(_cfg: ControlFlowGraph, _error: t.Identifier, locals: FunctionLocals): t.Statement[] {
    return [t.expressionStatement(this.call('exceptionExit', [activation(locals)]))];
  }

  private call(method: string, args: t.Expression[]): t.Expression {
    return t.callExpression(t.memberExpression(t.identifier(TRACE_GLOBAL), t.identifier(method)), args);
  }
}

function activation(locals: FunctionLocals): t.Identifier {
  return locals.get('activation', 'pp_activation');
}
