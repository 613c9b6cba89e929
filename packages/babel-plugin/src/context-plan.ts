import * as t from '@babel/types';
import {
  EdgeKind,
  assignmentExpression,
  binaryExpression,
  callExpression,
  conditionalExpression,
  expressionStatement,
  identifier,
  logicalExpression,
  memberExpression,
  numericLiteral,
  sequenceExpression,
  type ControlFlowGraph,
  type EdgeCodePlan,
  type FunctionLocals,
  type ParameterState,
  type Suspension,
} from '@pathprof/cfg';
import { FRAME_CHECKS, FRAME_ENTERS, FRAME_TAKES } from '@pathprof/runtime';
import type { FileCounters } from './file-counters';
import type { CounterPlan } from './counter-plan';

/** What a call site does before its callee starts: hand off the callee's context value, or ask for a push. */
export type ContextHandOff =
  /**
   * `h = v + delta; t = base + token`: a numbered call; no token to a callee that only numbered calls enter
   * (it takes every entry as a hand-off).
   */
  | { readonly kind: 'add'; readonly delta: number; readonly token: number | null }
  /** `t = -site`: a recursive or reduced call; the callee pushes `<v, site>` (site = 1 + the site's id). */
  | { readonly kind: 'push'; readonly site: number };

/** One function's part in the file's calling contexts. */
export interface ContextFunction {
  /** Its first context value in the file (`base[f]`): id 0 is value `first`. */
  readonly first: number;
  /** Some numbered call enters it: its prologue takes a hand-off whose token is `base + first + 1`. */
  readonly numbered: boolean;
  /** It can start otherwise (an entry, a recursion's target): at its dummy edge, id 0. */
  readonly dummy: boolean;
  /** Its calls that hand off to their callee. */
  readonly calls: ReadonlyMap<t.CallExpression, ContextHandOff>;
  /** Paths per context: how many paths the function has (its counter per context). */
  readonly pathCount: number;
}

/**
 * Calling contexts (Sumner et al.'s precise calling-context encoding), alone or around path mode's code.
 * The running context lives in the realm's shared state `x` (runtime's `ContextState`): each activation
 * notes the `v`/`s` it finds (`pv`, `ps`), sets its own, and puts the noted ones back wherever it leaves:
 * on its normal exits, in its function-level handler, before each suspension; it sets its own again in its
 * handlers and after each resumption. A numbered call hands the callee's value over in `x.h` with a token
 * in `x.t` naming the callee, right before the call; any other entry pushes `<caller's value, site>` and
 * starts at the function's dummy edge (`x.enter`). Every entry is counted in its context; with path mode's
 * plan inside, the function's paths go to its counter for the context (`x.paths`), the `pp_c` or
 * `pp_table` alias path mode's code counts into.
 *
 * A function whose parameter defaults are path decisions enters at its first default (as the tracer's
 * activations do), where it takes a numbered call's hand-off: the defaults and the body share a frame
 * object, `{ x, pv, ps, v, s, P, r }`, which the wrappers carry; a generator's activation leaves after each
 * default and comes back in the next one or the body (its body runs at the first `next()`).
 */
export class ContextPlan implements EdgeCodePlan {
  constructor(
    private readonly functions: ReadonlyMap<ControlFlowGraph, ContextFunction>,
    private readonly file: FileCounters,
    private readonly hashThreshold: number,
    private readonly paths: CounterPlan | null,
  ) {}

  include(cfg: ControlFlowGraph): boolean {
    return this.functions.has(cfg);
  }

  prologue(cfg: ControlFlowGraph, locals: FunctionLocals, carried?: t.Expression): t.Statement[] {
    const fn = this.functions.get(cfg)!;
    const x = local(locals, 'x');
    const file = local(locals, 'file');
    const v = local(locals, 'v');
    const entry: t.Expression[] = [assign(local(locals, 'pv'), member(x, 'v'))];
    if (pushes(fn)) entry.push(assign(local(locals, 'ps'), member(x, 's')));
    // With paths per context, the call that counts the entry returns the context's path counter (one lookup).
    if (this.paths)
      entry.push(assign(local(locals, 'paths'), this.entry(fn, x, file, true)), assign(v, member(x, 'v')));
    else entry.push(assign(v, this.entry(fn, x, file, false)));
    if (this.keepsStack(cfg)) entry.push(assign(local(locals, 's'), member(x, 's')));
    const out: t.Expression[] = [assign(file, this.file.contexts()), assign(x, member(file, 'state'))];
    if (carried) {
      const frame = local(locals, 'frame');
      const unpacked = this.unpack(frame, locals);
      // A generator's body starts at the first next(), after its parameters were bound: it comes back.
      if (cfg.isGenerator) unpacked.push(...this.reenterLocals(locals));
      out.push(conditionalExpression(assign(frame, carried), seq(unpacked), seq(entry)));
    } else out.push(...entry);
    const statements = out.map((e) => expressionStatement(e));
    if (!this.paths) return statements;
    const register = carried
      ? logicalExpression('&&', local(locals, 'frame'), member(local(locals, 'frame'), 'r'))
      : undefined;
    return [...statements, ...this.paths.prologue(cfg, locals, register)];
  }

  /**
   * The activation's frame, made where its first default runs: there it takes a numbered call's hand-off or
   * enters as the body's prologue would (nothing runs between the call and the first default).
   */
  parameterState(cfg: ControlFlowGraph): ParameterState {
    const fn = this.functions.get(cfg)!;
    const file = () => this.file.contexts();
    const handOff = !fn.numbered ? FRAME_ENTERS : fn.dummy ? FRAME_CHECKS : FRAME_TAKES;
    const frame = callExpression(memberExpression(member(file(), 'state'), identifier('frame')), [
      file(),
      numericLiteral(fn.first),
      numericLiteral(this.paths ? fn.pathCount : -1),
      numericLiteral(this.hashThreshold),
      ...(handOff === FRAME_ENTERS ? [] : [numericLiteral(handOff)]),
    ]);
    return {
      purpose: 'ctx:frame',
      hint: 'pp_cf',
      initial: frame,
      leave: (state) => [
        assignMember(member(state, 'x'), 'v', member(t.cloneNode(state), 'pv')),
        assignMember(member(t.cloneNode(state), 'x'), 's', member(t.cloneNode(state), 'ps')),
      ],
      reenter: (state) => {
        const s = () => t.cloneNode(state);
        const x = () => member(s(), 'x');
        return [
          assignMember(s(), 'pv', member(x(), 'v')),
          assignMember(s(), 'ps', member(x(), 's')),
          assignMember(x(), 'v', member(s(), 'v')),
          assignMember(x(), 's', member(s(), 's')),
        ];
      },
    };
  }

  /** A default's wrapper: the frame's fields in its own locals, so its code is the body's. */
  parameterPrologue(cfg: ControlFlowGraph, locals: FunctionLocals): t.Statement[] {
    const unpacked = this.unpack(local(locals, 'frame'), locals).map((e) => expressionStatement(e));
    return [...unpacked, ...(this.paths?.parameterPrologue(cfg, locals) ?? [])];
  }

  edgeCode(cfg: ControlFlowGraph, edge: number, locals: FunctionLocals): t.Expression[] {
    const out: t.Expression[] = [];
    const inner = this.paths?.edgeCode(cfg, edge, locals) ?? [];
    if (cfg.edges[edge].inParameter) {
      // The register crosses to the next default and the body in the frame.
      if (inner.length === 0) return [];
      return [...inner, assignMember(local(locals, 'frame'), 'r', local(locals, 'register'))];
    }
    // A generator's return() at a yield: it runs again (to its finally blocks, then out).
    if (cfg.edgeKind[edge] === EdgeKind.YieldReturn) out.push(...this.resume(locals));
    out.push(...inner);
    if (cfg.edgeDst[edge] === cfg.exit) out.push(...this.restore(cfg, locals));
    return out;
  }

  handlerEntry(cfg: ControlFlowGraph, block: number, locals: FunctionLocals): t.Expression[] {
    const x = local(locals, 'x');
    const out: t.Expression[] = [];
    // An exception resumed a suspended activation (throw(), a rejected await): what runs now is noted.
    if (suspends(cfg)) out.push(logicalExpression('&&', local(locals, 'away'), seq(this.noteCaller(locals))));
    out.push(
      assignMember(x, 'v', local(locals, 'v')),
      assignMember(t.cloneNode(x), 's', local(locals, 's')),
      assignMember(t.cloneNode(x), 't', numericLiteral(0)),
    );
    return [...out, ...(this.paths?.handlerEntry(cfg, block, locals) ?? [])];
  }

  exceptionalExit(cfg: ControlFlowGraph, error: t.Identifier, locals: FunctionLocals): t.Statement[] {
    const inner = this.paths?.exceptionalExit(cfg, error, locals) ?? [];
    // Nothing can throw out of it: no handler around the body. Nor where only numbered calls enter it: the
    // caller is then an instrumented activation below it, whose own handler puts its context back (and clears
    // the token) wherever the exception lands. Suspending functions keep theirs (an exception after a
    // resumption has no caller below).
    if (!throwsOut(cfg) || (takesHandOffsOnly(this.functions.get(cfg)!) && !suspends(cfg))) return inner;
    const restore = seq(this.restore(cfg, locals));
    // Resumed by an exception straight out (throw() at a yield): the resumer's context is still running.
    const guarded = suspends(cfg) ? logicalExpression('||', local(locals, 'away'), restore) : restore;
    const clear = assignMember(local(locals, 'x'), 't', numericLiteral(0));
    return [...inner, expressionStatement(guarded), expressionStatement(clear)];
  }

  suspension(cfg: ControlFlowGraph, locals: FunctionLocals): Suspension | null {
    if (!suspends(cfg)) return null;
    const away = local(locals, 'away');
    return {
      suspend: [
        logicalExpression(
          '||',
          away,
          seq([assign(t.cloneNode(away), numericLiteral(1)), ...this.restore(cfg, locals)]),
        ),
      ],
      resume: this.resume(locals),
    };
  }

  beforeCalls(cfg: ControlFlowGraph, locals: FunctionLocals): Map<t.CallExpression, t.Expression[]> {
    const x = local(locals, 'x');
    const out = new Map<t.CallExpression, t.Expression[]>();
    for (const [call, handOff] of this.functions.get(cfg)!.calls) {
      if (handOff.kind === 'push') {
        out.set(call, [assignMember(x, 't', numericLiteral(-handOff.site))]);
        continue;
      }
      const value = assignMember(x, 'h', plusConstant(local(locals, 'v'), handOff.delta));
      if (handOff.token === null) {
        out.set(call, [value]);
        continue;
      }
      const token = plusConstant(member(local(locals, 'file'), 'base'), handOff.token);
      out.set(call, [value, assignMember(t.cloneNode(x), 't', token)]);
    }
    return out;
  }

  // ---------------------------------------------------------------- pieces

  /**
   * `x.take(F)` for a numbered call's callee, `x.enter(F, first)` otherwise; both count the entry and return
   * its value. With `paths`, `x.takePaths(F, n, h)` and `x.enterPaths(F, first, n, h)`, which return the
   * context's path counter.
   */
  private entry(fn: ContextFunction, x: t.Identifier, file: t.Identifier, paths: boolean): t.Expression {
    const counter = paths ? [numericLiteral(fn.pathCount), numericLiteral(this.hashThreshold)] : [];
    const call = (method: string, args: t.Expression[]) =>
      callExpression(memberExpression(t.cloneNode(x), identifier(method + (paths ? 'Paths' : ''))), [
        ...args,
        ...counter.map((e) => t.cloneNode(e)),
      ]);
    const take = call('take', [t.cloneNode(file)]);
    const enter = call('enter', [t.cloneNode(file), numericLiteral(fn.first)]);
    if (!fn.numbered) return enter;
    if (!fn.dummy) return take;
    const token = plusConstant(member(file, 'base'), fn.first + 1);
    return conditionalExpression(binaryExpression('===', member(x, 't'), token), take, enter);
  }

  /** The frame's fields in the activation's locals. */
  private unpack(frame: t.Identifier, locals: FunctionLocals): t.Expression[] {
    const fields: [string, string][] = [
      ['x', 'x'],
      ['pv', 'pv'],
      ['ps', 'ps'],
      ['v', 'v'],
      ['s', 's'],
    ];
    if (this.paths) fields.push(['paths', 'P'], ['register', 'r']);
    return fields.map(([purpose, field]) => assign(local(locals, purpose), member(frame, field)));
  }

  /** `pv = x.v, ps = x.s, x.v = v, x.s = s`: the activation runs again in its own context. */
  private reenterLocals(locals: FunctionLocals): t.Expression[] {
    const x = () => local(locals, 'x');
    return [
      ...this.noteCaller(locals),
      assignMember(x(), 'v', local(locals, 'v')),
      assignMember(x(), 's', local(locals, 's')),
    ];
  }

  /** What runs when the activation comes back: noted, to be put back when it leaves again. */
  private noteCaller(locals: FunctionLocals): t.Expression[] {
    return [
      assign(local(locals, 'away'), numericLiteral(0)),
      assign(local(locals, 'pv'), member(local(locals, 'x'), 'v')),
      assign(local(locals, 'ps'), member(local(locals, 'x'), 's')),
    ];
  }

  private resume(locals: FunctionLocals): t.Expression[] {
    const back = [
      ...this.noteCaller(locals),
      assignMember(local(locals, 'x'), 'v', local(locals, 'v')),
      assignMember(local(locals, 'x'), 's', local(locals, 's')),
    ];
    return [logicalExpression('&&', local(locals, 'away'), seq(back))];
  }

  /** What the activation found running, put back; a function only numbered calls enter left the stack as it was. */
  private restore(cfg: ControlFlowGraph, locals: FunctionLocals): t.Expression[] {
    const v = assignMember(local(locals, 'x'), 'v', local(locals, 'pv'));
    if (!pushes(this.functions.get(cfg)!)) return [v];
    return [v, assignMember(local(locals, 'x'), 's', local(locals, 'ps'))];
  }

  /** The stack is kept in a local where the activation sets its context again: handlers and resumptions. */
  private keepsStack(cfg: ControlFlowGraph): boolean {
    return suspends(cfg) || cfg.handlers.length > 0;
  }
}

/** Its entry may push (it can be entered other than by a numbered call): its exits must put the stack back. */
function pushes(fn: ContextFunction): boolean {
  return fn.dummy || !fn.numbered;
}

/** Only numbered calls enter it: every entry takes a hand-off, from an instrumented caller in the file. */
function takesHandOffsOnly(fn: ContextFunction): boolean {
  return !pushes(fn);
}

/** An exception can leave the activation: some exceptional edge enters EXIT. */
function throwsOut(cfg: ControlFlowGraph): boolean {
  for (let e = 0; e < cfg.edgeCount; e++)
    if (cfg.edgeExceptional[e] && cfg.edgeDst[e] === cfg.exit) return true;
  return false;
}

/** Async functions and generators suspend; so does a module body with top-level `await`. */
function suspends(cfg: ControlFlowGraph): boolean {
  const n = cfg.node;
  return (t.isFunction(n) && (n.async === true || n.generator === true)) || cfg.kind === 'program';
}

const HINTS: Record<string, string> = {
  x: 'pp_x',
  file: 'pp_cx',
  pv: 'pp_pv',
  ps: 'pp_ps',
  v: 'pp_v',
  s: 'pp_s',
  away: 'pp_away',
  frame: 'pp_cf',
  paths: 'pp_P',
  register: 'pp_r',
};

/** The activation's hidden locals; the register is path mode's own (`pp_r`). */
function local(locals: FunctionLocals, purpose: string): t.Identifier {
  return locals.get(purpose === 'register' ? 'register' : `ctx:${purpose}`, HINTS[purpose]);
}

function member(object: t.Expression, name: string): t.MemberExpression {
  return memberExpression(t.cloneNode(object), identifier(name));
}

function assign(target: t.Identifier, value: t.Expression): t.Expression {
  return assignmentExpression('=', t.cloneNode(target), value);
}

function assignMember(object: t.Expression, name: string, value: t.Expression): t.Expression {
  return assignmentExpression('=', member(object, name), value);
}

function plusConstant(e: t.Expression, k: number): t.Expression {
  if (k === 0) return e;
  return k > 0 ? binaryExpression('+', e, numericLiteral(k)) : binaryExpression('-', e, numericLiteral(-k));
}

function seq(exprs: t.Expression[]): t.Expression {
  return exprs.length === 1 ? exprs[0] : sequenceExpression(exprs);
}
