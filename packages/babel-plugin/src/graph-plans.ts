import type * as t from '@babel/types';
import type { ControlFlowGraph, EdgeCodePlan, FunctionLocals, ParameterState } from '@pathprof/cfg';

/**
 * Several plans sharing one file, each graph instrumented by the first plan that includes it: a mode whose
 * functions fall back one by one to another mode (preferential functions changed since their interesting set
 * was made are counted in path mode).
 */
export class GraphPlans implements EdgeCodePlan {
  constructor(private readonly plans: readonly EdgeCodePlan[]) {}

  include(cfg: ControlFlowGraph): boolean {
    return this.plans.some((plan) => plan.include(cfg));
  }

  prologue(cfg: ControlFlowGraph, locals: FunctionLocals, carried?: t.Expression): t.Statement[] {
    return this.of(cfg).prologue(cfg, locals, carried);
  }

  parameterState(cfg: ControlFlowGraph): ParameterState | null {
    return this.of(cfg).parameterState(cfg);
  }

  parameterPrologue(cfg: ControlFlowGraph, locals: FunctionLocals): t.Statement[] {
    return this.of(cfg).parameterPrologue(cfg, locals);
  }

  edgeCode(cfg: ControlFlowGraph, edge: number, locals: FunctionLocals): t.Expression[] {
    return this.of(cfg).edgeCode(cfg, edge, locals);
  }

  handlerEntry(cfg: ControlFlowGraph, block: number, locals: FunctionLocals): t.Expression[] {
    return this.of(cfg).handlerEntry(cfg, block, locals);
  }

  exceptionalExit(cfg: ControlFlowGraph, error: t.Identifier, locals: FunctionLocals): t.Statement[] {
    return this.of(cfg).exceptionalExit(cfg, error, locals);
  }

  private of(cfg: ControlFlowGraph): EdgeCodePlan {
    const plan = this.plans.find((p) => p.include(cfg));
    if (!plan) throw new Error(`internal error: no plan instruments ${cfg.name}`);
    return plan;
  }
}
