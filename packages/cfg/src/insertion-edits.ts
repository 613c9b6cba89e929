import * as t from '@babel/types';
import { EdgeKind, isExceptionalKind } from './edge-kind';
import type { EdgeSite } from './edge-site';
import type { ControlFlowGraph } from './control-flow-graph';
import { hasExceptionalExit, type EdgeCodePlan, type ParameterState } from './edge-code-plan';
import { FunctionTemps } from './function-temps';
import { declaredFunction, hoistClashingDeclarations } from './body-declarations';
import { ParameterStateCarriers, type StateCarrier } from './parameter-state';
import type { FreshName } from './fresh-names';
import { assignTemp, isInert, keepsPlace, locatedAt, seq, thisReadIfUndefined } from './expression-builders';
import { rewriteOptionalChain } from './optional-chain-rewrite';
import { CalledChains } from './called-chain';
import { ArrayDestructuring, defaultMayThrow } from './array-destructuring';
import { ObjectRestDestructuring } from './object-rest-destructuring';
import { visitBindingTarget } from './pattern-defaults';
import { suspensionPoints } from './own-code';
import { SuspendingIteration } from './suspending-iteration';
import { IteratorCloseDispatches } from './iterator-close-dispatch';
import { placeCaseCode, type CaseCode } from './switch-case-code';
import {
  assignmentExpression,
  binaryExpression,
  blockStatement,
  booleanLiteral,
  callExpression,
  catchClause,
  conditionalExpression,
  expressionStatement,
  identifier,
  ifStatement,
  logicalExpression,
  memberExpression,
  nullLiteral,
  numericLiteral,
  returnStatement,
  stringLiteral,
  throwStatement,
  tryStatement,
  unaryExpression,
  variableDeclaration,
  variableDeclarator,
} from './emitted-nodes';

// Read once: @babel/types' exports are getters, which V8 does not inline on these hot paths.
const {
  arrowFunctionExpression,
  awaitExpression,
  cloneNode,
  isArrayPattern,
  isArrowFunctionExpression,
  isAssignmentExpression,
  isAssignmentPattern,
  isAwaitExpression,
  isBlockStatement,
  isCatchClause,
  isClassAccessorProperty,
  isClassExpression,
  isClassPrivateProperty,
  isClassProperty,
  isExpression,
  isFunction,
  isFunctionExpression,
  isIdentifier,
  isLogicalExpression,
  isObjectPattern,
  isOptionalCallExpression,
  isOptionalMemberExpression,
  isParenthesizedExpression,
  isProgram,
  isReturnStatement,
  isStaticBlock,
  isSuper,
  isTSModuleBlock,
  isTSNonNullExpression,
  isVariableDeclaration,
  thisExpression,
  isYieldExpression,
  objectExpression,
  objectProperty,
} = t;

type Exprs = t.Expression[];

/** What a statement without code before or after it gets (asked for every statement of the file). */
const NO_STATEMENTS: readonly t.Statement[] = [];

interface RootEdits {
  readonly cfg: ControlFlowGraph;
  readonly temps: FunctionTemps;
  readonly prologue: t.Statement[];
  readonly exceptionalExit: t.Statement[];
  /** A generator's `return()` at a `yield` outside any `finally`: the code per yield id. */
  readonly generatorReturns: { id: number; code: Exprs }[];
}

/** The code for one `try … finally`, by completion. */
interface FinallyEdits {
  readonly k: t.Identifier;
  readonly catchAll: boolean;
  readonly atStart: t.Statement[];
  readonly atEnd: t.Statement[];
}

/** Optional-chain links' code, read by the chain rewrite. */
interface ChainEdits {
  readonly short: Exprs;
  readonly go: Exprs;
}

/**
 * Every insertion the plan asks for, keyed by the AST node it attaches to; `Rewriter` applies them. This is
 * where each edge site becomes JavaScript: see the comment on each case.
 */
export class InsertionEdits {
  private readonly before = new Map<t.Node, Exprs>();
  private readonly after = new Map<t.Node, Exprs>();
  private readonly tests = new Map<t.Node, { T: Exprs; F: Exprs }>();
  private readonly listStart = new Map<t.Node, Map<string, t.Statement[]>>();
  private readonly listEnd = new Map<t.Node, Map<string, t.Statement[]>>();
  private readonly stmtBefore = new Map<t.Node, t.Statement[]>();
  private readonly stmtAfter = new Map<t.Node, t.Statement[]>();
  private readonly returns = new Map<t.Node, Exprs>();
  private readonly logicalShort = new Map<t.Node, Exprs>();
  private readonly assigns = new Map<t.Node, { right: Exprs; short: Exprs; done: Exprs }>();
  private readonly links = new Map<t.Node, ChainEdits>();
  private readonly cases = new Map<t.Node, CaseCode>();
  /** Cases whose body can complete normally into the next case's. */
  private readonly fallsThrough = new Set<t.Node>();
  private readonly forInit = new Map<t.Node, Exprs>();
  private readonly forUpdate = new Map<t.Node, Exprs>();
  private readonly yields = new Map<t.Node, YieldEdits>();
  /** `await e` → `(t = e, suspend…, t = await t, resume…, t)`. */
  private readonly awaits = new Map<t.Node, { suspend: Exprs; resume: Exprs }>();
  /** `for await` loops whose iterable is wrapped to suspend after each step. */
  private readonly forAwaits = new Map<t.Node, Exprs>();
  /** An async generator's `return e`: `return (t = e, suspend…, t)`, since the value is awaited. */
  private readonly awaitedReturns = new Map<t.Node, { temps: FunctionTemps; suspend: Exprs }>();
  /** Code first in a `finally` block, whatever entered it: the plan's resumption. */
  private readonly finallyStarts = new Map<t.Node, t.Statement[]>();
  /** Code first where a `continue` lands (a `for`'s update, a `while`'s or `do`'s test): the plan's resumption. */
  private readonly continueStarts = new Map<t.Node, Exprs>();
  private readonly iterations: SuspendingIteration;
  private readonly closeDispatches: IteratorCloseDispatches;
  /** A derived constructor's returns that read `this` first (`ControlFlowGraph.thisChecks`). */
  private readonly thisChecks = new Set<t.Node>();
  private readonly finallies = new Map<t.Node, FinallyEdits>();
  private readonly catchStart = new Map<t.Node, Exprs>();
  private readonly roots = new Map<t.Node, RootEdits>();
  /** Which function's temporaries a node's rewrite uses. */
  private readonly owner = new Map<t.Node, FunctionTemps>();
  private readonly chainTops = new Map<t.Node, { temps: FunctionTemps; end: Exprs }>();
  private readonly chainEnds = new Map<t.Node, Exprs>();
  private readonly deletedChains = new Set<t.Node>();
  private readonly calledChainTops = new Set<t.Node>();
  private readonly calledChains: CalledChains;
  private readonly propertyStarts = new Map<t.Node, Exprs>();
  private readonly declaratorStarts = new Map<t.Node, { temps: FunctionTemps; code: Exprs }>();
  private readonly defaults = new Map<t.Node, { start: Exprs; end: Exprs }>();
  private readonly parameterWrappers = new Map<t.Node, ParameterWrapper>();
  private readonly carriers: ParameterStateCarriers;
  /** Array patterns rewritten over the helper: the temporary holding it, and code before each element. */
  private readonly wrappedArrays = new Map<
    t.Node,
    { iterator: t.Identifier; code: Map<number, Exprs>; patternCode: Map<number, Exprs> }
  >();
  /** Defaults of rewritten array patterns that run in the helper's guard, and the helper they use. */
  private readonly guardedDefaults = new Map<t.Node, t.Identifier>();
  private readonly arrays: ArrayDestructuring;
  /** Object patterns whose rest element is read from the wrapped value, with the code before it. */
  private readonly restStarts = new Map<t.Node, Exprs>();
  private readonly objectRests: ObjectRestDestructuring;

  constructor(private readonly fresh: FreshName) {
    this.carriers = new ParameterStateCarriers(fresh);
    this.arrays = new ArrayDestructuring(fresh);
    this.objectRests = new ObjectRestDestructuring(fresh);
    this.calledChains = new CalledChains(fresh);
    this.iterations = new SuspendingIteration(fresh);
    this.closeDispatches = new IteratorCloseDispatches(fresh);
  }

  /** What the inserted code shares across the file (state carriers, helpers), first in the program. */
  fileDeclarations(): t.Statement[] {
    return [
      ...this.carriers.declarations(),
      ...this.arrays.declarations(),
      ...this.objectRests.declarations(),
      ...this.calledChains.declarations(),
      ...this.iterations.declarations(),
    ];
  }

  addGraph(cfg: ControlFlowGraph, plan: EdgeCodePlan, temps: FunctionTemps): void {
    const errorId = caught();
    const state = cfg.parameterDefaults.length ? plan.parameterState(cfg) : null;
    const carrier = state ? this.carriers.forGraph(cfg) : null;
    const cleared = carrier?.clear();
    const root: RootEdits = {
      cfg,
      temps,
      prologue: [
        ...plan.prologue(cfg, temps, carrier?.read()),
        ...(cleared ? [expressionStatement(cleared)] : []),
      ],
      exceptionalExit: hasExceptionalExit(cfg) ? plan.exceptionalExit(cfg, errorId, temps) : [],
      generatorReturns: [],
    };
    this.roots.set(cfg.node, root);
    this.closeDispatches.addGraph(cfg, temps);
    for (const r of cfg.thisChecks) {
      this.thisChecks.add(r);
      this.owner.set(r, temps);
      // Before the return's own code, which the edge loop below puts there too.
      if (!r.argument) push(this.stmtBefore, r, [expressionStatement(thisExpression())]);
    }
    const wrappers = this.planParameterWrappers(cfg, plan, state, carrier);
    const localsOf = (e: number) => {
      const p = cfg.edges[e].inParameter;
      return p ? wrappers.get(p)!.temps : temps;
    };
    // Asked for several times per edge (does it have code? does its `finally` need a local?): made once.
    const codes = new Map<number, Exprs>();
    const code = (e: number): Exprs => {
      let c = codes.get(e);
      if (!c) codes.set(e, (c = plan.edgeCode(cfg, e, localsOf(e))));
      return c;
    };
    const { flagSets, doneFlags } = this.planIterationExits(cfg, temps, code);
    // An edge leaving a `finally` may have no code of its own but still set a loop's exit flag.
    const hasCode = (e: number) => code(e).length > 0 || flagSets.has(e);
    const finallyCodes = this.planFinallies(cfg, plan, temps, hasCode);
    const nextResumes = this.planSuspensions(cfg, plan, temps);
    // Defaults whose edges got code run it in their wrapper, whose locals hold it (edge mode has no state).
    const withCode = new Set<t.Node>();

    for (let e = 0; e < cfg.edgeCount; e++) {
      const info = cfg.edges[e];
      if (isExceptionalKind(info.kind) || !info.site) continue;
      if (info.kind === EdgeKind.Fallthrough && info.site.type === 'listEnd')
        this.fallsThrough.add(info.site.owner);
      const exprs: Exprs = [];
      const enters = info.entersFinally && finallyCodes.get(info.entersFinally.statement);
      if (enters && info.entersFinally) {
        exprs.push(
          assignmentExpression('=', cloneNode(enters.k), numericLiteral(info.entersFinally.completion)),
        );
      }
      const flag = flagSets.get(e);
      if (flag) exprs.push(flag);
      if (nextResumes.has(e)) exprs.push(...nextResumes.get(e)!.map((c) => cloneNode(c)));
      exprs.push(...code(e));
      if (exprs.length === 0) continue;
      if (info.inParameter) withCode.add(info.inParameter);
      const doneFlag = doneFlags.get(e);
      if (doneFlag && info.site.type === 'afterStatement') {
        // The `done` exit runs after the loop only when no break set the loop's flag.
        const guarded = ifStatement(unaryExpression('!', doneFlag), blockStatement(statements(exprs)));
        push(this.stmtAfter, info.site.statement, [guarded]);
        continue;
      }
      this.addSite(info.site, exprs, root, finallyCodes, info.node, localsOf(e));
    }
    for (const [p, w] of wrappers) {
      if (w.carried || withCode.has(p) || this.defaults.has(p)) this.parameterWrappers.set(p, w);
    }
    for (const [call, handOff] of plan.beforeCalls?.(cfg, temps) ?? []) {
      const last = (call.arguments.at(-1) ?? call.callee) as t.Expression;
      this.addSite({ type: 'afterExpression', expression: last }, handOff, root, finallyCodes, call, temps);
    }
    this.planChains(cfg, localsOf);
    for (const h of cfg.handlers) {
      const entry = plan.handlerEntry(cfg, h.block, temps);
      if (isCatchClause(h.clause)) {
        if (entry.length) {
          this.owner.set(h.clause, temps);
          push(this.catchStart, h.clause, entry);
        }
      } else if (entry.length) {
        const f = finallyCodes.get(h.clause)!;
        f.atStart.unshift(ifCompletion(f.k, [1], entry));
      }
    }
    if (root.generatorReturns.length) {
      // Entering a `catch` means an exception, not return(): forget the yield that was pending.
      for (const h of cfg.handlers) {
        if (!isCatchClause(h.clause)) continue;
        this.owner.set(h.clause, temps);
        push(this.catchStart, h.clause, [
          assignmentExpression('=', temps.get('yield', 'pp_y'), numericLiteral(0)),
        ]);
      }
    }
  }

  // ---------------------------------------------------------------- planning helpers

  /**
   * Each parameter default that is a path decision runs its code in a wrapper with locals of its own (the
   * body's do not exist yet): the activation's state comes from the handoff variable and goes back to it, so
   * the next default and then the body continue from it; an exception leaving the default is recorded there.
   * With state, every such default is wrapped, even without code: its value may call back into instrumented
   * code, which must find the handoff empty.
   */
  private planParameterWrappers(
    cfg: ControlFlowGraph,
    plan: EdgeCodePlan,
    state: ParameterState | null,
    carrier: StateCarrier | null,
  ): Map<t.Node, ParameterWrapper> {
    const wrappers = new Map<t.Node, ParameterWrapper>();
    for (const p of cfg.parameterDefaults) {
      const temps = new FunctionTemps(this.fresh, cfg, false);
      const error = caught();
      wrappers.set(p, {
        temps,
        carried:
          state && carrier
            ? {
                state: temps.get(state.purpose, state.hint),
                carrier,
                initial: state.initial,
                handOn: state.handOn?.(temps) ?? [],
                // A generator's parameters are bound at the call, its body runs at the first next().
                away:
                  cfg.isGenerator && state.leave && state.reenter
                    ? { leave: state.leave, reenter: state.reenter }
                    : null,
              }
            : null,
        prologue: plan.parameterPrologue(cfg, temps),
        exceptionalExit: plan.exceptionalExit(cfg, error, temps),
      });
    }
    return wrappers;
  }

  /**
   * The plan's code at the graph's suspension points (`Suspension`): around each `await` and `yield`, in the
   * steps of each `yield*` and `for await` (suspending-iteration.ts), before an async generator's `return` of a
   * value, and first in every `finally` (it may run right after a suspension). A `for await` loop runs again on its
   * `next` edge, and after the loop for the closing step a `break` makes (its iterator's `return()` is
   * awaited): returned are the `next` edges' code, to run before their own.
   */
  private planSuspensions(
    cfg: ControlFlowGraph,
    plan: EdgeCodePlan,
    temps: FunctionTemps,
  ): Map<number, Exprs> {
    const resumes = new Map<number, Exprs>();
    const code = plan.suspension?.(cfg, temps);
    if (!code || (code.suspend.length === 0 && code.resume.length === 0)) return resumes;
    const copy = (list: Exprs) => list.map((c) => cloneNode(c));
    const points = suspensionPoints(cfg.node);
    const async = isFunction(cfg.node) && cfg.node.async === true;
    for (const a of points.awaits) {
      this.owner.set(a, temps);
      this.awaits.set(a, { suspend: copy(code.suspend), resume: copy(code.resume) });
    }
    for (const y of points.yields) {
      this.owner.set(y, temps);
      const entry = this.yieldOf(y);
      entry.resumed.push(...copy(code.resume));
      if (y.delegate) entry.delegate = { async, resume: copy(code.resume), suspend: copy(code.suspend) };
      else entry.pre.push(...copy(code.suspend));
    }
    for (const r of points.awaitedReturns) this.awaitedReturns.set(r, { temps, suspend: copy(code.suspend) });
    for (const f of points.finallies) push(this.finallyStarts, f, statements(copy(code.resume)));
    for (const loop of points.loops) {
      pushList(this.listStart, loop, 'body', copy(code.resume));
      this.continueStarts.set(loop, copy(code.resume));
    }
    for (const s of points.afterJumps) push(this.stmtAfter, s, statements(copy(code.resume)));
    // A jump out of a `for await` awaits the iterator's `return()` before its dispatch runs.
    cfg.closeDispatches.forEach((d, i) => {
      if (d.loop.await) this.closeDispatches.addCode(cfg, i, statements(copy(code.resume)), true);
    });
    for (const loop of points.forAwaits) {
      this.forAwaits.set(loop, copy(code.suspend));
      for (let e = 0; e < cfg.edgeCount; e++) {
        const site = cfg.edges[e].site;
        if (cfg.edges[e].node !== loop) continue;
        if (cfg.edgeKind[e] === EdgeKind.Next) resumes.set(e, copy(code.resume));
        else if (cfg.edgeKind[e] === EdgeKind.Done && site?.type === 'afterStatement')
          push(this.stmtAfter, site.statement, statements(copy(code.resume)));
      }
    }
    return resumes;
  }

  /**
   * A `finally` needs its completion local when code must run at its start or end for some completions
   * only. Then every edge into it records the completion, and an exception records 1 in a catch-all
   * wrapper (`try { try … catch … } catch (e) { k = 1; throw e } finally { … }`). An exit edge of one
   * `finally` that enters another records that one's completion: code of its own, so needing a local
   * spreads from a `finally` to the ones whose exits enter it, until nothing changes.
   */
  private planFinallies(
    cfg: ControlFlowGraph,
    plan: EdgeCodePlan,
    temps: FunctionTemps,
    hasCode: (e: number) => boolean,
  ): Map<t.Node, FinallyEdits> {
    const needed = new Set<t.Node>();
    for (const region of cfg.finallies) {
      const throwEntered = region.completions.some((c) => c.kind === 'throw');
      if (throwEntered && plan.handlerEntry(cfg, region.entryBlock, temps).length > 0)
        needed.add(region.statement);
    }
    for (let changed = true; changed;) {
      changed = false;
      for (let e = 0; e < cfg.edgeCount; e++) {
        const site = cfg.edges[e].site;
        if (
          !site ||
          (site.type !== 'finallyExit' && site.type !== 'finallyEntry') ||
          needed.has(site.statement)
        ) {
          continue;
        }
        const enters = cfg.edges[e].entersFinally;
        if (hasCode(e) || (enters && needed.has(enters.statement))) {
          needed.add(site.statement);
          changed = true;
        }
      }
    }
    const result = new Map<t.Node, FinallyEdits>();
    for (const region of cfg.finallies) {
      if (!needed.has(region.statement)) continue;
      const edits: FinallyEdits = {
        k: temps.get(`k:${region.entryBlock}`, 'pp_k'),
        catchAll: region.completions.some((c) => c.kind === 'throw'),
        atStart: [],
        atEnd: [],
      };
      result.set(region.statement, edits);
      this.finallies.set(region.statement, edits);
    }
    return result;
  }

  /**
   * A `for…of`/`for…in` exit has no place of its own: the code after the loop also runs after a `break`.
   * When other edges reach that code too, they set a per-loop flag the `done` code checks.
   */
  private planIterationExits(
    cfg: ControlFlowGraph,
    temps: FunctionTemps,
    code: (e: number) => Exprs,
  ): { flagSets: Map<number, t.Expression>; doneFlags: Map<number, t.Identifier> } {
    const flagSets = new Map<number, t.Expression>();
    const doneFlags = new Map<number, t.Identifier>();
    for (const exit of cfg.iterationExits) {
      if (code(exit.doneEdge).length === 0) continue;
      const others: number[] = [];
      for (let e = 0; e < cfg.edgeCount; e++) {
        if (cfg.edgeDst[e] === exit.afterBlock && e !== exit.doneEdge) others.push(e);
      }
      if (others.length === 0) continue;
      const flag = temps.get(`exit:${exit.doneEdge}`, 'pp_broke');
      for (const e of others) flagSets.set(e, assignmentExpression('=', cloneNode(flag), numericLiteral(1)));
      // Reset on entering the loop, so a break whose path was overridden (a `finally` returning) is forgotten.
      push(this.before, exit.statement.right, [
        assignmentExpression('=', cloneNode(flag), numericLiteral(0)),
      ]);
      doneFlags.set(exit.doneEdge, cloneNode(flag));
    }
    return { flagSets, doneFlags };
  }

  /** Chains with code on any link, or at their end, are rewritten from their outermost node. */
  private planChains(cfg: ControlFlowGraph, localsOf: (edge: number) => FunctionTemps): void {
    for (let e = 0; e < cfg.edgeCount; e++) {
      const site = cfg.edges[e].site;
      if (site?.type !== 'chainEnd') continue;
      const temps = localsOf(e);
      const top = site.chain;
      let hasCode = this.chainEnds.has(top);
      for (let n: t.Node = top; ;) {
        if (this.links.has(n)) hasCode = true;
        if (isOptionalMemberExpression(n)) n = n.object;
        else if (isOptionalCallExpression(n)) n = n.callee;
        else if (isTSNonNullExpression(n)) n = n.expression;
        else break;
      }
      if (!hasCode) continue;
      this.chainTops.set(top, { temps, end: this.chainEnds.get(top) ?? [] });
    }
  }

  private addSite(
    site: EdgeSite,
    code: Exprs,
    root: RootEdits,
    finallies: Map<t.Node, FinallyEdits>,
    edgeNode: t.Node,
    temps: FunctionTemps,
  ): void {
    switch (site.type) {
      case 'prologue':
        root.prologue.push(...statements(code));
        return;
      case 'listStart':
        return pushList(this.listStart, site.owner, site.key, code);
      case 'listEnd':
        return pushList(this.listEnd, site.owner, site.key, code);
      case 'beforeStatement':
        return push(this.stmtBefore, site.statement, statements(code));
      case 'afterStatement':
        return push(this.stmtAfter, site.statement, statements(code));
      case 'jump':
        if (isReturnStatement(site.statement) && site.statement.argument) {
          this.owner.set(site.statement, temps);
          return push(this.returns, site.statement, code);
        }
        return push(this.stmtBefore, site.statement, statements(code));
      case 'arrowReturn':
      case 'afterExpression':
        this.owner.set(site.type === 'arrowReturn' ? site.body : site.expression, temps);
        return push(this.after, site.type === 'arrowReturn' ? site.body : site.expression, code);
      case 'beforeExpression':
        return push(this.before, site.expression, code);
      case 'test': {
        this.owner.set(site.expression, temps);
        const entry = this.tests.get(site.expression) ?? { T: [], F: [] };
        (site.outcome ? entry.T : entry.F).push(...code);
        this.tests.set(site.expression, entry);
        return;
      }
      case 'logicalShort':
        this.owner.set(site.expression, temps);
        return push(this.logicalShort, site.expression, code);
      case 'assignRight':
      case 'assignShort':
      case 'assignDone': {
        this.owner.set(site.expression, temps);
        const entry = this.assigns.get(site.expression) ?? { right: [], short: [], done: [] };
        const part =
          site.type === 'assignRight' ? entry.right : site.type === 'assignShort' ? entry.short : entry.done;
        part.push(...code);
        this.assigns.set(site.expression, entry);
        return;
      }
      case 'chainEnd':
        return push(this.chainEnds, site.chain, code);
      case 'optionalShort':
      case 'optionalGo': {
        const entry = this.links.get(site.link) ?? { short: [], go: [] };
        (site.type === 'optionalShort' ? entry.short : entry.go).push(...code);
        this.links.set(site.link, entry);
        return;
      }
      case 'caseMatch':
      case 'caseMiss': {
        this.owner.set(site.switchCase, temps);
        const entry = this.cases.get(site.switchCase) ?? { match: [], miss: [] };
        (site.type === 'caseMatch' ? entry.match : entry.miss).push(...code);
        this.cases.set(site.switchCase, entry);
        return;
      }
      case 'forInit':
        this.owner.set(site.statement, temps);
        return push(this.forInit, site.statement, code);
      case 'forUpdate':
        return push(this.forUpdate, site.statement, code);
      case 'finallyExit': {
        const f = finallies.get(site.statement);
        if (f && code.length) f.atEnd.push(ifCompletion(f.k, site.completions, code));
        return;
      }
      case 'finallyEntry': {
        // The yield records its completion before it suspends: return() skips everything after it. The
        // edge's own code then runs at the start of the `finally`.
        const f = finallies.get(site.statement)!;
        const [recordCompletion, ...rest] = code;
        this.yieldOf(edgeNode).pre.push(recordCompletion);
        this.owner.set(edgeNode, temps);
        if (rest.length) f.atStart.push(ifCompletion(f.k, [site.completion], rest));
        return;
      }
      case 'resume': {
        this.owner.set(site.expression, temps);
        this.yieldOf(site.expression).resume.push(...code);
        return;
      }
      case 'propertyStart':
        return push(this.propertyStarts, site.property, code);
      case 'elementStart':
      case 'elementPattern': {
        let entry = this.wrappedArrays.get(site.pattern);
        if (!entry) {
          entry = { iterator: temps.get('array', 'pp_it'), code: new Map(), patternCode: new Map() };
          this.wrappedArrays.set(site.pattern, entry);
          const iterator = entry.iterator;
          for (const el of site.pattern.elements) {
            if (!el) continue;
            visitBindingTarget(el, (n) => {
              if (isAssignmentPattern(n) && defaultMayThrow(n.right)) this.guardedDefaults.set(n, iterator);
            });
          }
        }
        return push(site.type === 'elementStart' ? entry.code : entry.patternCode, site.index, code);
      }
      case 'restStart':
        return push(this.restStarts, site.pattern, code);
      case 'declaratorStart': {
        const entry = this.declaratorStarts.get(site.declarator) ?? { temps, code: [] };
        entry.code.push(...code);
        this.declaratorStarts.set(site.declarator, entry);
        return;
      }
      case 'defaultValue': {
        this.owner.set(site.pattern, temps);
        const entry = this.defaults.get(site.pattern) ?? { start: [], end: [] };
        entry[site.part].push(...code);
        this.defaults.set(site.pattern, entry);
        return;
      }
      case 'closeDispatch':
        return this.closeDispatches.addCode(root.cfg, site.index, statements(code));
      case 'generatorReturn': {
        const y = temps.get('yield', 'pp_y');
        const id = root.generatorReturns.length + 1;
        root.generatorReturns.push({ id, code });
        const entry = this.yieldOf(site.expression);
        this.owner.set(site.expression, temps);
        entry.pre.push(assignmentExpression('=', y, numericLiteral(id)));
        entry.post.push(assignmentExpression('=', cloneNode(y), numericLiteral(0)));
        return;
      }
    }
  }

  private yieldOf(node: t.Node): YieldEdits {
    let entry = this.yields.get(node);
    if (!entry) {
      entry = { pre: [], post: [], resume: [], resumed: [], delegate: null };
      this.yields.set(node, entry);
    }
    return entry;
  }

  // ---------------------------------------------------------------- applying

  statementsBefore(s: t.Node): readonly t.Statement[] {
    return this.stmtBefore.get(s) ?? NO_STATEMENTS;
  }

  statementsAfter(s: t.Node): readonly t.Statement[] {
    return this.stmtAfter.get(s) ?? NO_STATEMENTS;
  }

  /** Whether `applyListEdits` has anything to do for some key of `n` (asked once per node, not per key). */
  hasListEdits(n: t.Node): boolean {
    return this.listStart.has(n) || this.listEnd.has(n);
  }

  /** Code at the start/end of `n[key]`: a list gets statements; a single statement is wrapped in a block. */
  applyListEdits(n: t.Node, key: string): void {
    const start = this.listStart.get(n)?.get(key) ?? [];
    const end = this.listEnd.get(n)?.get(key) ?? [];
    if (start.length === 0 && end.length === 0) return;
    const record = n as unknown as Record<string, unknown>;
    const child = record[key];
    if (Array.isArray(child)) {
      child.unshift(...start);
      child.push(...end);
    } else if (isBlockStatement(child as t.Node)) {
      const block = child as t.BlockStatement;
      block.body.unshift(...start);
      block.body.push(...end);
    } else {
      const block = blockStatement([...start, ...(child ? [child as t.Statement] : []), ...end]);
      record[key] = child ? locatedAt(block, child as t.Statement) : block;
    }
  }

  /** Applies the node's own edits after its children were rewritten; returns what replaces it. */
  applyNodeEdits(n: t.Node): t.Node {
    // Every node of the file comes here: one switch on its type, then each map is consulted only for the
    // node types it can hold.
    let result: t.Node = n;
    switch (n.type) {
      case 'CatchClause': {
        const catchCode = this.catchStart.get(n);
        if (catchCode) this.applyCatchStart(n, catchCode);
        break;
      }
      case 'TryStatement': {
        const f = this.finallies.get(n);
        if (f) result = this.applyFinally(n, f);
        const resumed = this.finallyStarts.get(n);
        if (resumed) n.finalizer!.body.unshift(...resumed);
        break;
      }
      case 'ForStatement': {
        const init = this.forInit.get(n);
        if (init) this.applyForInit(n, init);
        const update = this.forUpdate.get(n);
        if (update) n.update = seq([...(n.update ? [n.update] : []), ...update]);
        // After the update's own code is in place: a `continue` runs the resumption before anything of the loop's.
        const continued = this.continueStarts.get(n);
        if (continued) n.update = seq([...continued, ...(n.update ? [n.update] : [])]);
        break;
      }
      case 'ForOfStatement': {
        const stepSuspend = this.forAwaits.get(n);
        if (stepSuspend) n.right = this.iterations.wrap(n.right, 'for-await', null, stepSuspend);
        result = this.closeDispatches.wrap(n, n);
        break;
      }
      case 'WhileStatement':
      case 'DoWhileStatement': {
        const continued = this.continueStarts.get(n);
        if (continued) n.test = seq([...continued, n.test]);
        break;
      }
      case 'ReturnStatement':
        if (n.argument) {
          const ret = this.returns.get(n);
          if (this.thisChecks.has(n)) {
            const v = this.temps(n).value();
            n.argument = seq([
              assignTemp(v, n.argument),
              thisReadIfUndefined(v),
              ...(ret ?? []),
              cloneNode(v),
            ]);
          } else if (ret) n.argument = this.afterValue(n, n.argument, ret);
          const awaited = this.awaitedReturns.get(n);
          if (awaited) {
            const v = awaited.temps.value();
            n.argument = seq([assignTemp(v, n.argument), ...awaited.suspend, cloneNode(v)]);
          }
        }
        result = this.closeDispatches.jumpReplacement(n) ?? n;
        break;
      case 'BreakStatement':
      case 'ContinueStatement':
        result = this.closeDispatches.jumpReplacement(n) ?? n;
        break;
      case 'LabeledStatement':
        result = this.closeDispatches.wrap(n, n);
        break;
      case 'SwitchStatement':
        this.applySwitch(n);
        break;
      case 'ObjectProperty':
        this.applyPropertyStart(n);
        break;
      case 'VariableDeclaration':
        this.applyWrappedArrays(n);
        this.applyDeclaratorStarts(n);
        break;
      case 'VariableDeclarator':
        this.applyObjectRest(n);
        break;
      case 'AssignmentPattern':
        this.applyDefault(n);
        break;
    }
    if (isExpression(n)) result = this.applyExpression(n);
    const root = this.roots.get(n);
    if (root) this.finishRoot(n, root);
    return result;
  }

  private applyExpression(n: t.Expression): t.Expression {
    let e: t.Expression = n;
    const chain = (isOptionalMemberExpression(n) || isOptionalCallExpression(n)) && this.chainTops.get(n);
    if (chain) {
      const code = {
        link: (node: t.Node) => this.links.get(node),
        end: chain.end,
        deleted: this.deletedChains.has(n),
        bindCallee: this.calledChainTops.has(n)
          ? (receiver: t.Expression, value: t.Expression) => this.calledChains.bind(receiver, value)
          : null,
      };
      e = rewriteOptionalChain(n, code, chain.temps);
    }
    const short = isLogicalExpression(n) && this.logicalShort.get(n);
    if (short) e = this.logical(n as t.LogicalExpression, short);
    const assign = isAssignmentExpression(n) && this.assigns.get(n);
    if (assign) e = this.logicalAssignment(n as t.AssignmentExpression, assign);
    const y = isYieldExpression(n) && this.yields.get(n);
    if (y && isYieldExpression(n)) {
      const v = this.temps(n).value();
      // What the yield records before it suspends runs after its argument, which may itself yield.
      const pre = n.argument ? [] : y.pre;
      if (n.argument && y.pre.length)
        n.argument = seq([assignTemp(cloneNode(v), n.argument), ...y.pre, cloneNode(v)]);
      if (y.delegate && n.argument) {
        const { async, resume, suspend } = y.delegate;
        n.argument = this.iterations.wrap(n.argument, async ? 'async-delegate' : 'delegate', resume, suspend);
      }
      e = seq([...pre, assignmentExpression('=', v, n), ...y.post, ...y.resumed, ...y.resume, cloneNode(v)]);
    }
    const suspends = isAwaitExpression(n) && this.awaits.get(n);
    if (suspends && isAwaitExpression(n)) {
      const v = this.temps(n).value();
      const awaited = awaitExpression(cloneNode(v));
      e = seq([
        assignTemp(cloneNode(v), n.argument),
        ...suspends.suspend,
        assignmentExpression('=', cloneNode(v), awaited),
        ...suspends.resume,
        cloneNode(v),
      ]);
    }
    // Code before or after a logical expression goes to its operands, so that the operator tree stays whole.
    const whole = e === n && isLogicalExpression(n);
    // A split call in test position: the return from the call comes before either outcome.
    const after = this.after.get(n);
    if (after) e = whole ? this.onOutcome(n, n, 'any', after) : this.afterValue(n, e, after);
    const test = this.tests.get(n);
    if (test) e = this.test(e, test.T, test.F);
    const before = this.before.get(n);
    if (before) e = e === n && whole ? this.beforeFirstOperand(n, before) : seq([...before, e]);
    return keepsPlace(n, e);
  }

  /** The chain is the operand of `delete`: its rewrite deletes the last member itself. */
  markDeletedChain(top: t.Node): void {
    this.deletedChains.add(top);
  }

  /** The chain is called (`(a?.b)()`, a tag): its rewrite keeps the receiver of its last member. */
  markCalledChain(top: t.Node): void {
    this.calledChainTops.add(top);
  }

  private temps(n: t.Node): FunctionTemps {
    const temps = this.owner.get(n);
    if (!temps) throw new Error(`internal error: no function for a ${n.type} edit`);
    return temps;
  }

  /**
   * `(t = e, code…, t)`: code after a value, the value unchanged; `(code…, e)` when `e` is inert or a name
   * whose read cannot throw (the code writes only its own locals, so the name's value is the same after it).
   */
  private afterValue(owner: t.Node, e: t.Expression, code: Exprs): t.Expression {
    const temps = this.temps(owner);
    if (isInert(e, temps.cfg.nonThrowing)) return seq([...code, e]);
    const v = temps.value();
    return seq([assignTemp(v, e), ...code, cloneNode(v)]);
  }

  /** A condition whose outcomes carry code: `e ? (T…, true) : (F…, false)`, only truthiness is used. */
  private test(e: t.Expression, T: Exprs, F: Exprs): t.Expression {
    if (T.length === 0) return logicalExpression('||', e, seq([...F, booleanLiteral(false)]));
    if (F.length === 0) return logicalExpression('&&', e, seq([...T, booleanLiteral(true)]));
    return conditionalExpression(e, seq([...T, booleanLiteral(true)]), seq([...F, booleanLiteral(false)]));
  }

  /**
   * `a && b` with code on the short circuit: `((t = a) ? t : (code, t)) && b` (and the mirror images). The
   * logical expression itself stays, its operands in place (a nested logical's own operands too), so a tool
   * that runs after us and counts them (babel-plugin-istanbul's `binary-expr` branches) finds the same ones.
   */
  private logical(n: t.LogicalExpression, short: Exprs): t.Expression {
    const when = n.operator === '&&' ? 'falsy' : n.operator === '||' ? 'truthy' : 'present';
    n.left = this.onOutcome(n, n.left as t.Expression, when, short);
    return n;
  }

  /**
   * `e`, with `code` run when its value turns out `when`. A logical expression passes the code down to the
   * operands whose value can be its own, so the operator tree stays whole.
   */
  private onOutcome(owner: t.Node, e: t.Expression, when: Outcome, code: Exprs): t.Expression {
    if (isLogicalExpression(e)) {
      const parts = outcomeOperands(e.operator, when);
      parts.forEach(([side, outcome], k) => {
        const operand = e[side] as t.Expression;
        // One AST node must not stand in two places: the second operand gets a copy of the code.
        e[side] = this.onOutcome(owner, operand, outcome, k === 0 ? code : code.map((c) => cloneNode(c)));
      });
      return e;
    }
    const v = this.temps(owner).value();
    if (when === 'any') return keepsPlace(e, this.afterValue(owner, e, code));
    const tested = assignTemp(v, e);
    const present = () => notNullish(tested, cloneNode(v));
    const test =
      when === 'truthy'
        ? tested
        : when === 'falsy'
          ? unaryExpression('!', tested)
          : when === 'present'
            ? present()
            : logicalExpression('&&', present(), unaryExpression('!', cloneNode(v)));
    return keepsPlace(e, conditionalExpression(test, seq([...code, cloneNode(v)]), cloneNode(v)));
  }

  /** `(code…, a) || b`: code before a logical expression runs before its first operand. */
  private beforeFirstOperand(n: t.LogicalExpression, code: Exprs): t.LogicalExpression {
    const left = n.left as t.Expression;
    n.left = isLogicalExpression(left)
      ? this.beforeFirstOperand(left, code)
      : keepsPlace(left, seq([...code, left]));
    return n;
  }

  /**
   * `x ||= v`. For a variable, `x || (x = v)` is the same thing and keeps `v`'s inferred name. For a
   * property, a flag set after `v` tells the two outcomes apart without evaluating the target twice.
   */
  private logicalAssignment(
    n: t.AssignmentExpression,
    code: { right: Exprs; short: Exprs; done: Exprs },
  ): t.Expression {
    const temps = this.temps(n);
    const v = temps.value();
    const op = n.operator.slice(0, -1) as '&&' | '||' | '??';
    if (isIdentifier(n.left)) {
      const assign = seq([
        ...code.right,
        assignmentExpression('=', cloneNode(v), assignmentExpression('=', n.left, n.right)),
        ...code.done,
        cloneNode(v),
      ]);
      const shortValue = seq([...code.short, cloneNode(v)]);
      const read = assignmentExpression('=', v, cloneNode(n.left));
      if (op === '&&') return conditionalExpression(read, assign, shortValue);
      if (op === '||') return conditionalExpression(read, shortValue, assign);
      return conditionalExpression(notNullish(read, cloneNode(v)), shortValue, assign);
    }
    const flag = temps.get('assigned', 'pp_assigned');
    const left = n.left as t.MemberExpression;
    const reset = assignmentExpression('=', cloneNode(flag), numericLiteral(0));
    // The flag is cleared right before the property is read, after the target's own parts ran.
    if (left.computed)
      left.property = seq([
        assignmentExpression('=', cloneNode(v), left.property as t.Expression),
        reset,
        cloneNode(v),
      ]);
    else if (!isSuper(left.object))
      left.object = seq([assignmentExpression('=', cloneNode(v), left.object), reset, cloneNode(v)]);
    const right = seq([
      ...code.right,
      assignTemp(cloneNode(v), n.right),
      assignmentExpression('=', cloneNode(flag), numericLiteral(1)),
      cloneNode(v),
    ]);
    const assigned = assignmentExpression(n.operator, left, right);
    const prefix = !left.computed && isSuper(left.object) ? [reset] : [];
    return seq([
      ...prefix,
      assignmentExpression('=', cloneNode(v), assigned),
      conditionalExpression(
        cloneNode(flag),
        seq([...code.done, numericLiteral(0)]),
        seq([...code.short, numericLiteral(0)]),
      ),
      cloneNode(v),
    ]);
  }

  /** The case edges' code, placed for the whole switch once its cases are rewritten (switch-case-code.ts). */
  private applySwitch(n: t.SwitchStatement): void {
    const withCode = n.cases.find((c) => this.cases.has(c));
    if (withCode) placeCaseCode(n, this.cases, this.fallsThrough, this.temps(withCode));
  }

  /**
   * Code on entering a `catch` runs before its parameter is destructured (which can throw and has edges of
   * its own): `catch ({ a }) { … }` becomes `catch (e) { code; let { a } = e; … }`, the same bindings. The
   * parameter has a scope of its own around the block's: when the block declares lexical names, it moves
   * into a block of its own, so that the parameter's defaults and computed keys (and closures made there)
   * still see the names outside, `catch ([f = () => x]) { let x; }` (test262
   * statements/try/scope-catch-block-lex-open).
   */
  private applyCatchStart(n: t.CatchClause, code: Exprs): void {
    const param = n.param;
    if (param && !isIdentifier(param)) {
      const caught = this.temps(n).undeclared('pp_caught');
      n.param = caught;
      const body = n.body.body.some(declaresLexically) ? [blockStatement(n.body.body)] : n.body.body;
      n.body.body = [
        ...statements(code),
        variableDeclaration('let', [variableDeclarator(param, cloneNode(caught))]),
        ...body,
      ];
    } else n.body.body.unshift(...statements(code));
  }

  /** `{ a: x }` → `{ [(code, "a")]: x }`: the same property, read after the code. */
  private applyPropertyStart(n: t.ObjectProperty): void {
    const code = this.propertyStarts.get(n);
    if (!code) return;
    const key = n.key;
    const name: t.Expression = n.computed
      ? (key as t.Expression)
      : isIdentifier(key)
        ? stringLiteral(key.name)
        : (key as t.Expression);
    n.key = seq([...code, name]);
    n.computed = true;
    n.shorthand = false;
  }

  /** Code before a declarator: a declarator of its own in front of it, so names and scoping are kept. */
  private applyDeclaratorStarts(n: t.VariableDeclaration): void {
    const list: t.VariableDeclarator[] = [];
    for (const d of n.declarations) {
      const start = this.declaratorStarts.get(d);
      if (start) {
        const extra = start.temps.undeclared('pp_entered');
        list.push(variableDeclarator(extra, seq([...start.code, numericLiteral(0)])));
      }
      list.push(d);
    }
    n.declarations = list;
  }

  /**
   * `{ a = D }` with code when D is used: `{ a = (start…, t = D, end…, t) }`; in a rewritten array pattern,
   * a D that can throw runs in the helper's guard.
   */
  private applyDefault(n: t.AssignmentPattern): void {
    const wrapper = this.parameterWrappers.get(n);
    if (wrapper) return this.wrapParameterDefault(n, wrapper);
    const code = this.defaults.get(n);
    const guard = this.guardedDefaults.get(n);
    if (!code && !guard) return;
    let value = namedValue(n);
    if (code) {
      if (code.end.length) value = this.afterValue(n, value, code.end);
      value = seq([...code.start, value]);
    }
    n.right = keepsPlace(n.right, guard ? this.arrays.guard(cloneNode(guard), value) : value);
  }

  /** A declarator whose object pattern has code before its rest element: the value is wrapped. */
  private applyObjectRest(n: t.VariableDeclarator): void {
    const code = this.restStarts.get(n.id);
    if (code && isObjectPattern(n.id))
      this.objectRests.rewrite(n as t.VariableDeclarator & { id: t.ObjectPattern }, code);
  }

  /** Declarators whose array pattern has code before an element's step: rewritten over the helper. */
  private applyWrappedArrays(n: t.VariableDeclaration): void {
    n.declarations = n.declarations.flatMap((d) => {
      const wrapped = this.wrappedArrays.get(d.id);
      if (!wrapped || !isArrayPattern(d.id)) return [d];
      return this.arrays.rewrite(
        d as t.VariableDeclarator & { id: t.ArrayPattern },
        wrapped.iterator,
        (i) => wrapped.code.get(i) ?? [],
        (i) => wrapped.patternCode.get(i) ?? [],
      );
    });
  }

  /**
   * `(a = D)` → `(a = (() => { let s, …; s = carried || initial; clear; aliases; try { start; t = D; end;
   * carry s; return t; } catch (error) { record; clear; throw error; } })())` (parameter-state.ts says where
   * the state is carried). An arrow keeps `this`, `arguments`, `super` and `new.target`; `yield` and `await`
   * cannot appear in parameters.
   */
  private wrapParameterDefault(n: t.AssignmentPattern, w: ParameterWrapper): void {
    const code = this.defaults.get(n) ?? { start: [], end: [] };
    const v = w.temps.value();
    const c = w.carried;
    // Fresh nodes each time: one AST node must not stand in two places.
    const clear = (): Exprs => (c ? [c.carrier.clear()].filter((e): e is t.Expression => e !== null) : []);
    const taken = (): t.Expression => {
      if (!c) return numericLiteral(0);
      if (!c.away)
        return assignmentExpression(
          '=',
          cloneNode(c.state),
          logicalExpression('||', c.carrier.read(), cloneNode(c.initial)),
        );
      // Another default ran before: the activation comes back; else it starts here.
      return conditionalExpression(
        assignmentExpression('=', cloneNode(c.state), c.carrier.read()),
        seq(c.away.reenter(cloneNode(c.state))),
        assignmentExpression('=', cloneNode(c.state), cloneNode(c.initial)),
      );
    };
    const take = c ? [taken(), ...clear()] : [];
    const main = [
      ...statements(code.start),
      expressionStatement(assignTemp(cloneNode(v), namedValue(n))),
      ...statements(code.end),
      ...(c ? statements([c.carrier.write(cloneNode(c.state)), ...c.handOn]) : []),
      ...(c?.away ? statements(c.away.leave(cloneNode(c.state))) : []),
      returnStatement(cloneNode(v)),
    ];
    const onThrow = [...w.exceptionalExit, ...statements(clear())];
    const body = onThrow.length
      ? [
          tryStatement(
            blockStatement(main),
            catchClause(caught(), blockStatement([...onThrow, throwStatement(caught())])),
          ),
        ]
      : main;
    const arrow = arrowFunctionExpression(
      [],
      blockStatement([...w.temps.declarations(), ...statements(take), ...w.prologue, ...body]),
    );
    n.right = keepsPlace(n.right, callExpression(arrow, []));
  }

  /** After a `for` initialiser: appended to it, or as one more declarator (keeps names and scoping). */
  private applyForInit(n: t.ForStatement, code: Exprs): void {
    if (!n.init) n.init = seq(code);
    else if (isExpression(n.init)) n.init = seq([n.init, ...code]);
    else {
      const extra = this.temps(n).undeclared('pp_entered');
      n.init.declarations.push(variableDeclarator(extra, seq([...code, numericLiteral(0)])));
    }
  }

  private applyFinally(n: t.TryStatement, f: FinallyEdits): t.Statement {
    const finalizer = n.finalizer!;
    finalizer.body.unshift(...f.atStart);
    finalizer.body.push(...f.atEnd);
    if (!f.catchAll) return n;
    const error = caught();
    const inner = n.handler ? blockStatement([tryStatement(n.block, n.handler)]) : n.block;
    const record = catchClause(
      error,
      blockStatement([
        expressionStatement(assignmentExpression('=', cloneNode(f.k), numericLiteral(1))),
        throwStatement(cloneNode(error)),
      ]),
    );
    // In the original's place: a tool after us that counts statements by their place (babel-plugin-istanbul)
    // counts this one as the user's `try`, and the inner one, placeless, not at all.
    return locatedAt(tryStatement(inner, record, finalizer), n);
  }

  /** The activation's frame: prologue first, then the body inside the exception handler. */
  private finishRoot(n: t.Node, r: RootEdits): void {
    const { temps } = r;
    if (isProgram(n) || isTSModuleBlock(n)) {
      n.body.unshift(...temps.declarationsBefore(r.prologue));
      this.roots.delete(n);
      return;
    }
    const body = frameBody(n);
    if (!body) return;
    const error = caught();
    let main: t.Statement[] = body.statements;
    if (r.exceptionalExit.length || r.generatorReturns.length) {
      const y = r.generatorReturns.length ? temps.get('yield', 'pp_y') : null;
      const handler = catchClause(
        error,
        blockStatement([
          ...(y ? [expressionStatement(assignmentExpression('=', cloneNode(y), numericLiteral(0)))] : []),
          ...r.exceptionalExit,
          throwStatement(cloneNode(error)),
        ]),
      );
      const finalizer = y
        ? blockStatement(r.generatorReturns.map((g) => ifCompletion(y, [g.id], g.code)))
        : null;
      main = [
        tryStatement(
          blockStatement(hoistClashingDeclarations(main, isFunction(n) ? n.params : [])),
          handler,
          finalizer,
        ),
      ];
    }
    body.replace([...temps.declarationsBefore(r.prologue), ...main]);
    this.roots.delete(n);
  }
}

/** The statements of a function-like's body, and how to replace them (arrows and fields become blocks). */
function frameBody(n: t.Node): { statements: t.Statement[]; replace(s: t.Statement[]): void } | null {
  if (isFunction(n)) {
    if (isBlockStatement(n.body)) {
      const block = n.body;
      return {
        statements: block.body,
        replace: (s) => {
          block.body = s;
        },
      };
    }
    // As babel-plugin-istanbul makes it: the block and its return where the expression was, so that istanbul
    // running after us finds the function's body and statement.
    const value = n.body;
    return {
      statements: [locatedAt(returnStatement(value), value)],
      replace: (s) => {
        n.body = locatedAt(blockStatement(s), value);
      },
    };
  }
  if (isStaticBlock(n)) {
    return {
      statements: n.body,
      replace: (s) => {
        n.body = s;
      },
    };
  }
  if ((isClassProperty(n) || isClassPrivateProperty(n) || isClassAccessorProperty(n)) && n.value) {
    const value = n.value;
    return {
      statements: [returnStatement(value)],
      replace: (s) => {
        // An initializer is a method-like scope: an arrow called in place keeps `this`, `super` and `new.target`.
        n.value = keepsPlace(value, callExpression(arrowFunctionExpression([], blockStatement(s)), []));
      },
    };
  }
  return null;
}

function ifCompletion(k: t.Identifier, codes: readonly number[], code: Exprs): t.Statement {
  const test = codes
    .map((c): t.Expression => binaryExpression('===', cloneNode(k), numericLiteral(c)))
    .reduce((a, b) => logicalExpression('||', a, b));
  return ifStatement(test, blockStatement(statements(code)));
}

/**
 * A default's value as an expression that can stand anywhere: an anonymous function or class would lose the
 * name it takes from the binding, so it is created as a property of that name and read back.
 */
function namedValue(n: t.AssignmentPattern): t.Expression {
  if (!isIdentifier(n.left) || !isAnonymousDefinition(n.right)) return n.right;
  const name = stringLiteral(n.left.name);
  return memberExpression(objectExpression([objectProperty(name, n.right)]), cloneNode(name), true);
}

/** A `yield`'s code: before it suspends, after it resumes (by `next()`), and for `yield*` the delegation's. */
interface YieldEdits {
  readonly pre: Exprs;
  readonly post: Exprs;
  /** The resumption edge's code. */
  readonly resume: Exprs;
  /** The plan's `Suspension.resume`, before the edge's code. */
  readonly resumed: Exprs;
  delegate: { async: boolean; resume: Exprs; suspend: Exprs } | null;
}

interface ParameterWrapper {
  readonly temps: FunctionTemps;
  /**
   * The activation's state: the wrapper's local that holds it, where it waits, its value before anything
   * ran. Null when the plan keeps none.
   */
  readonly carried: {
    state: t.Identifier;
    carrier: StateCarrier;
    initial: t.Expression;
    /** Run right after the state goes back to its carrier (`ParameterState.handOn`). */
    handOn: t.Expression[];
    /** A generator's activation leaves after each default and comes back for the next one or the body. */
    away: {
      leave: NonNullable<ParameterState['leave']>;
      reenter: NonNullable<ParameterState['reenter']>;
    } | null;
  } | null;
  readonly prologue: t.Statement[];
  readonly exceptionalExit: t.Statement[];
}

/** A function or class expression with no name of its own: it takes the name of what it initialises. */
function isAnonymousDefinition(e: t.Expression): boolean {
  const x = isParenthesizedExpression(e) ? e.expression : e;
  return isArrowFunctionExpression(x) || ((isFunctionExpression(x) || isClassExpression(x)) && !x.id);
}

/** What a value turns out to be, as a logical operator decides on it: `present` is neither null nor undefined. */
type Outcome = 'truthy' | 'falsy' | 'present' | 'falsyPresent' | 'any';

/**
 * Which operands of `l op r` give it the outcome `when`, and with which outcome of their own: `l || r` is
 * truthy when `l` is (it is then `l`) or when `r` is; it is falsy only as `r`, … (`present` and `falsyPresent`
 * follow from `l` and `r` being the value: a truthy value is present).
 */
function outcomeOperands(op: '&&' | '||' | '??', when: Outcome): ['left' | 'right', Outcome][] {
  if (when === 'any')
    return [
      ['left', op === '||' ? 'truthy' : op === '&&' ? 'falsy' : 'present'],
      ['right', 'any'],
    ];
  if (op === '||') {
    if (when === 'truthy')
      return [
        ['left', 'truthy'],
        ['right', 'truthy'],
      ];
    if (when === 'present')
      return [
        ['left', 'truthy'],
        ['right', 'present'],
      ];
    return [['right', when]];
  }
  if (op === '&&') {
    if (when === 'falsy')
      return [
        ['left', 'falsy'],
        ['right', 'falsy'],
      ];
    if (when === 'falsyPresent')
      return [
        ['left', 'falsyPresent'],
        ['right', 'falsyPresent'],
      ];
    if (when === 'present')
      return [
        ['left', 'falsyPresent'],
        ['right', 'present'],
      ];
    return [['right', 'truthy']];
  }
  // `l ?? r` is `l` when `l` is present, else `r`.
  if (when === 'truthy')
    return [
      ['left', 'truthy'],
      ['right', 'truthy'],
    ];
  return [
    ['left', when === 'falsy' ? 'falsyPresent' : when],
    ['right', when],
  ];
}

function notNullish(read: t.Expression, v: t.Identifier): t.Expression {
  return logicalExpression(
    '&&',
    binaryExpression('!==', read, nullLiteral()),
    binaryExpression('!==', v, unaryExpression('void', numericLiteral(0))),
  );
}

/** One statement for the code of one edge (or none): a sequence, not a statement per expression. */
function statements(code: Exprs): t.Statement[] {
  return code.length === 0 ? [] : [expressionStatement(seq(code))];
}

function push<K, V>(map: Map<K, V[]>, key: K, values: V[]): void {
  const list = map.get(key);
  if (list) list.push(...values);
  else map.set(key, [...values]);
}

function pushList(
  map: Map<t.Node, Map<string, t.Statement[]>>,
  owner: t.Node,
  key: string,
  code: Exprs,
): void {
  let byKey = map.get(owner);
  if (!byKey) map.set(owner, (byKey = new Map()));
  push(byKey, key, statements(code));
}

/**
 * A statement that declares names in its block's own scope: `let`, `const`, a class or a function (labelled
 * too, `L: function f() {}` in sloppy code).
 */
function declaresLexically(s: t.Statement): boolean {
  return (
    (isVariableDeclaration(s) && s.kind !== 'var') ||
    t.isClassDeclaration(s) ||
    declaredFunction(s) !== null ||
    t.isTSEnumDeclaration(s)
  );
}

/**
 * The exception an inserted handler catches, records and rethrows. One letter (642 handlers in lodash): it can
 * shadow a name of the program only inside the handler's body, which is inserted code that reads none.
 */
function caught(): t.Identifier {
  return identifier('e');
}
