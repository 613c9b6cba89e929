import * as t from '@babel/types';
import type { ControlFlowGraph } from '../control-flow-graph';
import { EdgeKind } from '../edge-kind';
import type { EdgeCodePlan, FunctionLocals, ParameterState, Suspension } from '../edge-code-plan';
import { TRACE_GLOBAL } from './trace-recorder';

/**
 * The `trace` mode: every edge reports its id, every activation its start, every landed exception its
 * handler block, so an oracle can rebuild each activation's exact edge sequence; every suspension (`await`,
 * `yield`, a generator's parameters bound before its body runs) and resumption too, so it can tell which
 * activation runs at any time. Slow by design.
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
    if (carried && cfg.isGenerator) {
      // The generator's defaults ran at the call; its body starts now, at the first next().
      const taken = t.assignmentExpression('=', activation(locals), carried);
      const resume = this.call('resume', [activation(locals)]);
      const start = t.assignmentExpression('=', activation(locals), enter);
      return [t.expressionStatement(t.conditionalExpression(taken, resume, start))];
    }
    const value = carried ? t.logicalExpression('||', carried, enter) : enter;
    return [t.expressionStatement(t.assignmentExpression('=', activation(locals), value))];
  }

  /** The activation starts at the first traced parameter default, or in the body. */
  parameterState(cfg: ControlFlowGraph): ParameterState {
    return {
      purpose: 'activation',
      hint: 'pp_activation',
      initial: this.enter(cfg),
      leave: (state) => [this.call('suspend', [state])],
      reenter: (state) => [this.call('resume', [state])],
    };
  }

  /** A flag set while suspended, so a resumption is reported once (a `for await` loop can end without one). */
  suspension(_cfg: ControlFlowGraph, locals: FunctionLocals): Suspension {
    const away = suspended(locals);
    return {
      // Once: a `for await` loop over a sync iterable suspends when its adapter looks `return` up, and again
      // after calling it.
      suspend: [
        t.logicalExpression(
          '||',
          away,
          t.sequenceExpression([
            t.assignmentExpression('=', t.cloneNode(away), t.numericLiteral(1)),
            this.call('suspend', [activation(locals)]),
          ]),
        ),
      ],
      resume: [
        t.logicalExpression(
          '&&',
          t.cloneNode(away),
          t.sequenceExpression([
            t.assignmentExpression('=', t.cloneNode(away), t.numericLiteral(0)),
            this.call('resume', [activation(locals)]),
          ]),
        ),
      ],
    };
  }

  parameterPrologue(): t.Statement[] {
    return [];
  }

  private enter(cfg: ControlFlowGraph): t.Expression {
    return this.call('enter', [t.numericLiteral(this.ids.get(cfg)!)]);
  }

  edgeCode(cfg: ControlFlowGraph, edge: number, locals: FunctionLocals): t.Expression[] {
    const report = this.call('edge', [activation(locals), t.numericLiteral(edge)]);
    // A generator's return() resumes it at a yield and ends it: the event says it runs again.
    if (cfg.edgeKind[edge] !== EdgeKind.YieldReturn) return [report];
    return [t.assignmentExpression('=', suspended(locals), t.numericLiteral(0)), report];
  }

  handlerEntry(cfg: ControlFlowGraph, block: number, locals: FunctionLocals): t.Expression[] {
    const report = this.call('handler', [activation(locals), t.numericLiteral(block)]);
    // An exception may resume a suspended activation (throw(), a rejected await): the event says so.
    if (!suspends(cfg)) return [report];
    return [t.assignmentExpression('=', suspended(locals), t.numericLiteral(0)), report];
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

function suspended(locals: FunctionLocals): t.Identifier {
  return locals.get('suspended', 'pp_away');
}

function suspends(cfg: ControlFlowGraph): boolean {
  const fn = cfg.node;
  return cfg.kind === 'program' || (t.isFunction(fn) && (fn.async === true || fn.generator === true));
}
