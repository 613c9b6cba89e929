import * as t from '@babel/types';
import type { ControlFlowGraph, EdgeCodePlan, FunctionLocals, ParameterState } from '@pathprof/cfg';
import type { SimplifiedPathOps } from '@pathprof/numbering';
import { opExpression, type CounterTarget } from './counter-code';
import type { FileCounters } from './file-counters';

/** Where one function's counts go and how its paths are numbered. */
export interface PathFunction {
  /** Its numbering's ops, known register values folded and dead writes dropped (`simplifyPathOps`). */
  readonly ops: SimplifiedPathOps;
  /** Array mode: the function's first counter in the file's array; hash mode: its table's slot. */
  readonly storage:
    { readonly kind: 'array'; readonly offset: number } | { readonly kind: 'hash'; readonly slot: number };
}

/**
 * The `path` mode: Ball-Larus path profiling. Each activation keeps its path register in a local, runs the
 * numbering's (simplified) ops on each edge, and counts each path once where the numbering says; an exception
 * leaving the activation counts the register as it stands (the numbering keeps exceptional edges at
 * increment 0), or the constant it is known to be.
 */
export class PathPlan implements EdgeCodePlan {
  constructor(
    private readonly functions: ReadonlyMap<ControlFlowGraph, PathFunction>,
    private readonly file: FileCounters,
  ) {}

  include(cfg: ControlFlowGraph): boolean {
    return this.functions.has(cfg);
  }

  prologue(cfg: ControlFlowGraph, locals: FunctionLocals, carried?: t.Expression): t.Statement[] {
    if (carried) {
      // The register comes from the parameters' defaults (0 when none ran), not from the prologue's `r = 0`.
      const start = t.logicalExpression('||', carried, t.numericLiteral(0));
      return [
        ...this.parameterPrologue(cfg, locals),
        t.expressionStatement(t.assignmentExpression('=', register(locals)(), start)),
      ];
    }
    const { ops } = this.functions.get(cfg)!;
    const target = this.target(cfg, locals);
    return [
      ...this.parameterPrologue(cfg, locals),
      ...ops.prologue.map((op) => t.expressionStatement(opExpression(op, register(locals), target))),
    ];
  }

  parameterState(): ParameterState {
    return { purpose: 'register', hint: 'pp_r', initial: t.numericLiteral(0) };
  }

  /** The alias of the function's counters (its slice of the file's array, or its hash table). */
  parameterPrologue(cfg: ControlFlowGraph, locals: FunctionLocals): t.Statement[] {
    const fn = this.functions.get(cfg)!;
    const target = this.target(cfg, locals);
    const counters =
      fn.storage.kind === 'array'
        ? this.file.counts()
        : t.memberExpression(this.file.hashed(), t.numericLiteral(fn.storage.slot), true);
    const alias = target.kind === 'array' ? target.counts : target.table;
    return [t.expressionStatement(t.assignmentExpression('=', t.cloneNode(alias), counters))];
  }

  edgeCode(cfg: ControlFlowGraph, edge: number, locals: FunctionLocals): t.Expression[] {
    const target = this.target(cfg, locals);
    return this.functions.get(cfg)!.ops.edgeOps[edge].map((op) => opExpression(op, register(locals), target));
  }

  handlerEntry(): t.Expression[] {
    return [];
  }

  /** Every exceptional edge into EXIT carries the same count, of the register as it stands. */
  exceptionalExit(cfg: ControlFlowGraph, _error: t.Identifier, locals: FunctionLocals): t.Statement[] {
    const target = this.target(cfg, locals);
    return this.functions
      .get(cfg)!
      .ops.exceptionalExit.map((op) => t.expressionStatement(opExpression(op, register(locals), target)));
  }

  private target(cfg: ControlFlowGraph, locals: FunctionLocals): CounterTarget {
    const { storage } = this.functions.get(cfg)!;
    return storage.kind === 'array'
      ? { kind: 'array', counts: locals.get('counts', 'pp_counts'), offset: storage.offset }
      : { kind: 'hash', table: locals.get('table', 'pp_table') };
  }
}

/** The path register, declared on first use. */
function register(locals: FunctionLocals): () => t.Identifier {
  return () => locals.get('register', 'pp_r');
}
