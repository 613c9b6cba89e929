import * as t from '@babel/types';
import type { ControlFlowGraph, EdgeCodePlan, FunctionLocals, ParameterState } from '@pathprof/cfg';
import type {
  ComponentStorage,
  InterproceduralNumbering,
  InterproceduralOp,
  InterproceduralPlan,
  LinearFunction,
  ProcedurePlan,
} from '@pathprof/numbering';
import { plus } from './counter-code';
import type { CountingFunction } from './counter-plan';
import type { FileCounters } from './file-counters';
import { procedureFacts, type ProcedureFacts } from './interprocedural-facts';
import { ownPathOps } from './own-path-ops';
import {
  assignmentExpression,
  binaryExpression,
  blockStatement,
  booleanLiteral,
  conditionalExpression,
  expressionStatement,
  identifier,
  logicalExpression,
  memberExpression,
  numericLiteral,
  sequenceExpression,
  unaryExpression,
  updateExpression,
} from '@pathprof/cfg';

/** What a handler runs when an exception out of a crossed call lands in it. */
interface Restart {
  readonly ops: readonly InterproceduralOp[];
  /** Out of an absolute callee, which recorded the path; out of a relative one, which left it pending. */
  readonly afterAbsolute: boolean;
  readonly afterRelative: boolean;
}

/** What one function's code needs to know beyond its plan. */
interface ProcedureCode {
  /** The function's id in the hand-off token: its procedure index + 1 (0 means no hand-off pending). */
  readonly id: number;
  readonly plan: ProcedurePlan;
  /** Some crossed call site enters it: its prologue takes the hand-off. */
  readonly crossedInto: boolean;
  /**
   * The register holds the path number minus `bias`. Functions whose parameter defaults are path decisions
   * carry the register from the defaults to the body in a slot where 0 means "nothing ran yet", so their
   * register is kept above 0 (`bias` is the sentinel, below every value); every other function's is 0. A
   * hand-off carries the path number itself: each side applies its own bias.
   */
  readonly bias: number;
  /** The register's value while an absolute crossed callee runs: the sentinel, biased. */
  readonly marker: number;
  /** Its register is relative to its entry (`ProcedureFacts.relative`). */
  readonly relative: boolean;
  /** nvc when every activation has the same one throughout (`constantNvc`) or it is never read, else null. */
  readonly nvc: bigint | null;
  /** The edge into the call vertex of each crossed site (hand-off), and the edge out of it (return). */
  readonly handOff: ReadonlyMap<number, number>;
  readonly returns: ReadonlyMap<number, number>;
  /** Per handler block: the restart an exception out of a crossed call runs there. */
  readonly restarts: ReadonlyMap<number, Restart>;
  /** An exception can end a path in this function (one not out of a crossed callee). */
  readonly throwEnds: boolean;
  /** An exception out of a relative crossed callee can leave this function, its path still pending. */
  readonly pendingLeaves: boolean;
  /** Some crossed call enters an absolute callee (one that takes the register through the mailbox). */
  readonly crossesAbsolute: boolean;
  /**
   * Some crossed call enters a callee that can also start as a root, so this function writes tokens. A
   * token is pending only between the hand-off and the callee's prologue, where the one exception possible
   * is a stack overflow on entry; every exception out of this function then clears the token, so the
   * callee's next entry as a root cannot take a stale hand-off.
   */
  readonly handsTokens: boolean;
  /**
   * Piecewise: the `open` flag is read, when a root exit adds its value only with no open call, or when the
   * function hands it back to a crossed caller, and it can be false; elsewhere it is never kept.
   */
  readonly tracksOpen: boolean;
  /**
   * Every normal return of this crossed callee adds the same constant to the register it took (see
   * `returnDelta`): it hands nothing back and its callers add the constant themselves. Null otherwise.
   */
  readonly returnDelta: bigint | null;
  /** The callee's procedure index per crossed site (index in the graph's `callSites`). */
  readonly callees: readonly number[];
  /**
   * The register holds path numbers relative to the component's first (`componentStart`): small numbers in
   * a file of many components. This is the root start so relative, null when only crossed calls enter.
   */
  readonly rootStart: number | null;
  readonly componentStart: bigint;
  /** Where the paths ending here are counted: the hash table of its component, or -1 for the array... */
  readonly table: number;
  /**
   * ...at the register plus this: the component's offset in the array, or for a table its first path number
   * (a table is keyed by the path number).
   */
  readonly slotShift: number;
}

/**
 * The `interprocedural` mode: Melski & Reps' instrumentation (wave2-design.md has the protocol). Each
 * activation keeps `pathNum` in a local register, with its `nvc` (numValidCompsFromExit) and, piecewise, an
 * `open` flag (its left parenthesis is still on the path: the by-reference `cntOpenLfParens` made per frame).
 * A crossed call hands the register, the callee's nvc and a token naming the callee to a per-file mailbox
 * right before the call; the callee's prologue takes them when the token names it, else it starts as a
 * root. The callee hands the register back when it returns; while it runs, the caller's register holds a
 * sentinel below every path value, which tells the caller's handlers that an exception came out of a crossed
 * callee (the callee recorded the path; a handler starts the next one). A relative callee (no path ends in
 * it but by an exception) takes no register: it counts from 0 and hands back what it added, which the
 * caller adds to the register it kept; while it runs the caller's register holds a second sentinel, and an
 * exception out of it hands its relative register up until a caller that knows its own records the path.
 * Paths are counted where they end, in their component's slice of the file's array or in its hash table
 * (`planComponentStorage`).
 */
export class InterproceduralCode implements EdgeCodePlan {
  private readonly procedures = new Map<ControlFlowGraph, ProcedureCode>();
  /**
   * The procedures that keep their paths to themselves, counted as path mode counts (`ownPathOps`): every
   * activation a root, no call crossed, no defaults, array storage. This plan leaves them out.
   */
  readonly ownPaths = new Map<ControlFlowGraph, CountingFunction>();
  private readonly piecewise: boolean;
  private readonly facts: ProcedureFacts;
  private readonly returnDeltas: readonly (bigint | null)[];
  /** A caller's register while a relative callee runs: below every absolute and relative value. */
  private readonly relativeMarker: number;
  /** Some activation starting in its defaults hands on its root flag, its entry value (`activationStart`). */
  private readonly startSlots = { root: false, entry: false };

  constructor(
    numbering: InterproceduralNumbering,
    private readonly plan: InterproceduralPlan,
    graphs: readonly ControlFlowGraph[],
    private readonly file: FileCounters,
    private readonly mailbox: Mailbox,
    storage: ComponentStorage,
  ) {
    this.piecewise = plan.scheme === 'piecewise';
    const sentinel = -Number(plan.valueBound) - 1;
    const facts = (this.facts = procedureFacts(numbering, plan, graphs));
    this.relativeMarker = -2 * Number(plan.valueBound) - 2;
    const nvcOf = (index: number) => (facts.readsNvc[index] ? facts.constantNvc[index] : 1n);
    this.returnDeltas = graphs.map((cfg, index) =>
      facts.relative[index] ? returnDelta(cfg, plan.procedures[index], nvcOf(index)) : null,
    );
    graphs.forEach((cfg, index) => {
      const procedurePlan = plan.procedures[index];
      const crossedInto = facts.crossedInto[index];
      const bias = cfg.parameterDefaults.length > 0 ? sentinel : 0;
      const handOff = new Map<number, number>();
      const returns = new Map<number, number>();
      const callVertex = new Map<number, number>();
      const callees: number[] = [];
      numbering.procedures[index].callSites.forEach((site, k) => {
        callees.push(site.callee ?? -1);
        if (procedurePlan.callSites[k].kind !== 'crossed') return;
        callVertex.set(site.call, k);
        for (let e = 0; e < cfg.edgeCount; e++) {
          if (cfg.edgeExceptional[e]) continue;
          if (cfg.edgeDst[e] === site.call) handOff.set(e, k);
          if (cfg.edgeSrc[e] === site.call) returns.set(e, k);
        }
      });
      const restarts = new Map<number, Restart>();
      let throwEnds = false;
      let pendingLeaves = false;
      for (let e = 0; e < cfg.edgeCount; e++) {
        if (!cfg.edgeExceptional[e]) continue;
        const k = callVertex.get(cfg.edgeSrc[e]);
        const fromRelative = k !== undefined && facts.relative[callees[k]];
        if (cfg.edgeDst[e] === cfg.exit) {
          throwEnds ||= k === undefined;
          pendingLeaves ||= fromRelative;
        } else if (k !== undefined) {
          const known = restarts.get(cfg.edgeDst[e]);
          restarts.set(cfg.edgeDst[e], {
            ops: procedurePlan.edgeOps[e],
            afterAbsolute: (known?.afterAbsolute ?? false) || !fromRelative,
            afterRelative: (known?.afterRelative ?? false) || fromRelative,
          });
        }
      }
      if (facts.relative[index] && restarts.size > 0) {
        throw new Error(`internal error: ${cfg.name} is relative but restarts in a handler`);
      }
      const component = numbering.procedures[index].component;
      this.procedures.set(cfg, {
        id: index + 1,
        plan: procedurePlan,
        crossedInto,
        bias,
        marker: sentinel - bias,
        relative: facts.relative[index],
        nvc: nvcOf(index),
        handOff,
        returns,
        restarts,
        throwEnds,
        pendingLeaves,
        crossesAbsolute: [...handOff.values()].some((k) => !facts.relative[callees[k]]),
        handsTokens: [...handOff.values()].some((k) => plan.procedures[callees[k]].rootStart !== null),
        returnDelta: this.returnDeltas[index],
        tracksOpen:
          this.piecewise &&
          !facts.alwaysOpen[index] &&
          (crossedInto || (procedurePlan.rootStart !== null && procedurePlan.rootExitValue !== 0n)),
        callees,
        rootStart:
          procedurePlan.rootStart === null
            ? null
            : Number(procedurePlan.rootStart - procedurePlan.componentStart),
        componentStart: procedurePlan.componentStart,
        table: storage.table[component],
        slotShift:
          storage.table[component] >= 0
            ? Number(procedurePlan.componentStart)
            : storage.arrayOffset[component],
      });
    });
    for (const [cfg, p] of this.procedures) {
      const own =
        !p.crossedInto &&
        p.handOff.size === 0 &&
        !p.tracksOpen &&
        p.nvc !== null &&
        p.table < 0 &&
        cfg.parameterDefaults.length === 0;
      if (!own) continue;
      const ops = ownPathOps(cfg, {
        plan: p.plan,
        rootStart: p.rootStart!,
        nvc: p.nvc!,
        throwEnds: p.throwEnds,
      });
      this.ownPaths.set(cfg, { ops, storage: { kind: 'array', offset: p.slotShift } });
      this.procedures.delete(cfg);
    }
    // An activation of a crossed-into function with defaults starts where its first default runs.
    for (const [cfg, p] of this.procedures) {
      if (!p.crossedInto || cfg.parameterDefaults.length === 0) continue;
      this.startSlots.root ||= this.needsRootFlag(p);
      this.startSlots.entry ||= this.usesEntry(p);
    }
  }

  /**
   * The mailbox: a hoisted function, so it exists before any code of the file runs (module cycles), and its two
   * busiest fields as hoisted `var`s (each read follows its write in the same crossing, so never `undefined`).
   */
  declarations(): t.Statement[] {
    // Every function keeps its paths to itself (`ownPaths`): nothing crosses a call, no mailbox.
    if (this.procedures.size === 0) return [];
    const slots = [
      ...(this.startSlots.root ? [this.mailbox.root] : []),
      ...(this.startSlots.entry ? [this.mailbox.entry] : []),
    ];
    return [
      t.functionDeclaration(t.cloneNode(this.mailbox.object), [], blockStatement([])),
      t.variableDeclaration(
        'var',
        [this.mailbox.ret, this.mailbox.nvc, ...slots].map((id) => t.variableDeclarator(t.cloneNode(id))),
      ),
    ];
  }

  include(cfg: ControlFlowGraph): boolean {
    return this.procedures.has(cfg);
  }

  prologue(cfg: ControlFlowGraph, locals: FunctionLocals, carried?: t.Expression): t.Statement[] {
    const p = this.procedures.get(cfg)!;
    const r = register(locals);
    const out: t.Expression[] = [];
    const start = p.rootStart;
    if (p.crossedInto && carried) {
      // It may have started in a default: the register comes from the carrier, the rest from its slots.
      out.push(assign(r, logicalExpression('||', carried, this.activationStart(p))));
      for (const [local, slot] of this.startedValues(p, locals)) out.push(assign(local, t.cloneNode(slot)));
    } else if (p.crossedInto) {
      // A stale token is only ever compared by the function it names: one never entered as a root skips it.
      const take = [
        ...(start === null ? [] : [this.set('tok', numericLiteral(0))]),
        assign(r, p.relative ? numericLiteral(0) : this.field('inp')),
        ...(p.nvc === null ? [assign(nvcOf(locals), this.field('nvc'))] : []),
      ];
      if (start === null) out.push(...take);
      else {
        const tokenIsMine = binaryExpression('===', this.field('tok'), numericLiteral(p.id));
        const asRoot = [assign(r, num(BigInt(start)))];
        if (p.nvc === null) asRoot.push(assign(nvcOf(locals), numericLiteral(1)));
        if (this.needsRootFlag(p)) {
          take.push(assign(rootOf(locals), booleanLiteral(false)));
          asRoot.push(assign(rootOf(locals), booleanLiteral(true)));
        }
        out.push(conditionalExpression(tokenIsMine, seq(take), seq(asRoot)));
      }
      if (this.usesEntry(p)) out.push(assign(entryOf(locals), t.cloneNode(r)));
    } else {
      const initial = num(BigInt(start! - p.bias));
      out.push(assign(r, carried ? logicalExpression('||', carried, initial) : initial));
      if (p.nvc === null) out.push(assign(nvcOf(locals), numericLiteral(1)));
    }
    if (p.tracksOpen) out.push(assign(openOf(locals), booleanLiteral(true)));
    return out.map((e) => expressionStatement(e));
  }

  /** Parameter defaults run before the body: the register crosses them, from where the activation started. */
  parameterState(cfg: ControlFlowGraph): ParameterState {
    const p = this.procedures.get(cfg)!;
    if (!p.crossedInto)
      return { purpose: 'register', hint: 'pp_r', initial: num(BigInt(p.rootStart! - p.bias)) };
    return {
      purpose: 'register',
      hint: 'pp_r',
      initial: this.activationStart(p),
      handOn: (locals) =>
        this.startedValues(p, locals).map(([local, slot]) => assign(slot, t.cloneNode(local))),
    };
  }

  /** A default's wrapper keeps what the activation fixed where it started (its slots may be reused inside). */
  parameterPrologue(cfg: ControlFlowGraph, locals: FunctionLocals): t.Statement[] {
    const p = this.procedures.get(cfg)!;
    if (!p.crossedInto) return [];
    return this.startedValues(p, locals).map(([local, slot]) => statement(assign(local, t.cloneNode(slot))));
  }

  edgeCode(cfg: ControlFlowGraph, edge: number, locals: FunctionLocals): t.Expression[] {
    const p = this.procedures.get(cfg)!;
    const r = register(locals);
    const out: t.Expression[] = [];
    const k = this.returnsFrom(p, edge);
    if (k >= 0) out.push(...this.afterCrossedCall(p, k, locals));
    // A default of a function never crossed into runs in a root activation, where nvc is 1.
    const constantNvc = cfg.edges[edge].inParameter && !p.crossedInto ? 1n : p.nvc;
    out.push(...p.plan.edgeOps[edge].flatMap((op) => this.op(op, p, locals, constantNvc)));
    const handOff = p.handOff.get(edge);
    if (handOff !== undefined) {
      const site = p.plan.callSites[handOff];
      if (site.kind !== 'crossed') throw new Error('internal error: a hand-off at a cut site');
      const callee = p.callees[handOff];
      const relative = this.facts.relative[callee];
      out.push(
        relative ? assign(savedOf(locals), t.cloneNode(r)) : this.set('inp', plus(t.cloneNode(r), p.bias)),
        ...(this.facts.readsNvc[callee] && this.facts.constantNvc[callee] === null
          ? [this.set('nvc', this.linear(site.argument, locals, constantNvc))]
          : []),
        // Only a callee that can also start as a root compares the token.
        ...(this.plan.procedures[callee].rootStart === null
          ? []
          : [this.set('tok', numericLiteral(callee + 1))]),
        assign(r, num(BigInt(relative ? this.relativeMarker : p.marker))),
      );
    }
    if (cfg.edgeDst[edge] === cfg.exit) out.push(...this.exit(p, locals));
    return out;
  }

  handlerEntry(cfg: ControlFlowGraph, block: number, locals: FunctionLocals): t.Expression[] {
    const p = this.procedures.get(cfg)!;
    const restart = p.restarts.get(block);
    if (!restart) return [];
    const ops = () => restart.ops.flatMap((op) => this.op(op, p, locals, p.nvc));
    const out: t.Expression[] = [];
    if (restart.afterAbsolute) {
      const clearToken = p.handsTokens ? [this.set('tok', numericLiteral(0))] : [];
      const code = [...clearToken, ...ops()];
      if (code.length > 0) out.push(logicalExpression('&&', this.holds(locals, p.marker), seq(code)));
    }
    // A restart sets the register to a path value: at most one of the two runs.
    if (restart.afterRelative) {
      const code = [this.recordPending(p, locals), ...ops()];
      out.push(logicalExpression('&&', this.holds(locals, this.relativeMarker), seq(code)));
    }
    return out;
  }

  exceptionalExit(cfg: ControlFlowGraph, _error: t.Identifier, locals: FunctionLocals): t.Statement[] {
    const p = this.procedures.get(cfg)!;
    const r = register(locals);
    let code: t.Statement[];
    if (p.relative) {
      // Its relative register goes up with the exception, pending: no caller below a relative one crossed it.
      code = p.throwEnds
        ? [statement(this.set('exc', t.cloneNode(r))), statement(this.set('pend', booleanLiteral(true)))]
        : [];
    } else {
      const clearToken = p.handsTokens ? [statement(this.set('tok', numericLiteral(0)))] : [];
      const record = statement(this.count(p, plus(t.cloneNode(r), p.bias + p.slotShift)));
      if (!p.throwEnds) code = clearToken;
      else if (!p.crossesAbsolute) code = [record];
      // The register holds the marker when the exception came out of an absolute callee: it recorded the path.
      else code = [t.ifStatement(this.holds(locals, p.marker, '!=='), record, block(clearToken))];
    }
    if (!p.pendingLeaves) return code;
    // Out of a relative callee: the path it left pending is recorded here, or, in a relative function, goes
    // further up relative to this one's entry.
    const pending = p.relative
      ? logicalExpression(
          '&&',
          this.field('pend'),
          assignmentExpression('+=', this.field('exc'), t.cloneNode(savedOf(locals))),
        )
      : this.recordPending(p, locals);
    return [t.ifStatement(this.holds(locals, this.relativeMarker), statement(pending), block(code))];
  }

  // ---------------------------------------------------------------- pieces

  private op(
    op: InterproceduralOp,
    p: ProcedureCode,
    locals: FunctionLocals,
    nvc: bigint | null,
  ): t.Expression[] {
    const r = register(locals);
    switch (op.kind) {
      case 'add': {
        const f = this.linear(op.increment, locals, nvc);
        if (t.isNumericLiteral(f) || t.isUnaryExpression(f)) {
          const v = literalValue(f);
          return [
            v >= 0
              ? assignmentExpression('+=', t.cloneNode(r), numericLiteral(v))
              : assignmentExpression('-=', t.cloneNode(r), numericLiteral(-v)),
          ];
        }
        return [assignmentExpression('+=', t.cloneNode(r), f)];
      }
      case 'record':
        return [this.count(p, this.offset(t.cloneNode(r), op.increment, p.bias + p.slotShift, locals, nvc))];
      case 'restart': {
        // pathNum = pathNumOnEntry + f(nvc); a function never crossed into entered at its root start.
        const entry = p.crossedInto ? t.cloneNode(entryOf(locals)) : num(BigInt(p.rootStart!));
        return [assign(r, this.offset(entry, op.increment, -p.bias, locals, nvc))];
      }
      case 'restart-piecewise': {
        const out = [assign(r, num(op.pathNumber - p.componentStart - BigInt(p.bias)))];
        if (p.nvc === null) out.push(assign(nvcOf(locals), num(op.nvc)));
        if (p.tracksOpen) out.push(assign(openOf(locals), booleanLiteral(false)));
        return out;
      }
    }
  }

  /**
   * Where an activation of a crossed-into function whose defaults are path decisions starts, in the first
   * default that runs or else in the body: the register's first value, the hand-off's when the token names
   * it (or always, if it never starts as a root). The rest the body needs waits in file-level slots until it
   * is read, and goes through each wrapper's locals (`startedValues`): nvc in the mailbox's (a root's is 1),
   * the root flag and the entry value (unbiased, as restarts read it) in slots of their own.
   */
  private activationStart(p: ProcedureCode): t.Expression {
    const crossed: t.Expression[] = [];
    const asRoot: t.Expression[] = [];
    if (this.needsRootFlag(p)) {
      crossed.push(assign(this.mailbox.root, booleanLiteral(false)));
      asRoot.push(assign(this.mailbox.root, booleanLiteral(true)));
    }
    if (p.nvc === null) asRoot.push(this.set('nvc', numericLiteral(1)));
    if (this.usesEntry(p)) {
      crossed.push(assign(this.mailbox.entry, this.field('inp')));
      if (p.rootStart !== null) asRoot.push(assign(this.mailbox.entry, numericLiteral(p.rootStart)));
    }
    crossed.push(plus(this.field('inp'), -p.bias));
    if (p.rootStart === null) return seq(crossed);
    asRoot.push(num(BigInt(p.rootStart - p.bias)));
    const tokenIsMine = binaryExpression('===', this.field('tok'), numericLiteral(p.id));
    return conditionalExpression(
      tokenIsMine,
      seq([this.set('tok', numericLiteral(0)), ...crossed]),
      seq(asRoot),
    );
  }

  /** Each value `activationStart` leaves in a slot that this function reads: its local and its slot. */
  private startedValues(p: ProcedureCode, locals: FunctionLocals): [t.Identifier, t.Identifier][] {
    const out: [t.Identifier, t.Identifier][] = [];
    if (p.nvc === null) out.push([nvcOf(locals), this.mailbox.nvc]);
    if (this.needsRootFlag(p)) out.push([rootOf(locals), this.mailbox.root]);
    if (this.usesEntry(p)) out.push([entryOf(locals), this.mailbox.entry]);
    return out;
  }

  /** After a crossed call returns: the callee's register; piecewise, a return with no open call is fixed up. */
  private afterCrossedCall(p: ProcedureCode, k: number, locals: FunctionLocals): t.Expression[] {
    const r = register(locals);
    const site = p.plan.callSites[k];
    const callee = p.callees[k];
    // A relative callee returns what it added (a constant one nothing) and never closes a parenthesis.
    if (this.facts.relative[callee]) {
      const delta = this.returnDeltas[callee];
      const saved = t.cloneNode(savedOf(locals));
      return [
        assign(
          r,
          delta === null ? binaryExpression('+', saved, this.field('ret')) : plus(saved, Number(delta)),
        ),
      ];
    }
    const out: t.Expression[] = [assign(r, plus(this.field('ret'), -p.bias))];
    // A callee that always returns open never closes the caller's parenthesis: no fix-up can run.
    if (
      this.piecewise &&
      site.kind === 'crossed' &&
      site.returnFixup &&
      !this.facts.alwaysOpen[p.callees[k]]
    ) {
      const fix: t.Expression[] = [];
      if (site.returnFixup.value !== 0n)
        fix.push(assignmentExpression('+=', t.cloneNode(r), num(site.returnFixup.value)));
      if (p.nvc === null) fix.push(assign(nvcOf(locals), num(site.returnFixup.nvc)));
      if (p.tracksOpen) fix.push(assign(openOf(locals), booleanLiteral(false)));
      if (fix.length > 0) out.push(logicalExpression('||', this.field('open'), seq(fix)));
    }
    return out;
  }

  /** A normal return: a root activation records its path, a crossed callee hands the register back (unless
   * its callers know what it adds). */
  private exit(p: ProcedureCode, locals: FunctionLocals): t.Expression[] {
    const r = register(locals);
    const asRoot: t.Expression[] = [];
    // With no open flag kept, the parenthesis is always open at the exit: the value is never added.
    if (p.tracksOpen && p.plan.rootExitValue !== 0n) {
      const add = assignmentExpression('+=', t.cloneNode(r), num(p.plan.rootExitValue));
      asRoot.push(logicalExpression('||', t.cloneNode(openOf(locals)), add));
    }
    asRoot.push(this.count(p, plus(t.cloneNode(r), p.bias + p.slotShift)));
    const asCallee = [this.set('ret', plus(t.cloneNode(r), p.bias))];
    if (p.tracksOpen) asCallee.push(this.set('open', t.cloneNode(openOf(locals))));
    if (!p.crossedInto) return [seq(asRoot)];
    if (p.returnDelta !== null) return [];
    if (p.plan.rootStart === null) return [seq(asCallee)];
    return [conditionalExpression(t.cloneNode(rootOf(locals)), seq(asRoot), seq(asCallee))];
  }

  /**
   * The path an exception left pending in a relative callee, recorded once: the register kept at the
   * hand-off plus the callee's relative one. None pending: the exception came before its prologue (a stack
   * overflow on entering it).
   */
  private recordPending(p: ProcedureCode, locals: FunctionLocals): t.Expression {
    const slot = plus(
      binaryExpression('+', t.cloneNode(savedOf(locals)), this.field('exc')),
      p.bias + p.slotShift,
    );
    return logicalExpression(
      '&&',
      this.field('pend'),
      sequenceExpression([this.set('pend', booleanLiteral(false)), this.count(p, slot)]),
    );
  }

  /** `register === marker` (or `!==`). */
  private holds(locals: FunctionLocals, marker: number, operator: '===' | '!==' = '==='): t.Expression {
    return binaryExpression(operator, register(locals), num(BigInt(marker)));
  }

  private returnsFrom(p: ProcedureCode, edge: number): number {
    return p.returns.get(edge) ?? -1;
  }

  private needsRootFlag(p: ProcedureCode): boolean {
    return p.crossedInto && p.plan.rootStart !== null;
  }

  private usesEntry(p: ProcedureCode): boolean {
    return p.plan.edgeOps.some((ops) => ops.some((op) => op.kind === 'restart'));
  }

  /** `base + f(nvc) + extra`, constants folded. */
  private offset(
    base: t.Expression,
    f: LinearFunction,
    extra: number,
    locals: FunctionLocals,
    nvc: bigint | null,
  ): t.Expression {
    const shifted = { a: f.a, b: f.b + BigInt(extra) };
    const value = this.linear(shifted, locals, nvc);
    if (t.isNumericLiteral(value) || t.isUnaryExpression(value)) return plus(base, literalValue(value));
    return binaryExpression('+', base, value);
  }

  /** `f(nvc) = a·nvc + b` as JavaScript, folded when nvc is known. */
  private linear(f: LinearFunction, locals: FunctionLocals, nvc: bigint | null): t.Expression {
    if (nvc !== null || f.a === 0n) return num(f.a * (nvc ?? 0n) + f.b);
    const scaled =
      f.a === 1n ? t.cloneNode(nvcOf(locals)) : binaryExpression('*', num(f.a), t.cloneNode(nvcOf(locals)));
    return f.b === 0n ? scaled : plus(scaled, Number(f.b));
  }

  /** Counts at `slot`: the register plus `slotShift` (an array slot, or a hash table's key: the path number). */
  private count(p: ProcedureCode, slot: t.Expression): t.Expression {
    if (p.table >= 0) return this.file.frontCount(slot, p.table);
    return updateExpression('++', memberExpression(this.file.counts(), slot, true));
  }

  private field(name: MailboxField): t.MemberExpression | t.Identifier {
    if (name === 'ret' || name === 'nvc') return t.cloneNode(this.mailbox[name]);
    return memberExpression(t.cloneNode(this.mailbox.object), identifier(name));
  }

  private set(name: MailboxField, value: t.Expression): t.Expression {
    return assignmentExpression('=', this.field(name), value);
  }
}

/**
 * Where crossed calls leave what they exchange: fields of a per-file object, but the register a callee hands
 * back (`ret`) and the nvc a site hands in (`nvc`) are module-level variables. Every crossing of a callee whose
 * delta depends on its path writes and reads `ret`: as a property store and load it cost the calls kernel
 * about 4% more than as a variable (bench/NOTES.md, session 14).
 */
export interface Mailbox {
  readonly object: t.Identifier;
  readonly ret: t.Identifier;
  readonly nvc: t.Identifier;
  /** What an activation that starts in a parameter default fixes there for its body (`activationStart`). */
  readonly root: t.Identifier;
  readonly entry: t.Identifier;
}

type MailboxField = 'ret' | 'nvc' | 'inp' | 'tok' | 'exc' | 'pend' | 'open';

function register(locals: FunctionLocals): t.Identifier {
  return locals.get('register', 'pp_r');
}

function nvcOf(locals: FunctionLocals): t.Identifier {
  return locals.get('nvc', 'pp_nvc');
}

function entryOf(locals: FunctionLocals): t.Identifier {
  return locals.get('entry', 'pp_entry');
}

function rootOf(locals: FunctionLocals): t.Identifier {
  return locals.get('root', 'pp_root');
}

/** The caller's register after a crossed call to a callee with a constant return delta, kept from the hand-off. */
function savedOf(locals: FunctionLocals): t.Identifier {
  return locals.get('saved', 'pp_s');
}

function openOf(locals: FunctionLocals): t.Identifier {
  return locals.get('open', 'pp_open');
}

function statement(e: t.Expression): t.Statement {
  return expressionStatement(e);
}

function block(statements: t.Statement[]): t.BlockStatement | null {
  return statements.length > 0 ? blockStatement(statements) : null;
}

function assign(target: t.Identifier, value: t.Expression): t.Expression {
  return assignmentExpression('=', t.cloneNode(target), value);
}

function seq(exprs: t.Expression[]): t.Expression {
  return exprs.length === 1 ? exprs[0] : sequenceExpression(exprs);
}

/** A number literal; negative values as `-n` (Babel's numeric literals are non-negative). */
function num(value: bigint): t.Expression {
  const v = Number(value);
  return v < 0 ? unaryExpression('-', numericLiteral(-v)) : numericLiteral(v);
}

function literalValue(e: t.Expression): number {
  if (t.isNumericLiteral(e)) return e.value;
  if (t.isUnaryExpression(e) && e.operator === '-' && t.isNumericLiteral(e.argument))
    return -e.argument.value;
  throw new Error('internal error: not a number literal');
}

/**
 * The constant a crossed callee's every normal return adds to the register it took, or null: only for a
 * function never entered as a root, crossing no call itself, whose edges (but those of exceptions leaving it)
 * carry only increments that are constants (nvc constant) and sum to the same value on every way from its
 * entry to a return, through its own handlers too (no loop: a back edge records). An exception leaving it
 * still ends the path in the callee, which read the register at entry.
 */
function returnDelta(cfg: ControlFlowGraph, plan: ProcedurePlan, nvc: bigint | null): bigint | null {
  if (plan.rootStart !== null || plan.callSites.some((site) => site.kind === 'crossed')) return null;
  const out: number[][] = cfg.blocks.map(() => []);
  // An exception that leaves the function ends the path there; one its own handler catches does not.
  for (let e = 0; e < cfg.edgeCount; e++) {
    if (!cfg.edgeExceptional[e] || cfg.edgeDst[e] !== cfg.exit) out[cfg.edgeSrc[e]].push(e);
  }
  const reached = new Map<number, bigint>([[cfg.entry, 0n]]);
  const work = [cfg.entry];
  let delta: bigint | null = null;
  while (work.length > 0) {
    const block = work.pop()!;
    for (const e of out[block]) {
      let sum = reached.get(block)!;
      for (const op of plan.edgeOps[e]) {
        if (op.kind !== 'add' || (op.increment.a !== 0n && nvc === null)) return null;
        sum += op.increment.a * (nvc ?? 0n) + op.increment.b;
      }
      const next = cfg.edgeDst[e];
      if (next === cfg.exit) {
        if (delta !== null && delta !== sum) return null;
        delta = sum;
      } else if (!reached.has(next)) {
        reached.set(next, sum);
        work.push(next);
      } else if (reached.get(next) !== sum) return null;
    }
  }
  return delta;
}
