import type * as t from '@babel/types';
import type { FlowGraph } from '@pathprof/numbering';
import type { EdgeKind } from './edge-kind';
import type { EdgeSite } from './edge-site';
import type { OpaqueDefault } from './pattern-defaults';

/** The kinds of code that get their own graph. */
export type CfgRootKind = 'function' | 'program' | 'class-field' | 'static-block' | 'namespace';

/** A source position: 1-based line, 0-based column, as Babel reports them. */
export interface Position {
  readonly line: number;
  readonly column: number;
}

export interface SourceRange {
  readonly start: Position;
  readonly end: Position;
}

export interface BlockInfo {
  /** Source extent of the code that runs in the block, or null for a block with no code (ENTRY, EXIT, joins). */
  readonly range: SourceRange | null;
  /** Some code in the block can throw, so it has an exceptional out-edge. */
  readonly mayThrow: boolean;
  /** The block contains `await` or `yield`: an activation can stay suspended in it forever. */
  readonly suspends: boolean;
  /**
   * The block binds destructuring parameters, whose reads (getters, iterators) can throw. Such an exception
   * is the caller's: the activation records nothing and stays unfinished here.
   */
  readonly bindsParameters: boolean;
}

/** Why a `finally` block was entered, and so where it goes when it ends. */
export interface Completion {
  /** The value the instrumenter stores in the `try`'s completion local; 0 normal, 1 throw, 2 return, then jumps. */
  readonly code: number;
  readonly kind: 'normal' | 'throw' | 'return' | 'break' | 'continue' | 'yield-return';
  readonly label?: string;
}

export interface FinallyRegion {
  readonly statement: t.TryStatement;
  /** The block that starts the `finally`. */
  readonly entryBlock: number;
  readonly completions: readonly Completion[];
}

export interface EdgeInfo {
  readonly kind: EdgeKind;
  /** Where code for this edge goes; null for exceptional edges. */
  readonly site: EdgeSite | null;
  /** The construct that owns the edge (the `if`, the `&&`, the `break`, …), for source ranges and labels. */
  readonly node: t.Node;
  /** The edge enters a `finally` block with this completion: the instrumenter records it in the completion local. */
  readonly entersFinally?: { readonly statement: t.TryStatement; readonly completion: number };
  /**
   * The edge runs while the parameters are bound, in this default (a path decision): its code runs before
   * the body exists, inside a wrapper the instrumenter builds around the default's value.
   */
  readonly inParameter?: t.AssignmentPattern;
}

/** A `for…in`/`for…of` loop: its `done` edge has no code position inside the loop, so it is told apart after it. */
export interface IterationExit {
  readonly statement: t.ForInStatement | t.ForOfStatement;
  readonly doneEdge: number;
  readonly afterBlock: number;
}

/**
 * A `return`, or a `break`/`continue` to a target outside it, leaves a `for…of` by closing the loop's iterator
 * after the jump's own code ran. The iterator's `return()` can throw there: a path the jump's code counted as
 * ended would go on to the handler. So such a jump first goes to a dispatch right after the loop, reached
 * once the iterator is closed, whose block throws on entry and which re-issues the jump. The instrumenter
 * turns the jump into a `break` to a label around the loop, with the dispatch after that label's block
 * (iterator-close-dispatch.ts); a `return` saves its value first.
 */
export interface CloseDispatch {
  /** The loop's statement (its outermost label if it has one): what the instrumenter wraps. */
  readonly statement: t.Statement;
  readonly loop: t.ForOfStatement;
  /** What the dispatch re-issues: `return` of the saved value, or `break`/`continue` to a label. */
  readonly jump:
    { readonly kind: 'return' } | { readonly kind: 'break' | 'continue'; readonly label: string };
  /** The dispatch the re-issued jump goes to first, when it leaves another `for…of` on its way. */
  readonly next: number | null;
}

/** Where an exception lands inside the function: a `catch` or a `finally` entered by an exception. */
export interface HandlerEntry {
  readonly block: number;
  readonly clause: t.CatchClause | t.TryStatement;
}

/**
 * A call split for interprocedural numbering: the block `call` holds nothing but the call (its exceptional
 * edge is an exception out of the callee), and its one normal edge enters `returnSite` when the callee
 * returns. Only the calls a builder is asked to split have one.
 */
export interface CfgCallSite {
  readonly node: t.CallExpression;
  readonly call: number;
  readonly returnSite: number;
}

/**
 * A call, optional call, `new` or tagged template of the graph's own code, in the block that makes it (after
 * its callee and arguments are evaluated). `afterThrowable`: code of the block before it may throw, so a path that leaves the
 * block by an exception may not have made it; otherwise that path made it (and the call perhaps threw).
 */
export interface CfgCall {
  readonly node: t.CallExpression | t.OptionalCallExpression | t.NewExpression | t.TaggedTemplateExpression;
  readonly block: number;
  readonly afterThrowable: boolean;
}

/**
 * One control-flow graph: a function, the program top level, a class field initializer, a static block or a
 * namespace body. Plain data: integer ids, typed arrays for the structure, one info record per block and edge.
 * ENTRY is block 0 and EXIT block 1; ENTRY runs no code and has exactly one out-edge.
 */
export interface ControlFlowGraph extends FlowGraph {
  readonly kind: CfgRootKind;
  /** The function, program, class property, static block or namespace the graph describes. */
  readonly node: t.Node;
  /** A human name: the function's name or what it is assigned to, `<program>`, `C.field`, … */
  readonly name: string;
  readonly range: SourceRange | null;
  readonly edgeKind: Uint8Array;
  /** 1 for silent edges (isSilentKind): no site, no code. */
  readonly edgeSilent: Uint8Array;
  readonly blocks: readonly BlockInfo[];
  readonly edges: readonly EdgeInfo[];
  readonly finallies: readonly FinallyRegion[];
  readonly iterationExits: readonly IterationExit[];
  readonly handlers: readonly HandlerEntry[];
  readonly closeDispatches: readonly CloseDispatch[];
  /** The `break`, `continue` and `return` statements that go to a dispatch: its index in `closeDispatches`. */
  readonly closingJumps: ReadonlyMap<t.Node, number>;
  /**
   * The `return` statements of a derived constructor that read `this` before their code when they return
   * `undefined`: those outside any `try`, and those that go to a dispatch. V8 throws where such a return stands
   * when `super()` has not been called (inside the body, so after the return's code: a path counted twice);
   * reading `this` throws the same error first, and the return's block has the exceptional edge. A return
   * made a `break` no longer stands there, so it is checked wherever it is, as V8 would have.
   */
  readonly thisChecks: ReadonlySet<t.ReturnStatement>;
  /** The function is a generator: `yield` sites may end it through `return()`. */
  readonly isGenerator: boolean;
  /**
   * Parameter defaults that are path decisions (`ParamsEntry` leads into them). Their edges' code runs
   * before the body: the activation's state reaches the body through a file-level handoff variable.
   */
  readonly parameterDefaults: readonly t.AssignmentPattern[];
  /** Default values that are not path decisions (see pattern-defaults.ts), with why. */
  readonly opaqueDefaults: readonly OpaqueDefault[];
  /** The split calls (`buildCfg`'s `splitCalls`), in the order they run. */
  readonly callSites: readonly CfgCallSite[];
  /** Every call the graph makes (split ones too), in the order they run within each block. */
  readonly calls: readonly CfgCall[];
  /** The program's nodes whose own evaluation cannot throw (`nonThrowingCode`), shared by its graphs. */
  readonly nonThrowing: ReadonlySet<t.Node>;
}
