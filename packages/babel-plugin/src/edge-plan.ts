import * as t from '@babel/types';
import type { ControlFlowGraph, EdgeCodePlan, FunctionLocals } from '@pathprof/cfg';
import type { EdgeProfilePlan } from '@pathprof/numbering';
import type { FileCounters } from './file-counters';

/** One function in `edge` mode: its chord counters start at `offset` in the file's array. */
export interface EdgeFunction {
  readonly plan: EdgeProfilePlan;
  readonly offset: number;
}

/**
 * The `edge` mode: optimal edge profiling. Only chords of a maximum spanning tree count (`C[k]++`); every
 * other edge's count follows by flow conservation, exceptional exits included, so no handler is needed.
 */
export class EdgePlan implements EdgeCodePlan {
  constructor(
    private readonly functions: ReadonlyMap<ControlFlowGraph, EdgeFunction>,
    private readonly file: FileCounters,
  ) {}

  include(cfg: ControlFlowGraph): boolean {
    return this.functions.has(cfg);
  }

  prologue(_cfg: ControlFlowGraph, locals: FunctionLocals): t.Statement[] {
    return [t.expressionStatement(t.assignmentExpression('=', counts(locals), this.file.counts()))];
  }

  /** Counters need no per-activation state: only the alias of the file's array. */
  parameterState(): null {
    return null;
  }

  parameterPrologue(cfg: ControlFlowGraph, locals: FunctionLocals): t.Statement[] {
    return this.prologue(cfg, locals);
  }

  edgeCode(cfg: ControlFlowGraph, edge: number, locals: FunctionLocals): t.Expression[] {
    const fn = this.functions.get(cfg)!;
    const counter = fn.plan.edgeCounter[edge];
    if (counter < 0) return [];
    return [
      t.updateExpression(
        '++',
        t.memberExpression(counts(locals), t.numericLiteral(fn.offset + counter), true),
      ),
    ];
  }

  handlerEntry(): t.Expression[] {
    return [];
  }

  exceptionalExit(): t.Statement[] {
    return [];
  }
}

function counts(locals: FunctionLocals): t.Identifier {
  return locals.get('counts', 'pp_counts');
}
