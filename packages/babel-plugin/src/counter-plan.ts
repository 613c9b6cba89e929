import * as t from '@babel/types';
import type { ControlFlowGraph, EdgeCodePlan, FunctionLocals, ParameterState } from '@pathprof/cfg';
import type { SimplifiedPathOps } from '@pathprof/numbering';
import { opExpression, type CounterTarget } from './counter-code';
import type { CounterVariables } from './counter-variables';
import type { FileCounters } from './file-counters';
import {
  assignmentExpression,
  expressionStatement,
  logicalExpression,
  memberExpression,
  numericLiteral,
} from '@pathprof/cfg';

// Read once: @babel/types' exports are getters, which V8 does not inline on these hot paths.
const { cloneNode } = t;

/** Where one function's counts go, and the ops that count them. */
export interface CountingFunction {
  /**
   * Path mode: its numbering's ops, known register values folded and dead writes dropped
   * (`simplifyPathOps`); edge mode: its edge profile's (`edgeProfileOps`).
   */
  readonly ops: SimplifiedPathOps;
  /** Array mode: the function's first counter in the file's array; hash mode: its table's slot. */
  readonly storage:
    { readonly kind: 'array'; readonly offset: number } | { readonly kind: 'hash'; readonly slot: number };
}

/**
 * The `path` and `edge` modes: each activation keeps its register in a local and runs the function's ops on
 * each edge, where an exception lands (a `catch`, a `finally` entered by one) and in the function-level
 * handler. In path mode the register is the Ball-Larus path number and each path is counted once where the
 * numbering says; in edge mode it names the block that would throw, and chords are counted (optimal edge
 * profiling, exceptional chords where their exception lands).
 */
export class CounterPlan implements EdgeCodePlan {
  constructor(
    private readonly functions: ReadonlyMap<ControlFlowGraph, CountingFunction>,
    private readonly file: FileCounters,
    /**
     * Where each activation's counts go instead of the file's counters: paths per calling context count into
     * the context's counter (an array from offset 0, or a hash table), which this local holds.
     */
    private readonly perActivation: ((locals: FunctionLocals) => t.Identifier) | null = null,
    /**
     * Edge mode, and path mode (interprocedural functions that keep their paths to themselves too) where names
     * are short: the file's counter variables, which the constant-index counts of every function that cannot
     * run before the preamble declared them go to (`FileCounters.afterPreamble`).
     */
    private readonly variables: CounterVariables | null = null,
  ) {
    for (const [cfg, { ops }] of functions) checkLandings(cfg, ops);
  }

  include(cfg: ControlFlowGraph): boolean {
    return this.functions.has(cfg);
  }

  prologue(cfg: ControlFlowGraph, locals: FunctionLocals, carried?: t.Expression): t.Statement[] {
    if (carried) {
      // The register comes from the parameters' defaults (0 when none ran), not from the prologue's `r = 0`.
      const start = logicalExpression('||', carried, numericLiteral(0));
      return [
        ...this.parameterPrologue(cfg, locals),
        expressionStatement(assignmentExpression('=', register(locals)(), start)),
      ];
    }
    const { ops } = this.functions.get(cfg)!;
    const target = this.target(cfg, locals);
    return [
      ...this.parameterPrologue(cfg, locals),
      ...ops.prologue.map((op) => expressionStatement(opExpression(op, register(locals), target))),
    ];
  }

  /** The register crosses parameter defaults that are path decisions, unless no op uses it. */
  parameterState(cfg: ControlFlowGraph): ParameterState | null {
    const { ops } = this.functions.get(cfg)!;
    const all = [ops.prologue, ops.exceptionalExit, ...ops.edgeOps].flat();
    if (!all.some((op) => op.kind !== 'count-const')) return null;
    return { purpose: 'register', hint: 'pp_r', initial: numericLiteral(0) };
  }

  /**
   * The alias of the function's counters (its slice of the file's array, or its hash table); none when it
   * counts in the file's variables, and in the file's array directly where an exception leaves.
   */
  parameterPrologue(cfg: ControlFlowGraph, locals: FunctionLocals): t.Statement[] {
    const fn = this.functions.get(cfg)!;
    const target = this.target(cfg, locals);
    if (target.kind === 'variables' && !this.countsAtRegister(cfg)) return [];
    const counters = this.perActivation
      ? this.perActivation(locals)
      : fn.storage.kind === 'array'
        ? this.file.counts(cfg.node)
        : memberExpression(this.file.hashed(cfg.node), numericLiteral(fn.storage.slot), true);
    const alias = target.kind === 'hash' ? target.table : (target.counts as t.Identifier);
    return [expressionStatement(assignmentExpression('=', cloneNode(alias), counters))];
  }

  edgeCode(cfg: ControlFlowGraph, edge: number, locals: FunctionLocals): t.Expression[] {
    const target = this.target(cfg, locals);
    return this.functions.get(cfg)!.ops.edgeOps[edge].map((op) => opExpression(op, register(locals), target));
  }

  /** The ops of the exceptional edges into `block`, which all carry the same. */
  handlerEntry(cfg: ControlFlowGraph, block: number, locals: FunctionLocals): t.Expression[] {
    const { ops } = this.functions.get(cfg)!;
    const e = landingEdge(cfg, block);
    if (e < 0) return [];
    const target = this.target(cfg, locals);
    return ops.edgeOps[e].map((op) => opExpression(op, register(locals), target));
  }

  /** Every exceptional edge into EXIT carries the same count, of the register as it stands. */
  exceptionalExit(cfg: ControlFlowGraph, _error: t.Identifier, locals: FunctionLocals): t.Statement[] {
    const target = this.target(cfg, locals);
    return this.functions
      .get(cfg)!
      .ops.exceptionalExit.map((op) => expressionStatement(opExpression(op, register(locals), target)));
  }

  /** Whether a count at a register index runs on a normal edge or in the prologue: a hot count, not an exception's. */
  private countsAtRegister(cfg: ControlFlowGraph): boolean {
    const { ops } = this.functions.get(cfg)!;
    if (ops.prologue.some((op) => op.kind === 'count-add')) return true;
    for (let e = 0; e < cfg.edgeCount; e++)
      if (cfg.edgeExceptional[e] === 0 && ops.edgeOps[e].some((op) => op.kind === 'count-add')) return true;
    return false;
  }

  /** The alias is named `_pp_c…`, short: it is written at every count (a third of lodash's inserted names). */
  private target(cfg: ControlFlowGraph, locals: FunctionLocals): CounterTarget {
    const { storage } = this.functions.get(cfg)!;
    if (storage.kind === 'hash') return { kind: 'hash', table: locals.get('table', 'pp_table') };
    if (this.variables && this.file.afterPreamble(cfg.node)) {
      // Counts at register indexes on normal edges (path mode's loops and joins) keep the activation's alias;
      // those only where an exception lands (edge mode's) read the file's array there.
      const counts = this.countsAtRegister(cfg) ? locals.get('counts', 'pp_c') : this.file.counts(cfg.node);
      return { kind: 'variables', variables: this.variables, counts, offset: storage.offset };
    }
    return { kind: 'array', counts: locals.get('counts', 'pp_c'), offset: storage.offset };
  }
}

/** An exceptional edge into `block`, or -1. */
export function landingEdge(cfg: ControlFlowGraph, block: number): number {
  for (let e = 0; e < cfg.edgeCount; e++)
    if (cfg.edgeExceptional[e] === 1 && cfg.edgeDst[e] === block) return e;
  return -1;
}

/** Exceptions land in EXIT or a handler: anywhere else their ops would never run. */
function checkLandings(cfg: ControlFlowGraph, ops: SimplifiedPathOps): void {
  const handlers = new Set(cfg.handlers.map((h) => h.block));
  for (let e = 0; e < cfg.edgeCount; e++) {
    const v = cfg.edgeDst[e];
    if (cfg.edgeExceptional[e] === 1 && ops.edgeOps[e].length > 0 && v !== cfg.exit && !handlers.has(v))
      throw new Error(`internal error: ${cfg.name}: exceptional edge ${e} lands in b${v}, not a handler`);
  }
}

/** The register, declared on first use. */
function register(locals: FunctionLocals): () => t.Identifier {
  return () => locals.get('register', 'pp_r');
}
