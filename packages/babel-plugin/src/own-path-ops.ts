import type { ControlFlowGraph } from '@pathprof/cfg';
import {
  simplestPathOps,
  type InterproceduralOp,
  type LinearFunction,
  type OpProgram,
  type PathOp,
  type ProcedurePlan,
  type SimplifiedPathOps,
} from '@pathprof/numbering';

/** What an interprocedural procedure that keeps its paths to itself runs, in the terms of `ownPathOps`. */
export interface OwnPaths {
  readonly plan: ProcedurePlan;
  /** Its register at entry: `rootStart - componentStart`. */
  readonly rootStart: number;
  /** Its nvc, the same in every activation (1 for a function only entered as a root, unless it restarts). */
  readonly nvc: bigint;
  /** An exception leaving it ends a path there, which its function-level handler records. */
  readonly throwEnds: boolean;
}

/**
 * The Melski-Reps ops of a procedure whose every activation is a root and that crosses no call (no hand-off
 * in or out, no open parenthesis kept, no parameter defaults, array storage) as Ball-Larus ops over its
 * register (`pathNum - componentStart`), simplified as path mode's are (`simplifyPathOps`): known register
 * values folded, so that a path known where it ends is counted at a constant index (a module variable where
 * the file has them), and dead writes dropped. They run exactly what `InterproceduralCode` would emit for it:
 * `add` and `record` at `f(nvc)`, a restart as the value it sets, the root's record on every edge into EXIT,
 * and on exceptional and silent edges only what that code runs there: the record where an exception leaves
 * (its handlers restart nothing, as no exception comes out of a crossed call), nothing on a silent edge.
 */
export function ownPathOps(cfg: ControlFlowGraph, own: OwnPaths): SimplifiedPathOps {
  const at = (f: LinearFunction): number => Number(f.a * own.nvc + f.b);
  const translate = (op: InterproceduralOp): PathOp => {
    switch (op.kind) {
      case 'add':
        return { kind: 'add', value: at(op.increment) };
      case 'record':
        return { kind: 'count-add', value: at(op.increment) };
      case 'restart':
        return { kind: 'set', value: own.rootStart + at(op.increment) };
      case 'restart-piecewise':
        return { kind: 'set', value: Number(op.pathNumber - own.plan.componentStart) };
    }
  };
  const record: PathOp = { kind: 'count-add', value: 0 };
  const edgeOps = own.plan.edgeOps.map((ops, e): PathOp[] => {
    if (cfg.edgeExceptional[e] === 1) return cfg.edgeDst[e] === cfg.exit && own.throwEnds ? [record] : [];
    if (cfg.edgeSilent[e] === 1) return [];
    const translated = ops.map(translate);
    return cfg.edgeDst[e] === cfg.exit ? [...translated, record] : translated;
  });
  const program: OpProgram = {
    blockCount: cfg.blockCount,
    entry: cfg.entry,
    exit: cfg.exit,
    edgeCount: cfg.edgeCount,
    edgeSrc: cfg.edgeSrc,
    edgeDst: cfg.edgeDst,
    edgeExceptional: cfg.edgeExceptional,
    edgeSilent: cfg.edgeSilent,
    prologue: [{ kind: 'set', value: own.rootStart }],
    edgeOps,
  };
  // Melski and Reps record a root's path on its edges into EXIT, after any join: counted before the join
  // instead where that leaves fewer counts at a register index (fib's two returns: two constant counts).
  return simplestPathOps(program);
}
