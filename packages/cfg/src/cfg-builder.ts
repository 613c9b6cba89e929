import * as t from '@babel/types';
import { EdgeKind } from './edge-kind';
import type { EdgeSite } from './edge-site';
import type {
  CfgCall,
  CfgCallSite,
  CfgRootKind,
  ControlFlowGraph,
  FinallyRegion,
  HandlerEntry,
  CloseDispatch,
  IterationExit,
} from './control-flow-graph';
import { ENTRY, EXIT, GraphBuilder, Join, UNREACHABLE } from './graph-builder';
import { type ClosingLoop, FinallyBuilder, type JumpContext, type JumpRequest } from './jump-context';
import { declaresArguments, hasPlainParameters, keepsParameterStateByArguments } from './parameter-state';
import {
  evaluationMayThrow,
  isTypeOnlyStatement,
  mayEvalDirectly,
  neverUndefined,
  staticTruthiness,
  unwrapTypeScript,
} from './node-facts';
import { CfgError } from './cfg-error';
import type { ProgramPoints } from './program-point';
import type { CfgRoot } from './cfg-roots';
import {
  firstProperty,
  hasBranchingComputedKey,
  patternDefaults,
  suspendingTargetStart,
  visitBindingTarget,
  type OpaqueDefault,
} from './pattern-defaults';
import { isTypeKey } from './type-keys';

// Read once: @babel/types' exports are getters, which V8 does not inline on these hot paths.
const {
  isArrayPattern,
  isArrowFunctionExpression,
  isAssignmentPattern,
  isAwaitExpression,
  isBlockStatement,
  isCallExpression,
  isClassAccessorProperty,
  isClassDeclaration,
  isClassPrivateProperty,
  isClassProperty,
  isConditionalExpression,
  isExpression,
  isForOfStatement,
  isFunction,
  isLogicalExpression,
  isLoop,
  isMemberExpression,
  isObjectPattern,
  isOptionalCallExpression,
  isOptionalMemberExpression,
  isPattern,
  isProgram,
  isRestElement,
  isSequenceExpression,
  isStatement,
  isStaticBlock,
  isTSAsExpression,
  isTSModuleBlock,
  isTSNonNullExpression,
  isTSParameterProperty,
  isTSSatisfiesExpression,
  isUnaryExpression,
  isVariableDeclaration,
  isYieldExpression,
  traverseFast,
  VISITOR_KEYS,
} = t;

const NO_NODES: ReadonlySet<t.Node> = new Set();

/** What a graph is built with beyond its root, the file's name and `nonThrowingCode`. */
export interface CfgBuildOptions {
  /** Calls to split into a call vertex and a return site (`splitCall`); none by default. */
  readonly splitCalls?: ReadonlySet<t.Node>;
  /** When given, filled with the program point of every statement and expression the graph runs. */
  readonly points?: ProgramPoints;
  /**
   * Statements and expressions that are straight-line code here: one piece that may throw, with no decisions
   * of the graph (what a compiler added: the plugin's compiler-added-code.ts). None jumps or suspends.
   */
  readonly straightLine?: ReadonlySet<t.Node>;
}

/** What a condition's direct edges are called when the whole condition is one leaf (no `&&`, `||`, `?:`). */
interface LeafSites {
  readonly onTrue: EdgeSite;
  readonly onFalse: EdgeSite;
}

/**
 * Builds the graph of one function-like by walking its AST once, recursively, with a stack of jump contexts
 * (loops, switches, labels, `finally` regions) and the current exception handler. Every edge records the
 * site where code for it can be inserted; see edge-site.ts.
 */
export class CfgBuilder {
  private readonly g = new GraphBuilder();
  private cur = UNREACHABLE;
  private handler: Join | null = null;
  private readonly contexts: JumpContext[] = [];
  /** Joins a `break` that closes its loop's iterator enters: their blocks can throw on entry. */
  private readonly closingJoins = new Map<Join, t.ForOfStatement>();
  private readonly closeDispatches: { -readonly [K in keyof CloseDispatch]: CloseDispatch[K] }[] = [];
  private readonly closingJumps = new Map<t.Node, number>();
  private readonly thisChecks = new Set<t.ReturnStatement>();
  private readonly derivedConstructor: boolean;
  private readonly finallies: FinallyRegion[] = [];
  private readonly iterationExits: { statement: t.ForInStatement | t.ForOfStatement; doneJoin: Join }[] = [];
  private readonly handlers: { join: Join; clause: t.CatchClause | t.TryStatement }[] = [];
  private readonly isGenerator: boolean;
  /** An async generator awaits a returned value before it leaves any loop: its returns are not dispatched. */
  private readonly awaitsReturns: boolean;
  /** Defaults that are path decisions, and those that are not (with why). */
  private readonly decided = new Set<t.AssignmentPattern>();
  private readonly opaqueDefaults: OpaqueDefault[] = [];
  private parameterDefaultList: t.AssignmentPattern[] = [];
  /** A block entered by a silent edge: nothing in it may throw until an edge with a site leaves it. */
  private silentBlock = UNREACHABLE;
  private readonly callSites: CfgCallSite[] = [];
  private readonly calls: CfgCall[] = [];
  /** The calls in `calls`: a `||`'s left operand is noted twice. */
  private readonly callsNoted = new Set<t.Node>();

  private readonly root: t.Node;
  private readonly kind: CfgRootKind;
  private readonly name: string;
  private readonly yieldsAreAwaits: boolean;
  private readonly splitCalls: ReadonlySet<t.Node>;
  private readonly points?: ProgramPoints;
  /** Null when there is none: most files' graphs look nothing up per statement and expression. */
  private readonly straightLine: ReadonlySet<t.Node> | null;

  constructor(
    root: CfgRoot,
    private readonly filename: string,
    /** Nodes whose own evaluation cannot throw where they are (`nonThrowingCode`). */
    private readonly nonThrowing: ReadonlySet<t.Node>,
    { splitCalls = NO_NODES, points, straightLine = NO_NODES }: CfgBuildOptions = {},
  ) {
    this.root = root.node;
    this.kind = root.kind;
    this.name = root.name;
    this.yieldsAreAwaits = root.yieldsAreAwaits === true;
    this.derivedConstructor = root.derivedConstructor === true;
    this.splitCalls = splitCalls;
    this.points = points;
    this.straightLine = straightLine.size > 0 ? straightLine : null;
    this.isGenerator = isFunction(this.root) && this.root.generator === true;
    this.awaitsReturns = this.isGenerator && (this.root as t.Function).async === true;
  }

  build(): ControlFlowGraph {
    const root = this.root;
    const first = this.g.addBlock(null);
    const decided = isFunction(root) ? this.decidedParameters(root) : [];
    this.g.addEdge(
      ENTRY,
      first,
      decided.length ? EdgeKind.ParamsEntry : EdgeKind.Entry,
      decided.length ? null : { type: 'prologue' },
      root,
    );
    this.cur = first;
    if (decided.length) this.parameters(root as t.Function, decided);
    if (isProgram(root)) {
      this.statements(root.body);
      this.edgeToExit(EdgeKind.Normal, { type: 'listEnd', owner: root, key: 'body' });
    } else if (isStaticBlock(root) || isTSModuleBlock(root)) {
      this.statements(root.body);
      this.edgeToExit(EdgeKind.Normal, { type: 'listEnd', owner: root, key: 'body' });
    } else if (isClassProperty(root) || isClassPrivateProperty(root) || isClassAccessorProperty(root)) {
      const value = root.value!;
      this.expr(value);
      this.edgeToExit(EdgeKind.Return, { type: 'afterExpression', expression: value });
    } else if (isFunction(root)) {
      const body = root.body;
      if (isBlockStatement(body)) {
        this.point(body);
        this.statements(body.body);
        this.edgeToExit(EdgeKind.Return, { type: 'listEnd', owner: body, key: 'body' });
      } else {
        this.expr(body);
        this.edgeToExit(EdgeKind.Return, { type: 'arrowReturn', body });
      }
    } else {
      throw new Error(`internal error: no graph for a ${root.type}`);
    }
    this.g.connectDeadEnds(root);
    return this.freeze();
  }

  private freeze(): ControlFlowGraph {
    const parts = this.g.finish();
    const iterationExits: IterationExit[] = [];
    for (const { statement, doneJoin } of this.iterationExits) {
      if (doneJoin.block === UNREACHABLE) continue;
      for (let e = 0; e < parts.edges.length; e++) {
        if (parts.edgeDst[e] === doneJoin.block && parts.edges[e].kind === EdgeKind.Done) {
          iterationExits.push({ statement, doneEdge: e, afterBlock: doneJoin.block });
        }
      }
    }
    const handlers: HandlerEntry[] = this.handlers
      .filter((h) => h.join.block !== UNREACHABLE)
      .map((h) => ({ block: h.join.block, clause: h.clause }));
    const loc = this.root.loc;
    return {
      kind: this.kind,
      node: this.root,
      name: this.name,
      range: loc ? { start: { ...loc.start }, end: { ...loc.end } } : null,
      blockCount: parts.blocks.length,
      entry: ENTRY,
      exit: EXIT,
      edgeCount: parts.edgeSrc.length,
      edgeSrc: parts.edgeSrc,
      edgeDst: parts.edgeDst,
      edgeKind: parts.edgeKind,
      edgeExceptional: parts.edgeExceptional,
      edgeSilent: parts.edgeSilent,
      blocks: parts.blocks,
      edges: parts.edges,
      finallies: this.finallies,
      iterationExits,
      handlers,
      closeDispatches: this.closeDispatches,
      closingJumps: this.closingJumps,
      thisChecks: this.thisChecks,
      isGenerator: this.isGenerator,
      parameterDefaults: this.parameterDefaultList,
      opaqueDefaults: this.opaqueDefaults,
      callSites: this.callSites,
      calls: this.calls,
      nonThrowing: this.nonThrowing,
    };
  }

  // ---------------------------------------------------------------- blocks and edges

  /** Makes `block` current, closing the block the builder leaves (which adds its exceptional edge). */
  private enter(block: number): void {
    if (this.cur !== UNREACHABLE && this.cur !== block) this.g.close(this.cur, this.root);
    this.cur = block;
  }

  private leave(): void {
    this.enter(UNREACHABLE);
  }

  private land(join: Join): void {
    const from = this.cur;
    if (from !== UNREACHABLE) this.g.close(from, this.root);
    this.cur = UNREACHABLE;
    this.cur = this.g.land(join, this.handler);
    const closed = this.closingJoins.get(join);
    if (closed) this.g.throwsOnEntry(this.cur, closed);
  }

  private newJoin(): Join {
    return new Join();
  }

  /** A fresh block reached from the current one: a `try` start (new handler), a `finally` exit. */
  private startBlock(kind: EdgeKind, site: EdgeSite, node: t.Node): void {
    if (this.cur === UNREACHABLE) return;
    const block = this.g.addBlock(this.handler);
    this.g.addEdge(this.cur, block, kind, site, node);
    this.enter(block);
  }

  private edgeTo(join: Join, kind: EdgeKind, site: EdgeSite | null, node: t.Node): void {
    this.g.edgeTo(this.cur, join, kind, site, node);
  }

  private edgeToExit(kind: EdgeKind, site: EdgeSite): void {
    if (this.cur === UNREACHABLE) return;
    this.jump({ kind: 'return' }, kind, site, this.root);
  }

  private code(node: t.Node): void {
    const mayThrow = !this.nonThrowing.has(node) && evaluationMayThrow(node);
    if (mayThrow && this.cur === this.silentBlock && this.cur !== UNREACHABLE) {
      throw new Error(`internal error: a ${node.type} that can throw right after a silent edge`);
    }
    const { type } = node;
    if (
      (type === 'CallExpression' ||
        type === 'OptionalCallExpression' ||
        type === 'NewExpression' ||
        type === 'TaggedTemplateExpression') &&
      this.cur !== UNREACHABLE &&
      !this.callsNoted.has(node)
    ) {
      this.callsNoted.add(node);
      this.calls.push({ node, block: this.cur, afterThrowable: this.g.mayThrowSoFar(this.cur) });
    }
    this.g.noteCode(this.cur, node, mayThrow);
  }

  /** Leaves a block entered by a silent edge through an edge with a site, before code that can throw. */
  private closeSilent(site: EdgeSite, node: t.Node): void {
    if (this.cur === UNREACHABLE || this.cur !== this.silentBlock) return;
    this.startBlock(EdgeKind.Normal, site, node);
  }

  // ---------------------------------------------------------------- jumps

  /**
   * Routes a jump to its target through every `finally` in between: the edge goes to the innermost such
   * `finally`, which records the completion and re-issues the jump when it ends.
   */
  /** `site` is where code for the jump goes; a yield-return has none of its own (null) and gets one here. */
  private jump(
    request: JumpRequest,
    kind: EdgeKind,
    site: EdgeSite | null,
    node: t.Node,
    stay = false,
  ): void {
    if (this.cur === UNREACHABLE) return;
    const from = this.cur;
    const done = () => (stay ? undefined : this.leave());
    for (let i = this.contexts.length - 1; i >= 0; i--) {
      const c = this.contexts[i];
      if (c.type === 'finally') {
        const target = this.findTarget(request, i);
        const completion = c.region.completionFor(request, target);
        const entrySite: EdgeSite | null =
          request.kind === 'yield-return'
            ? { type: 'finallyEntry', statement: c.region.statement, completion }
            : site;
        this.g.edgeTo(from, c.region.join, kind, entrySite, node, {
          entersFinally: { statement: c.region.statement, completion },
        });
        return done();
      }
      if (matches(request, c)) {
        const join = request.kind === 'continue' && c.type === 'loop' ? c.continueJoin : c.breakJoin;
        this.edgeTo(join, kind, site, node);
        if (request.kind === 'break' && c.type === 'loop' && c.closes)
          this.closedOnEntry(join, c.closes.loop);
        return done();
      }
      if (c.type === 'loop' && c.closes && this.dispatches(request)) {
        this.edgeTo(this.dispatchOf(c.closes, request).join, kind, site, node);
        return done();
      }
    }
    if (request.kind === 'break' || request.kind === 'continue') {
      throw new CfgError(this.filename, node, `no target for \`${request.kind}\``);
    }
    const exitSite: EdgeSite | null =
      request.kind === 'yield-return' ? { type: 'generatorReturn', expression: request.yieldNode } : site;
    this.edgeTo(this.g.exitJoin, kind, exitSite, node);
    done();
  }

  /** A `break` out of a `for…of` enters the block after it with the iterator being closed, which can throw. */
  private closedOnEntry(join: Join, loop: t.ForOfStatement): void {
    if (join.block !== UNREACHABLE) this.g.throwsOnEntry(join.block, loop);
    else this.closingJoins.set(join, loop);
  }

  /** Whether a jump leaving a `for…of` goes through a dispatch (`CloseDispatch`); the others are not modelled. */
  private dispatches(request: JumpRequest): boolean {
    return request.kind !== 'yield-return' && !(request.kind === 'return' && this.awaitsReturns);
  }

  private dispatchOf(closing: ClosingLoop, request: JumpRequest) {
    const key =
      request.kind === 'return' ? 'return' : `${request.kind}:${(request as { label: string }).label}`;
    let d = closing.dispatches.get(key);
    if (!d) {
      if (request.kind === 'yield-return' || (request.kind !== 'return' && !request.label)) {
        throw new Error(`internal error: a ${request.kind} without a label leaves a for…of`);
      }
      d = { index: this.closeDispatches.length, join: this.newJoin(), request };
      closing.dispatches.set(key, d);
      this.closeDispatches.push({
        statement: closing.statement,
        loop: closing.loop,
        jump: request.kind === 'return' ? { kind: 'return' } : { kind: request.kind, label: request.label! },
        next: null,
      });
    }
    return d;
  }

  /**
   * The dispatch a jump statement becomes a `break` to: the first `for…of` it leaves, past any `finally` (which
   * the jump's completion passes through), before it reaches its target. Null when it leaves none.
   */
  private closingDispatch(request: JumpRequest): number | null {
    if (!this.dispatches(request)) return null;
    for (let i = this.contexts.length - 1; i >= 0; i--) {
      const c = this.contexts[i];
      if (c.type === 'finally') continue;
      if (matches(request, c)) return null;
      if (c.type === 'loop' && c.closes) return this.dispatchOf(c.closes, request).index;
    }
    return null;
  }

  /** A jump statement: to its dispatch, if it leaves a `for…of`, or on its way to its target. */
  private jumpStatement(
    request: JumpRequest,
    kind: EdgeKind,
    s: t.BreakStatement | t.ContinueStatement | t.ReturnStatement,
  ): void {
    const dispatch = this.closingDispatch(request);
    if (dispatch !== null) this.closingJumps.set(s, dispatch);
    if (s.type === 'ReturnStatement' && this.checksThis(s, dispatch !== null)) {
      this.thisChecks.add(s);
      this.closeSilent({ type: 'beforeStatement', statement: s }, s);
      this.g.noteCode(this.cur, s, true);
    }
    this.jump(request, kind, { type: 'jump', statement: s }, s);
  }

  /** Whether a `return` here reads `this` first (`ControlFlowGraph.thisChecks`). */
  private checksThis(s: t.ReturnStatement, dispatched: boolean): boolean {
    if (!this.derivedConstructor || this.cur === UNREACHABLE || (s.argument && neverUndefined(s.argument))) {
      return false;
    }
    // Where V8 checks, the language checks only when the body is left; they agree with nothing in between. A
    // return that becomes a break to a dispatch no longer stands where V8 checks: it is checked there always.
    return dispatched || this.handler === null;
  }

  /**
   * After a `for…of`, with its context popped: each dispatch's block, entered once the iterator is closed
   * (which can throw), re-issues its jump from there, perhaps to the dispatch of an enclosing `for…of`.
   */
  private dispatchesAfter(closing: ClosingLoop): void {
    for (const d of closing.dispatches.values()) {
      this.land(d.join);
      this.g.throwsOnEntry(this.cur, closing.loop);
      this.closeDispatches[d.index].next = this.closingDispatch(d.request);
      // Normal, not the jump's kind: the jump is where it is written, which the report shows, not the loop.
      this.jump(d.request, EdgeKind.Normal, { type: 'closeDispatch', index: d.index }, closing.loop);
    }
  }

  private findTarget(request: JumpRequest, below: number): JumpContext | null {
    for (let i = below - 1; i >= 0; i--) if (matches(request, this.contexts[i])) return this.contexts[i];
    return null;
  }

  /** Records where `node` starts (see `ProgramPoint`), when points are asked for. */
  private point(node: t.Node): void {
    this.points?.set(node, {
      root: this.root,
      block: this.cur,
      afterThrowable: this.g.mayThrowSoFar(this.cur),
    });
  }

  // ---------------------------------------------------------------- statements

  private statements(list: readonly t.Statement[]): void {
    for (const s of list) this.stmt(s);
  }

  private stmt(s: t.Statement, labels: readonly string[] = [], outer: t.Statement = s): void {
    if (this.cur === UNREACHABLE) return;
    this.point(s);
    if (this.straightLine?.has(s)) {
      this.closeSilent({ type: 'beforeStatement', statement: s }, s);
      this.g.noteCode(this.cur, s, true);
      return;
    }
    switch (s.type) {
      case 'BlockStatement':
        return this.statements(s.body);
      case 'ExpressionStatement':
        return this.expr(s.expression);
      case 'VariableDeclaration':
        return this.declaration(s, outer);
      case 'IfStatement':
        return this.ifStatement(s);
      case 'WhileStatement':
        return this.whileStatement(s, labels, outer);
      case 'DoWhileStatement':
        return this.doWhileStatement(s, labels, outer);
      case 'ForStatement':
        return this.forStatement(s, labels);
      case 'ForInStatement':
      case 'ForOfStatement':
        return this.forEachStatement(s, labels, outer);
      case 'LabeledStatement':
        return this.labeled(s, labels, outer);
      case 'BreakStatement':
        return this.jumpStatement({ kind: 'break', label: s.label?.name ?? null }, EdgeKind.Break, s);
      case 'ContinueStatement':
        return this.jumpStatement({ kind: 'continue', label: s.label?.name ?? null }, EdgeKind.Continue, s);
      case 'ReturnStatement':
        if (s.argument) this.expr(s.argument);
        return this.jumpStatement({ kind: 'return' }, EdgeKind.Return, s);
      case 'ThrowStatement':
        // After code that may throw, a `throw` starts a block of its own: a run that reaches it is then told
        // from one that threw before (error helpers: `const e = new Error(m); e.code = c; throw e;`).
        if (this.g.mayThrowSoFar(this.cur))
          this.startBlock(EdgeKind.Normal, { type: 'beforeStatement', statement: s }, s);
        this.expr(s.argument);
        this.g.noteCode(this.cur, s, true);
        this.g.throwFrom(this.cur, s);
        return this.leave();
      case 'SwitchStatement':
        return this.switchStatement(s);
      case 'TryStatement':
        return this.tryStatement(s);
      case 'WithStatement':
        this.expr(s.object);
        this.code(s);
        return this.stmt(s.body);
      case 'ClassDeclaration':
        if (s.declare) return;
        return this.classParts(s);
      case 'ExportNamedDeclaration':
        if (s.declaration) this.stmt(s.declaration, [], s);
        return;
      case 'ExportDefaultDeclaration': {
        const d = s.declaration;
        if (isClassDeclaration(d)) return this.classParts(d);
        if (isExpression(d)) return this.expr(d);
        return;
      }
      case 'TSExportAssignment':
        return this.expr(s.expression);
      case 'TSImportEqualsDeclaration':
      case 'TSEnumDeclaration':
      case 'TSModuleDeclaration':
        // Enum member initialisers and namespace bodies run here but are not path decisions of this
        // function (a namespace body has its own graph); the statement can throw.
        if (!('declare' in s && s.declare)) this.g.noteCode(this.cur, s, true);
        return;
      case 'FunctionDeclaration':
      case 'EmptyStatement':
      case 'DebuggerStatement':
      case 'ImportDeclaration':
      case 'ExportAllDeclaration':
        return;
      default:
        if (isTypeOnlyStatement(s)) return;
        throw new CfgError(this.filename, s, `unsupported statement ${s.type}`);
    }
  }

  /**
   * `outer` is the statement in its list, after which code can go; null in a `for` initialiser, whose next
   * edge (into the loop) has a site of its own.
   */
  private declaration(s: t.VariableDeclaration, outer: t.Statement | null): void {
    if (s.declare) return;
    for (const d of s.declarations) {
      if (d.init) {
        this.closeSilent({ type: 'declaratorStart', declarator: d }, d);
        this.expr(d.init);
        this.bindingTarget(d.id, true, true);
      } else {
        // `let x;` initialises to undefined, which cannot throw.
        this.g.noteCode(this.cur, d.id, false);
      }
    }
    if (outer) this.closeSilent({ type: 'afterStatement', statement: outer }, s);
  }

  /**
   * A whole binding or assignment target: decides which of its defaults are path decisions, then walks it.
   * A declarator's value can be wrapped (`valueWrappable`, see patternDefaults).
   */
  private bindingTarget(target: t.Node, binding: boolean, valueWrappable = false): void {
    const { decided, opaque } = patternDefaults(target, binding, binding, valueWrappable);
    for (const p of decided) this.decided.add(p);
    this.opaqueDefaults.push(...opaque);
    this.pattern(target);
  }

  /**
   * Parameter defaults that can be path decisions, in the order they are evaluated. When every parameter is
   * a plain name (with or without a default, or `...rest`), binding them runs no code but the defaults, and
   * binding a plain name cannot throw, so the activation's state can be carried from one default to the
   * next and into the body with nothing in between (parameter-state.ts).
   *
   * Instrumenters first move destructuring parameters into the body where they can
   * (lower-pattern-parameters.ts). Those that stay (a generator's, or where the move would show) read their
   * value while being bound: getters and iterators run code, and can throw, between two defaults. Nothing
   * can catch an exception there, so it belongs to the caller, as it does when the list has no decisions:
   * the activation records nothing (`bindsParameters` blocks). Their defaults are decisions all the same,
   * with the state kept per activation under its `arguments` (code run by a getter must not see it), so an
   * arrow, a function that declares `arguments` and a computed key that branches (edges outside any default)
   * keep theirs opaque. So does a list with a direct `eval`: a sloppy one declares its `var`s in the
   * parameters' scope, which the wrapper a decided default runs in would replace by its own.
   */
  private decidedParameters(fn: t.Function): t.AssignmentPattern[] {
    const params = fn.params.map((p) => (isTSParameterProperty(p) ? p.parameter : p));
    const opaque = (reason: string) => {
      for (const param of params) {
        traverseFast(param, (n) => {
          if (isAssignmentPattern(n)) this.opaqueDefaults.push({ node: n, reason });
        });
      }
      return [];
    };
    if (!hasPlainParameters(fn)) {
      if (isArrowFunctionExpression(fn))
        return opaque('an arrow whose destructuring parameter stays there (no `arguments` to keep state)');
      if (params.some(hasBranchingComputedKey))
        return opaque('a computed key that branches in a destructuring parameter');
    }
    if (keepsParameterStateByArguments(fn) && declaresArguments(fn))
      return opaque('a function that declares `arguments`');
    if (params.some(mayEvalDirectly))
      return opaque('a direct `eval` in the parameter list (in a wrapper its `var`s would land elsewhere)');
    const defaults: t.AssignmentPattern[] = [];
    for (const p of params) visitBindingTarget(p, (n) => isAssignmentPattern(n) && defaults.push(n));
    return defaults;
  }

  /**
   * The parameter list: each decided default a branch, in evaluation order, all of it before the body's
   * first block. Where a destructuring parameter reads values (before each of its targets), the block is
   * marked `bindsParameters`.
   */
  private parameters(fn: t.Function, decided: t.AssignmentPattern[]): void {
    this.parameterDefaultList = decided;
    const reads = !hasPlainParameters(fn);
    for (const param of fn.params) {
      visitBindingTarget(isTSParameterProperty(param) ? param.parameter : param, (n, role) => {
        if (reads) this.g.markBindsParameters(this.cur);
        if (isAssignmentPattern(n)) {
          this.decided.add(n);
          this.g.parameter = n;
          this.defaultDecision(n);
          this.g.parameter = null;
        } else if (role === 'key' || isObjectPattern(n) || isArrayPattern(n)) {
          // A computed key here does not branch (`decidedParameters`); its exception is the caller's.
          this.g.noteCode(this.cur, n, false);
        }
      });
    }
    this.startBlock(EdgeKind.Normal, { type: 'prologue' }, this.root);
  }

  private ifStatement(s: t.IfStatement): void {
    const consequent = this.newJoin();
    const alternate = this.newJoin();
    const after = this.newJoin();
    this.cond(s.test, consequent, s.alternate ? alternate : after, {
      onTrue: { type: 'listStart', owner: s, key: 'consequent' },
      onFalse: { type: 'listStart', owner: s, key: 'alternate' },
    });
    this.land(consequent);
    this.stmt(s.consequent);
    this.edgeTo(after, EdgeKind.Normal, { type: 'listEnd', owner: s, key: 'consequent' }, s);
    if (s.alternate) {
      this.land(alternate);
      this.stmt(s.alternate);
      this.edgeTo(after, EdgeKind.Normal, { type: 'listEnd', owner: s, key: 'alternate' }, s);
    }
    this.land(after);
  }

  /** The loop head: a block of its own, since back edges come to it. */
  private loopHead(site: EdgeSite, node: t.Node): number {
    const head = this.newJoin();
    this.edgeTo(head, EdgeKind.Normal, site, node);
    this.land(head);
    return this.cur;
  }

  private whileStatement(s: t.WhileStatement, labels: readonly string[], outer: t.Statement): void {
    const head = this.loopHead({ type: 'beforeStatement', statement: outer }, s);
    const headJoin = joinAt(head);
    const body = this.newJoin();
    const exit = this.newJoin();
    this.cond(s.test, body, exit, {
      onTrue: { type: 'listStart', owner: s, key: 'body' },
      onFalse: { type: 'test', expression: s.test, outcome: false },
    });
    this.land(body);
    this.loopBody(s.body, labels, exit, headJoin);
    this.edgeTo(headJoin, EdgeKind.LoopBack, { type: 'listEnd', owner: s, key: 'body' }, s);
    this.leave();
    this.land(exit);
  }

  private doWhileStatement(s: t.DoWhileStatement, labels: readonly string[], outer: t.Statement): void {
    const start = this.loopHead({ type: 'beforeStatement', statement: outer }, s);
    const test = this.newJoin();
    const exit = this.newJoin();
    this.loopBody(s.body, labels, exit, test);
    this.edgeTo(test, EdgeKind.Normal, { type: 'listEnd', owner: s, key: 'body' }, s);
    this.land(test);
    this.cond(s.test, joinAt(start), exit);
    this.land(exit);
  }

  private forStatement(s: t.ForStatement, labels: readonly string[]): void {
    if (s.init) {
      if (isVariableDeclaration(s.init)) this.declaration(s.init, null);
      else this.expr(s.init);
    }
    const head = joinAt(this.loopHead({ type: 'forInit', statement: s }, s));
    const body = this.newJoin();
    const exit = this.newJoin();
    if (s.test) {
      this.cond(s.test, body, exit, {
        onTrue: { type: 'listStart', owner: s, key: 'body' },
        onFalse: { type: 'test', expression: s.test, outcome: false },
      });
    } else {
      this.edgeTo(body, EdgeKind.Normal, { type: 'listStart', owner: s, key: 'body' }, s);
    }
    this.land(body);
    const update = s.update ? this.newJoin() : head;
    this.loopBody(s.body, labels, exit, update);
    const bodyEnd: EdgeSite = { type: 'listEnd', owner: s, key: 'body' };
    if (s.update) {
      this.edgeTo(update, EdgeKind.Normal, bodyEnd, s);
      this.land(update);
      this.expr(s.update);
    }
    this.edgeTo(head, EdgeKind.LoopBack, s.update ? { type: 'forUpdate', statement: s } : bodyEnd, s);
    this.leave();
    this.land(exit);
  }

  private forEachStatement(
    s: t.ForInStatement | t.ForOfStatement,
    labels: readonly string[],
    outer: t.Statement,
  ): void {
    this.expr(s.right);
    // The head asks the iterator for the next value and binds it: both can throw, `for await` suspends.
    const head = this.loopHead({ type: 'afterExpression', expression: s.right }, s);
    this.g.noteCode(head, s.left, true);
    if (isForOfStatement(s) && s.await) this.g.markSuspends(head);
    const left = s.left;
    const target = isVariableDeclaration(left) ? left.declarations[0].id : left;
    const defaults = patternDefaults(target, isVariableDeclaration(left), true);
    this.opaqueDefaults.push(...defaults.opaque);
    const body = this.newJoin();
    const exit = this.newJoin();
    const bodyStart: EdgeSite = { type: 'listStart', owner: s, key: 'body' };
    const suspending = defaults.decided.size === 0 ? suspendingTargetStart(target) : null;
    if (suspending) {
      // The iterator steps before the target is evaluated, and the target suspends: `done` is decided first,
      // and the target's code is in blocks of their own, entered before its first expression.
      this.edgeTo(exit, EdgeKind.Done, { type: 'afterStatement', statement: outer }, s);
      this.startBlock(EdgeKind.Next, { type: 'beforeExpression', expression: suspending }, s);
      this.pattern(target);
      this.edgeTo(body, EdgeKind.Normal, bodyStart, s);
    } else if (defaults.decided.size === 0) {
      this.pattern(target);
      this.edgeTo(body, EdgeKind.Next, bodyStart, s);
      this.edgeTo(exit, EdgeKind.Done, { type: 'afterStatement', statement: outer }, s);
    } else {
      // The value is destructured in blocks of its own, entered where its first property is read.
      for (const p of defaults.decided) this.decided.add(p);
      this.edgeTo(exit, EdgeKind.Done, { type: 'afterStatement', statement: outer }, s);
      this.startBlock(EdgeKind.Next, { type: 'propertyStart', property: firstProperty(target)! }, s);
      this.pattern(target);
      this.edgeTo(body, EdgeKind.Normal, bodyStart, s);
    }
    this.iterationExits.push({ statement: s, doneJoin: exit });
    this.leave();
    this.land(body);
    const closing: ClosingLoop | null = isForOfStatement(s)
      ? { loop: s, statement: outer, dispatches: new Map() }
      : null;
    this.loopBody(s.body, labels, exit, joinAt(head), closing);
    this.edgeTo(joinAt(head), EdgeKind.LoopBack, { type: 'listEnd', owner: s, key: 'body' }, s);
    this.leave();
    if (closing) this.dispatchesAfter(closing);
    this.land(exit);
  }

  private loopBody(
    body: t.Statement,
    labels: readonly string[],
    breakJoin: Join,
    continueJoin: Join,
    closes: ClosingLoop | null = null,
  ): void {
    this.contexts.push({ type: 'loop', labels, breakJoin, continueJoin, closes, handler: this.handler });
    this.stmt(body);
    this.contexts.pop();
  }

  private labeled(s: t.LabeledStatement, labels: readonly string[], outer: t.Statement): void {
    const all = [...labels, s.label.name];
    const body = s.body;
    if (isLoop(body)) return this.stmt(body, all, outer);
    const after = this.newJoin();
    this.contexts.push({ type: 'label', labels: all, breakJoin: after, handler: this.handler });
    this.stmt(body);
    this.contexts.pop();
    if (after.pending.length === 0) return;
    this.edgeTo(after, EdgeKind.Normal, { type: 'listEnd', owner: s, key: 'body' }, s);
    this.land(after);
  }

  private switchStatement(s: t.SwitchStatement): void {
    this.expr(s.discriminant);
    const after = this.newJoin();
    const bodies = s.cases.map(() => this.newJoin());
    const defaultIndex = s.cases.findIndex((c) => !c.test);
    const noMatch = defaultIndex >= 0 ? bodies[defaultIndex] : after;
    const tests = s.cases.map((c, i) => ({ c, i })).filter(({ c }) => c.test);
    if (tests.length === 0) {
      this.edgeTo(noMatch, EdgeKind.Default, { type: 'afterExpression', expression: s.discriminant }, s);
      this.leave();
    }
    tests.forEach(({ c, i }, n) => {
      this.expr(c.test!);
      this.code(c);
      this.edgeTo(bodies[i], EdgeKind.CaseMatch, { type: 'caseMatch', switchCase: c }, c);
      const last = n === tests.length - 1;
      const next = last ? noMatch : this.newJoin();
      this.edgeTo(next, last ? EdgeKind.Default : EdgeKind.CaseMiss, { type: 'caseMiss', switchCase: c }, c);
      this.leave();
      if (!last) this.land(next);
    });
    this.contexts.push({ type: 'switch', labels: [], breakJoin: after, handler: this.handler });
    s.cases.forEach((c, i) => {
      this.land(bodies[i]);
      this.statements(c.consequent);
      const last = i === s.cases.length - 1;
      const end: EdgeSite = { type: 'listEnd', owner: c, key: 'consequent' };
      this.edgeTo(last ? after : bodies[i + 1], last ? EdgeKind.Normal : EdgeKind.Fallthrough, end, c);
      this.leave();
    });
    this.contexts.pop();
    this.land(after);
  }

  private tryStatement(s: t.TryStatement): void {
    const outerHandler = this.handler;
    const finallyJoin = s.finalizer ? new Join() : null;
    const region = finallyJoin ? new FinallyBuilder(s, finallyJoin) : null;
    const catchJoin = s.handler ? new Join() : null;
    const after = new Join();
    const leaveProtected = (site: EdgeSite) => {
      if (region) this.jumpToFinally(region, site, s);
      else this.edgeTo(after, EdgeKind.Normal, site, s);
      this.leave();
    };

    if (region) this.contexts.push({ type: 'finally', region });
    this.handler = catchJoin ?? finallyJoin;
    this.startBlock(EdgeKind.Normal, { type: 'listStart', owner: s.block, key: 'body' }, s);
    this.statements(s.block.body);
    leaveProtected({ type: 'listEnd', owner: s.block, key: 'body' });

    if (s.handler && catchJoin) {
      this.handler = finallyJoin ?? outerHandler;
      this.handlers.push({ join: catchJoin, clause: s.handler });
      this.land(catchJoin);
      if (isPattern(s.handler.param)) {
        this.bindingTarget(s.handler.param, true);
        this.closeSilent({ type: 'listStart', owner: s.handler.body, key: 'body' }, s.handler);
      }
      this.statements(s.handler.body.body);
      leaveProtected({ type: 'listEnd', owner: s.handler.body, key: 'body' });
    }
    if (region) this.contexts.pop();
    this.handler = outerHandler;

    if (s.finalizer && finallyJoin && region) {
      if (finallyJoin.pending.some((p) => p.kind === EdgeKind.Exception || p.kind === EdgeKind.Throw)) {
        region.addThrow();
        this.handlers.push({ join: finallyJoin, clause: s });
      }
      this.land(finallyJoin);
      if (this.cur !== UNREACHABLE) {
        this.finallies.push({ statement: s, entryBlock: this.cur, completions: region.completions });
      }
      this.statements(s.finalizer.body);
      this.finallyExit(s, region, after);
    }
    this.land(after);
  }

  /** The normal end of a `try` or `catch` enters the `finally` with completion 0. */
  private jumpToFinally(region: FinallyBuilder, site: EdgeSite, node: t.Node): void {
    if (this.cur === UNREACHABLE) return;
    region.addNormal();
    this.g.edgeTo(this.cur, region.join, EdgeKind.Normal, site, node, {
      entersFinally: { statement: region.statement, completion: 0 },
    });
  }

  /**
   * The end of a `finally` moves to a block of its own with no code, whose out-edges continue each pending
   * completion; a rethrow is that block's exceptional edge. One edge per continuation target: `return` and a
   * generator's `return()` at a `yield` leave the same way.
   */
  private finallyExit(s: t.TryStatement, region: FinallyBuilder, after: Join): void {
    const finalizer = s.finalizer!;
    this.startBlock(EdgeKind.Normal, { type: 'listEnd', owner: finalizer, key: 'body' }, s);
    const exitBlock = this.cur;
    if (exitBlock === UNREACHABLE) return;
    const groups = new Map<string, { request: JumpRequest | null; codes: number[] }>();
    for (const [code, request] of region.continuations) {
      if (code === 1) {
        this.g.markMayThrow(exitBlock);
        continue;
      }
      const key =
        request === null ? 'normal' : request.kind === 'yield-return' ? 'return' : JSON.stringify(request);
      const group = groups.get(key) ?? { request, codes: [] };
      group.codes.push(code);
      groups.set(key, group);
    }
    for (const { request, codes } of groups.values()) {
      this.cur = exitBlock;
      const site: EdgeSite = { type: 'finallyExit', statement: s, completions: codes };
      if (request === null) this.edgeTo(after, EdgeKind.FinallyExit, site, s);
      else {
        const continued: JumpRequest = request.kind === 'yield-return' ? { kind: 'return' } : request;
        this.jump(continued, EdgeKind.FinallyExit, site, s);
      }
    }
    this.cur = exitBlock;
    this.leave();
  }

  private classParts(c: t.Class): void {
    for (const d of c.decorators ?? []) this.expr(d.expression);
    if (c.superClass) this.expr(c.superClass);
    for (const m of c.body.body) {
      if ('decorators' in m) for (const d of m.decorators ?? []) this.expr(d.expression);
      if ('computed' in m && m.computed && 'key' in m && isExpression(m.key)) this.expr(m.key);
    }
    this.g.noteCode(this.cur, c, true);
  }

  // ---------------------------------------------------------------- conditions

  /**
   * Compiles `e` in test position: only its truthiness matters, so `&&`, `||`, `!` and `?:` route their
   * leaves' outcomes straight to `onTrue`/`onFalse`. A single-leaf condition uses `leafSites` (the start of
   * the branch it enters); compound ones put code on each leaf (`test` sites).
   */
  private cond(e: t.Expression, onTrue: Join, onFalse: Join, leafSites?: LeafSites): void {
    this.point(e);
    const x = unwrapTypeScript(e);
    if (isLogicalExpression(x) && x.operator !== '??') {
      const mid = this.newJoin();
      if (x.operator === '&&') this.cond(x.left, mid, onFalse);
      else this.cond(x.left, onTrue, mid);
      this.land(mid);
      this.cond(x.right, onTrue, onFalse);
      return;
    }
    if (isUnaryExpression(x) && x.operator === '!') {
      this.code(x);
      const swapped = leafSites && { onTrue: leafSites.onFalse, onFalse: leafSites.onTrue };
      return this.cond(x.argument, onFalse, onTrue, swapped);
    }
    if (isConditionalExpression(x)) {
      const yes = this.newJoin();
      const no = this.newJoin();
      this.cond(x.test, yes, no);
      this.land(yes);
      this.cond(x.consequent, onTrue, onFalse);
      this.land(no);
      this.cond(x.alternate, onTrue, onFalse);
      return;
    }
    if (isSequenceExpression(x)) {
      x.expressions.slice(0, -1).forEach((y) => this.expr(y));
      return this.cond(x.expressions[x.expressions.length - 1], onTrue, onFalse, leafSites);
    }
    this.expr(x);
    const constant = staticTruthiness(x);
    if (constant !== undefined) {
      // `while (true)`, `if (0)`: the other outcome is impossible, so it gets no edge and no path.
      const [join, kind, site] = constant
        ? ([onTrue, EdgeKind.True, leafSites?.onTrue] as const)
        : ([onFalse, EdgeKind.False, leafSites?.onFalse] as const);
      this.edgeTo(join, kind, site ?? { type: 'test', expression: x, outcome: constant }, x);
      return this.leave();
    }
    this.edgeTo(
      onTrue,
      EdgeKind.True,
      leafSites?.onTrue ?? { type: 'test', expression: x, outcome: true },
      x,
    );
    this.edgeTo(
      onFalse,
      EdgeKind.False,
      leafSites?.onFalse ?? { type: 'test', expression: x, outcome: false },
      x,
    );
    this.leave();
  }

  // ---------------------------------------------------------------- expressions (value position)

  private expr(e: t.Node): void {
    if (this.cur === UNREACHABLE) return;
    this.point(e);
    if (this.straightLine?.has(e) && this.cur !== this.silentBlock) {
      this.g.noteCode(this.cur, e, true);
      return;
    }
    if (isCallExpression(e) && this.splitCalls.has(e)) return this.splitCall(e);
    switch (e.type) {
      case 'LogicalExpression':
        return this.logical(e);
      case 'ConditionalExpression':
        return this.conditional(e);
      case 'AssignmentExpression':
        return this.assignment(e);
      case 'OptionalMemberExpression':
      case 'OptionalCallExpression':
        return this.chain(e);
      case 'YieldExpression':
        return this.yieldExpression(e);
      case 'AwaitExpression':
        if (e.argument) this.expr(e.argument);
        this.code(e);
        this.g.markSuspends(this.cur);
        return;
      case 'ClassExpression':
        return this.classParts(e);
      case 'FunctionExpression':
      case 'ArrowFunctionExpression':
        return;
      case 'ObjectMethod':
        if (e.computed) this.expr(e.key);
        return;
      default: {
        if (isStatement(e)) throw new CfgError(this.filename, e, `unsupported expression ${e.type}`);
        // Indexed loops: a `for…of` not yet optimised allocates an iterator and a result per step.
        const keys = VISITOR_KEYS[e.type] ?? [];
        for (let k = 0; k < keys.length; k++) {
          const key = keys[k];
          if (isTypeKey(key)) continue;
          const child = (e as unknown as Record<string, unknown>)[key];
          if (Array.isArray(child)) {
            for (let i = 0; i < child.length; i++) {
              const c: unknown = child[i];
              if (c && typeof c === 'object' && 'type' in c) this.expr(c as t.Node);
            }
          } else if (child && typeof child === 'object' && 'type' in child) {
            this.expr(child as t.Node);
          }
        }
        this.code(e);
      }
    }
  }

  /**
   * A call that may hand state to its callee: once the callee and the arguments are evaluated, the block
   * ends and a block of its own, the call vertex, makes the call (its exceptional edge is the callee's
   * exception); the return site starts when the callee returns. The edge into the call vertex runs after
   * the last argument (or the callee, for no arguments: `(t = f, code, t)()` keeps `this` undefined), the
   * edge out of it right after the call returns, its value unchanged.
   */
  private splitCall(call: t.CallExpression): void {
    this.expr(call.callee);
    for (const a of call.arguments) this.expr(a);
    if (this.cur === UNREACHABLE) return;
    const last = (call.arguments.at(-1) ?? call.callee) as t.Expression;
    const callVertex = this.g.addBlock(this.handler);
    this.g.addEdge(
      this.cur,
      callVertex,
      EdgeKind.Normal,
      { type: 'afterExpression', expression: last },
      call,
    );
    this.enter(callVertex);
    this.code(call);
    const returnSite = this.g.addBlock(this.handler);
    this.g.addEdge(
      callVertex,
      returnSite,
      EdgeKind.Normal,
      { type: 'afterExpression', expression: call },
      call,
    );
    this.enter(returnSite);
    this.callSites.push({ node: call, call: callVertex, returnSite });
  }

  private logical(e: t.LogicalExpression): void {
    this.expr(e.left);
    this.code(e.left);
    const right = this.newJoin();
    const after = this.newJoin();
    const [toRight, toShort] =
      e.operator === '&&'
        ? [EdgeKind.True, EdgeKind.False]
        : e.operator === '||'
          ? [EdgeKind.False, EdgeKind.True]
          : [EdgeKind.Nullish, EdgeKind.NotNullish];
    this.edgeTo(right, toRight, { type: 'beforeExpression', expression: e.right }, e);
    this.edgeTo(after, toShort, { type: 'logicalShort', expression: e }, e);
    this.leave();
    this.land(right);
    this.expr(e.right);
    this.edgeTo(after, EdgeKind.Normal, { type: 'afterExpression', expression: e.right }, e);
    this.leave();
    this.land(after);
  }

  private conditional(e: t.ConditionalExpression): void {
    const yes = this.newJoin();
    const no = this.newJoin();
    const after = this.newJoin();
    this.cond(e.test, yes, no, {
      onTrue: { type: 'beforeExpression', expression: e.consequent },
      onFalse: { type: 'beforeExpression', expression: e.alternate },
    });
    this.land(yes);
    this.expr(e.consequent);
    this.edgeTo(after, EdgeKind.Normal, { type: 'afterExpression', expression: e.consequent }, e);
    this.leave();
    this.land(no);
    this.expr(e.alternate);
    this.edgeTo(after, EdgeKind.Normal, { type: 'afterExpression', expression: e.alternate }, e);
    this.leave();
    this.land(after);
  }

  private assignment(e: t.AssignmentExpression): void {
    const left = e.left;
    if (isPattern(left) && !isAssignmentPattern(left)) {
      // Destructuring assignment: the value first, then the targets, left to right.
      this.expr(e.right);
      this.bindingTarget(left, false);
      this.code(e);
      return;
    }
    if (isMemberExpression(left) || isOptionalMemberExpression(left)) {
      this.expr(left.object);
      if (left.computed) this.expr(left.property);
    }
    if (e.operator !== '&&=' && e.operator !== '||=' && e.operator !== '??=') {
      this.expr(e.right);
      this.code(e);
      return;
    }
    // The current value is read, then `right` is evaluated and assigned only if the operator asks for it.
    this.code(e);
    const right = this.newJoin();
    const after = this.newJoin();
    const [toRight, toShort] =
      e.operator === '&&='
        ? [EdgeKind.True, EdgeKind.False]
        : e.operator === '||='
          ? [EdgeKind.False, EdgeKind.True]
          : [EdgeKind.Nullish, EdgeKind.NotNullish];
    this.edgeTo(right, toRight, { type: 'assignRight', expression: e }, e);
    this.edgeTo(after, toShort, { type: 'assignShort', expression: e }, e);
    this.leave();
    this.land(right);
    this.expr(e.right);
    this.code(e);
    this.edgeTo(after, EdgeKind.Normal, { type: 'assignDone', expression: e }, e);
    this.leave();
    this.land(after);
  }

  /**
   * An optional chain: each `?.` link tests its base; `null`/`undefined` skips the whole rest of the chain,
   * so every short-circuit edge goes to the code after the chain.
   */
  private chain(top: t.OptionalMemberExpression | t.OptionalCallExpression): void {
    const after = this.newJoin();
    this.chainPart(top, after);
    this.edgeTo(after, EdgeKind.Normal, { type: 'chainEnd', chain: top }, top);
    this.leave();
    this.land(after);
  }

  private chainPart(node: t.Node, after: Join): void {
    const inner = isTSNonNullExpression(node) ? node.expression : node;
    if (isOptionalMemberExpression(inner)) {
      this.chainPart(inner.object, after);
      if (inner.optional) this.optionalLink(inner, after);
      if (inner.computed) this.expr(inner.property);
      this.code(inner);
    } else if (isOptionalCallExpression(inner)) {
      this.chainPart(inner.callee, after);
      if (inner.optional) this.optionalLink(inner, after);
      for (const a of inner.arguments) this.expr(a);
      this.code(inner);
    } else {
      this.expr(inner);
    }
  }

  private optionalLink(link: t.OptionalMemberExpression | t.OptionalCallExpression, after: Join): void {
    const go = this.newJoin();
    this.edgeTo(after, EdgeKind.Nullish, { type: 'optionalShort', link }, link);
    this.edgeTo(go, EdgeKind.NotNullish, { type: 'optionalGo', link }, link);
    this.leave();
    this.land(go);
  }

  private yieldExpression(e: t.YieldExpression): void {
    if (e.argument) this.expr(e.argument);
    this.code(e);
    this.g.markSuspends(this.cur);
    // An async function's await, compiled: resumed by next() or throw(), never closed by return().
    if (this.yieldsAreAwaits) return;
    const resume = this.newJoin();
    this.edgeTo(resume, EdgeKind.Resume, { type: 'resume', expression: e }, e);
    this.jump({ kind: 'yield-return', yieldNode: e }, EdgeKind.YieldReturn, null, e);
    this.land(resume);
  }

  // ---------------------------------------------------------------- binding patterns

  /**
   * Binding and assignment targets, in evaluation order. A default `bindingTarget` found decidable is a
   * branch (`defaultDecision`); any other default is evaluated inside the current block (`opaqueDefault`).
   */
  private pattern(p: t.Node): void {
    switch (p.type) {
      case 'ObjectPattern':
        // Destructuring `null` or `undefined` throws before any property is read.
        this.code(p);
        for (const prop of p.properties) {
          if (isRestElement(prop)) {
            // Only a declarator's own pattern can leave a silent block here (patternDefaults).
            this.closeSilent({ type: 'restStart', pattern: p }, prop);
            this.code(prop);
            this.pattern(prop.argument);
            continue;
          }
          this.closeSilent({ type: 'propertyStart', property: prop }, prop);
          if (prop.computed) this.expr(prop.key);
          this.code(prop);
          if (isAssignmentPattern(prop.value) && this.decided.has(prop.value)) {
            this.defaultDecision(prop.value);
          } else this.pattern(prop.value);
        }
        return;
      case 'ArrayPattern':
        if (p.elements.some((el) => el && this.hasDecidedDefault(el))) return this.wrappedArray(p);
        for (const el of p.elements) if (el) this.pattern(el);
        this.code(p);
        return;
      case 'RestElement':
        return this.pattern(p.argument);
      case 'AssignmentPattern':
        this.pattern(p.left);
        this.opaqueDefault(p.right);
        return;
      case 'MemberExpression':
        this.expr(p.object);
        if (p.computed) this.expr(p.property);
        this.code(p);
        return;
      case 'TSParameterProperty':
        return this.pattern(p.parameter);
      default:
        if (isTSAsExpression(p) || isTSSatisfiesExpression(p) || isTSNonNullExpression(p)) {
          return this.pattern(p.expression);
        }
        // Identifiers and anything else a target can be: writing it can throw (TDZ, `const`).
        this.code(p);
    }
  }

  /**
   * `{ a = D }` where the value read for `a` decides: `undefined` evaluates D (an edge with sites around D),
   * anything else skips it by a silent edge. The block both reach only binds the name, which cannot throw,
   * and is left at the next property's key or after the whole target (`closeSilent`).
   */
  private defaultDecision(p: t.AssignmentPattern): void {
    const value = this.newJoin();
    const after = this.newJoin();
    this.edgeTo(value, EdgeKind.DefaultValue, { type: 'defaultValue', pattern: p, part: 'start' }, p);
    this.edgeTo(after, EdgeKind.ValuePresent, null, p);
    this.leave();
    this.land(value);
    this.expr(p.right);
    this.edgeTo(after, EdgeKind.Normal, { type: 'defaultValue', pattern: p, part: 'end' }, p);
    this.leave();
    this.land(after);
    this.g.noteCode(this.cur, p.left, false);
    this.silentBlock = this.cur;
  }

  /** Whether a decided default is in this target (patternDefaults decides all of a wrapped array's). */
  private hasDecidedDefault(target: t.Node): boolean {
    let found = false;
    visitBindingTarget(target, (n) => {
      if (isAssignmentPattern(n) && this.decided.has(n)) found = true;
    });
    return found;
  }

  /**
   * An array pattern whose value is wrapped (array-destructuring.ts): getting the iterator, each element's
   * step and closing the iterator can all throw, and each step and the closing have a place for code before
   * them, where a default's silent edge is left; so does an element's own object pattern.
   */
  private wrappedArray(p: t.ArrayPattern): void {
    this.code(p);
    p.elements.forEach((el, index) => {
      this.closeSilent({ type: 'elementStart', pattern: p, index }, el ?? p);
      this.code(p);
      const target = isAssignmentPattern(el) ? el.left : el;
      if (isAssignmentPattern(el)) this.defaultDecision(el);
      if (isObjectPattern(target)) {
        this.closeSilent({ type: 'elementPattern', pattern: p, index }, target);
        this.pattern(target);
      } else if (el && !isAssignmentPattern(el)) this.pattern(el);
    });
    this.closeSilent({ type: 'elementStart', pattern: p, index: p.elements.length }, p);
    this.code(p);
  }

  /**
   * A default value runs inside the current block. A `yield` in it does not end the block (nothing can run
   * on its resumption), but `return()` there still leaves the function: an edge from the middle of the
   * block, like an exception, whose code the generator's `finally` runs.
   */
  private opaqueDefault(value: t.Expression): void {
    this.g.noteCode(this.cur, value, true);
    traverseFast(value, (n) => {
      if ((isYieldExpression(n) || isAwaitExpression(n)) && !insideFunction(value, n)) {
        this.g.markSuspends(this.cur);
        if (isYieldExpression(n)) {
          this.jump({ kind: 'yield-return', yieldNode: n }, EdgeKind.YieldReturn, null, n, true);
        }
      }
    });
  }
}

function matches(request: JumpRequest, c: JumpContext): boolean {
  if (c.type === 'finally') return false;
  if (request.kind === 'break') {
    return request.label ? c.labels.includes(request.label) : c.type === 'loop' || c.type === 'switch';
  }
  if (request.kind === 'continue')
    return c.type === 'loop' && (!request.label || c.labels.includes(request.label));
  return false;
}

/** A join whose block already exists: a loop head that back edges return to. */
function joinAt(block: number): Join {
  const j = new Join();
  j.block = block;
  return j;
}

function insideFunction(root: t.Node, target: t.Node): boolean {
  let inside = false;
  const visit = (n: t.Node, inFn: boolean): void => {
    if (n === target) inside = inFn;
    for (const key of VISITOR_KEYS[n.type] ?? []) {
      const child = (n as unknown as Record<string, unknown>)[key];
      const list = Array.isArray(child) ? child : [child];
      for (const c of list) {
        if (c && typeof c === 'object' && 'type' in c) visit(c as t.Node, inFn || isFunction(n));
      }
    }
  };
  visit(root, false);
  return inside;
}
