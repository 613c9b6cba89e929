import * as t from '@babel/types';
import type { ControlFlowGraph, EdgeCodePlan, FunctionLocals, ParameterState } from '@pathprof/cfg';
import type { PathOp, PreferentialNumbering, SimplifiedPathOps } from '@pathprof/numbering';
import { opExpression, plus, type CounterTarget } from './counter-code';
import { landingEdge } from './counter-plan';
import type { FileCounters } from './file-counters';
import {
  assignmentExpression,
  binaryExpression,
  callExpression,
  conditionalExpression,
  expressionStatement,
  identifier,
  logicalExpression,
  memberExpression,
  numericLiteral,
  updateExpression,
} from '@pathprof/cfg';

/** One function in preferential mode: its two registers' ops, its slots, and where its counts go. */
export interface PreferentialFunction {
  /** The Ball-Larus register's ops, and the PPP register's, each simplified (`simplifyPathOps`). */
  readonly bl: SimplifiedPathOps;
  readonly pppOps: SimplifiedPathOps;
  readonly ppp: PreferentialNumbering;
  /** Its first counter in the file's array, and its first entry in the file's slot table. */
  readonly offset: number;
  /** Its residual paths' hash table in the file's record. */
  readonly table: number;
}

/** The two registers of an activation: plain locals, or the fields of one object (see `parameterState`). */
interface Registers {
  readonly r: t.Identifier | t.MemberExpression;
  readonly p: t.Identifier | t.MemberExpression;
}

/**
 * The `preferential` mode: Vaswani, Nori & Chilimbi's preferential path profiling. Each activation keeps two
 * registers updated on the same chords: `r`, the Ball-Larus id, and `p`, the compact (PPP) id. Where a path
 * ends, `p` is an interesting path's counter only if it lies in the function's array and the file's slot
 * table holds `r` there (PPP does not control other paths' `p`: they alias, fall into holes, under- or
 * overflow); every other path is residual and counts by `r` in the function's hash table:
 *
 * ```js
 * p >>> 0 < SIZE && S[p + K] === r ? C[p + K]++ : (file).hashed[T].inc(r)
 * ```
 * (`>>> 0` folds the two bounds checks into one; a `p` it wraps into range still fails the identity check,
 * since only the interesting path with that Ball-Larus id ends with that compact id.) Each register's ops are
 * simplified on their own: where one is known at compile time its part of the test folds away.
 */
export class PreferentialPlan implements EdgeCodePlan {
  constructor(
    private readonly functions: ReadonlyMap<ControlFlowGraph, PreferentialFunction>,
    private readonly file: FileCounters,
    /** The file's slot table: per counter, the Ball-Larus id of the interesting path it counts. */
    private readonly slots: t.Identifier,
  ) {}

  include(cfg: ControlFlowGraph): boolean {
    return this.functions.has(cfg);
  }

  prologue(cfg: ControlFlowGraph, locals: FunctionLocals, carried?: t.Expression): t.Statement[] {
    const fn = this.functions.get(cfg)!;
    const aliases = this.parameterPrologue(cfg, locals);
    if (carried) {
      // The registers come from the parameters' defaults (their initial values when none ran).
      const state = registerObject(locals);
      const start = logicalExpression('||', carried, this.initialRegisters(fn));
      return [...aliases, expressionStatement(assignmentExpression('=', t.cloneNode(state), start))];
    }
    return [
      ...aliases,
      ...this.ops(cfg, fn.bl.prologue, fn.pppOps.prologue, locals).map((x) => expressionStatement(x)),
    ];
  }

  /**
   * A function whose parameter defaults are path decisions carries both registers from the defaults to the
   * body in one object, `{ r, p }`, and keeps them there throughout (the carrier holds one value).
   */
  parameterState(cfg: ControlFlowGraph): ParameterState {
    return { purpose: 'registers', hint: 'pp_s', initial: this.initialRegisters(this.functions.get(cfg)!) };
  }

  /** The alias of the file's counter array. */
  parameterPrologue(cfg: ControlFlowGraph, locals: FunctionLocals): t.Statement[] {
    const { counts } = this.target(cfg, locals);
    return [expressionStatement(assignmentExpression('=', t.cloneNode(counts), this.file.counts()))];
  }

  edgeCode(cfg: ControlFlowGraph, edge: number, locals: FunctionLocals): t.Expression[] {
    const fn = this.functions.get(cfg)!;
    return this.ops(cfg, fn.bl.edgeOps[edge], fn.pppOps.edgeOps[edge], locals);
  }

  /** The ops of the exceptional edges into `block`, which all carry the same. */
  handlerEntry(cfg: ControlFlowGraph, block: number, locals: FunctionLocals): t.Expression[] {
    const fn = this.functions.get(cfg)!;
    const e = landingEdge(cfg, block);
    return e < 0 ? [] : this.ops(cfg, fn.bl.edgeOps[e], fn.pppOps.edgeOps[e], locals);
  }

  /** An exception leaving the activation ends its path as the registers stand. */
  exceptionalExit(cfg: ControlFlowGraph, _error: t.Identifier, locals: FunctionLocals): t.Statement[] {
    const fn = this.functions.get(cfg)!;
    return this.ops(cfg, fn.bl.exceptionalExit, fn.pppOps.exceptionalExit, locals).map((x) =>
      expressionStatement(x),
    );
  }

  /**
   * One edge's ops of both numberings. They share a spanning tree and a placement, so their path ends fall
   * on the same edges in the same order: each register's updates before a path end run first, then the end
   * classifies the pair; the updates after it (a removed edge starting the next path) follow.
   */
  private ops(
    cfg: ControlFlowGraph,
    bl: readonly PathOp[],
    ppp: readonly PathOp[],
    locals: FunctionLocals,
  ): t.Expression[] {
    const fn = this.functions.get(cfg)!;
    const regs = this.registers(cfg, locals);
    const target = this.target(cfg, locals);
    const blParts = splitAtCounts(bl);
    const pppParts = splitAtCounts(ppp);
    if (blParts.ends.length !== pppParts.ends.length) {
      throw new Error(`internal error: ${cfg.name}: the two numberings end paths on different edges`);
    }
    const out: t.Expression[] = [];
    blParts.updates.forEach((updates, i) => {
      out.push(...updates.map((op) => opExpression(op, () => t.cloneNode(regs.r), target)));
      out.push(...pppParts.updates[i].map((op) => opExpression(op, () => t.cloneNode(regs.p), target)));
      if (i < blParts.ends.length)
        out.push(this.pathEnd(fn, blParts.ends[i], pppParts.ends[i], regs, target));
    });
    return out;
  }

  /** Where a path ends: its interesting counter, or its residual count (constants folded where known). */
  private pathEnd(
    fn: PreferentialFunction,
    blEnd: PathOp,
    pppEnd: PathOp,
    { r, p }: Registers,
    { counts }: CounterTarget & { kind: 'array' },
  ): t.Expression {
    const blId = () =>
      blEnd.kind === 'count-add' ? plus(t.cloneNode(r), blEnd.value) : numericLiteral(blEnd.value);
    const residual = callExpression(
      memberExpression(
        memberExpression(this.file.hashed(), numericLiteral(fn.table), true),
        identifier('inc'),
      ),
      [blId()],
    );
    const counter = (index: t.Expression) =>
      updateExpression('++', memberExpression(t.cloneNode(counts), index, true));
    const size = fn.ppp.arraySize;
    if (pppEnd.kind === 'count-const') {
      // The compact id is known here: so is the one Ball-Larus id that makes the path interesting.
      const k = pppEnd.value;
      const slotted = k >= 0 && k < size ? fn.ppp.slotPathId[k] : -1;
      if (slotted < 0) return residual;
      const hit = counter(numericLiteral(fn.offset + k));
      if (blEnd.kind === 'count-const') return blEnd.value === slotted ? hit : residual;
      return conditionalExpression(binaryExpression('===', blId(), numericLiteral(slotted)), hit, residual);
    }
    if (size === 0) return residual;
    const index = () => plus(t.cloneNode(p), fn.offset + pppEnd.value);
    const inRange = binaryExpression(
      '<',
      binaryExpression('>>>', plus(t.cloneNode(p), pppEnd.value), numericLiteral(0)),
      numericLiteral(size),
    );
    const holdsR = binaryExpression('===', memberExpression(t.cloneNode(this.slots), index(), true), blId());
    return conditionalExpression(logicalExpression('&&', inRange, holdsR), counter(index()), residual);
  }

  /** `{ r: R0, p: P0 }`: the registers as the prologue leaves them. */
  private initialRegisters(fn: PreferentialFunction): t.ObjectExpression {
    return t.objectExpression([
      t.objectProperty(identifier('r'), numericLiteral(startValue(fn.bl.prologue))),
      t.objectProperty(identifier('p'), numericLiteral(startValue(fn.pppOps.prologue))),
    ]);
  }

  private registers(cfg: ControlFlowGraph, locals: FunctionLocals): Registers {
    if (cfg.parameterDefaults.length > 0) {
      const state = registerObject(locals);
      return {
        r: memberExpression(state, identifier('r')),
        p: memberExpression(t.cloneNode(state), identifier('p')),
      };
    }
    return { r: locals.get('register', 'pp_r'), p: locals.get('ppp-register', 'pp_p') };
  }

  private target(cfg: ControlFlowGraph, locals: FunctionLocals): CounterTarget & { kind: 'array' } {
    return {
      kind: 'array',
      counts: locals.get('counts', 'pp_c'),
      offset: this.functions.get(cfg)!.offset,
    };
  }
}

function registerObject(locals: FunctionLocals): t.Identifier {
  return locals.get('registers', 'pp_s');
}

/** A prologue's effect on its register, which starts from 0. */
function startValue(prologue: readonly PathOp[]): number {
  return prologue.reduce((value, op) => {
    if (op.kind === 'set') return op.value;
    if (op.kind === 'add') return value + op.value;
    throw new Error('internal error: a prologue that ends a path');
  }, 0);
}

/** A list of ops as the register updates between its path ends (one more list than ends), and the ends. */
function splitAtCounts(ops: readonly PathOp[]): { updates: PathOp[][]; ends: PathOp[] } {
  const updates: PathOp[][] = [[]];
  const ends: PathOp[] = [];
  for (const op of ops) {
    if (op.kind === 'count-add' || op.kind === 'count-const') {
      ends.push(op);
      updates.push([]);
    } else updates[updates.length - 1].push(op);
  }
  return { updates, ends };
}
