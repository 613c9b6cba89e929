import * as t from '@babel/types';
import { parse, type ParserOptions, type ParserPlugin } from '@babel/parser';
import { CfgBuilder, type CfgBuildOptions } from './cfg-builder';
import type { CfgRoot } from './cfg-roots';
import { findCfgRoots, scanProgram } from './program-scan';
import type { ControlFlowGraph } from './control-flow-graph';
import { freshNamesAvoiding, type FreshName } from './fresh-names';
import { lowerPatternParameters } from './lower-pattern-parameters';
import { lowerDeclarations, lowerPatternTargets } from './lower-pattern-targets';
import traverseModule, { type NodePath } from '@babel/traverse';
import { acceptsHandOff, type CallTargets, type RefusalReason } from './call-targets';
import type { ProgramPoints } from './program-point';
import { visitOwnCode } from './own-code';
import { nonThrowingCode } from './non-throwing-code';

// Read once: @babel/types' exports are getters, which V8 does not inline on these hot paths.
const { isCallExpression, isFunction } = t;

// @babel/traverse is CommonJS with a `default` export; under Node's ESM interop it may be nested.
const traverse = (traverseModule as unknown as { default?: typeof traverseModule }).default ?? traverseModule;

/**
 * The graph of one function-like (see `findCfgRoots` for what qualifies). `nonThrowing` is
 * `nonThrowingCode` of the program as it is now (after any lowering). `options.splitCalls` names calls to
 * give a call vertex and a return site of their own (interprocedural numbering); a call evaluated while the
 * parameters are bound is never split. With `options.points`, the program point of each of its statements
 * and expressions is recorded there.
 */
export function buildCfg(
  root: CfgRoot,
  filename: string,
  nonThrowing: ReadonlySet<t.Node>,
  options?: CfgBuildOptions,
): ControlFlowGraph {
  return new CfgBuilder(root, filename, nonThrowing, options).build();
}

/** The graphs of every function-like in a program, in source order, the program's own first. */
export function buildFileCfgs(program: t.Program, filename: string): ControlFlowGraph[] {
  const nonThrowing = nonThrowingCode(program);
  return findCfgRoots(program).map((root) => buildCfg(root, filename, nonThrowing));
}

/**
 * The rewrites that let more defaults be path decisions, on one graph root before its graph is built:
 * destructuring parameters move into the body (lower-pattern-parameters.ts), then declarations split where a
 * default's target is a pattern (lower-pattern-targets.ts). Each rewrites the root's own code only.
 * `declarations`: the root's that can split, found beforehand (`scanProgram`), so that the root's code is not
 * walked again (unless its parameters moved, which adds a declaration).
 */
export function lowerForDecisions(
  root: t.Node,
  fresh: FreshName,
  declarations?: readonly t.VariableDeclaration[],
): void {
  const moved = isFunction(root) && lowerPatternParameters(root, fresh);
  if (declarations && !moved) lowerDeclarations(declarations, fresh);
  else lowerPatternTargets(root, fresh);
}

/**
 * The graphs an instrumenter works on: every root lowered (`lowerForDecisions`, which rewrites `program`),
 * in the order of the source as written (a split declaration can reorder the functions inside it). With
 * `targets`, the calls that can hand state to their callee are split (`splitCallsFor`); with `points`, every
 * graph's program points (see `buildCfg`).
 */
export function buildInstrumentedCfgs(
  program: t.Program,
  filename: string,
  fresh?: FreshName,
  targets?: CallTargets,
  points?: ProgramPoints,
): ControlFlowGraph[] {
  // One walk finds the roots, the declarations lowering splits and the names fresh ones must avoid.
  const { roots, declarations, names } = scanProgram(program);
  const hidden = fresh ?? freshNamesAvoiding(names);
  for (const root of roots) lowerForDecisions(root.node, hidden, declarations.get(root.node) ?? []);
  const split = targets ? splitCallsFor(targets, roots) : undefined;
  const nonThrowing = nonThrowingCode(program);
  return roots.map((root) => buildCfg(root, filename, nonThrowing, { splitCalls: split, points }));
}

/**
 * The calls to split among graphs built from `roots` (after lowering): those whose callee is one of the
 * roots and accepts a hand-off.
 */
export function splitCallsFor(targets: CallTargets, roots: readonly CfgRoot[]): ReadonlySet<t.Node> {
  const functions = new Set(roots.map((root) => root.node));
  const split = new Set<t.Node>();
  for (const [call, fn] of targets.calleeOf) if (functions.has(fn) && acceptsHandOff(fn)) split.add(call);
  return split;
}

/**
 * The functions that start only through split calls: never escaping, every call of theirs split in one of
 * `graphs`, and called at least once. Every other function can start without a hand-off (a root).
 */
export function enteredOnlyBySplitCalls(
  targets: CallTargets,
  graphs: readonly ControlFlowGraph[],
): Set<t.Node> {
  return enteredOnlyThrough(targets, new Set(graphs.flatMap((g) => g.callSites.map((site) => site.node))));
}

/**
 * A call of a graph that hands state to its callee (another of the graphs) without being split: its site in
 * the caller, the callee's index among the graphs.
 */
export interface HandOffCall {
  readonly call: t.CallExpression;
  readonly callee: number;
}

/**
 * Per graph, in source order, its calls whose callee is statically one of `graphs` and accepts a hand-off
 * (what `splitCallsFor` would split), for instrumenters that hand state over without splitting the graphs.
 */
export function handOffCalls(targets: CallTargets, graphs: readonly ControlFlowGraph[]): HandOffCall[][] {
  const index = new Map<t.Node, number>(graphs.map((g, i) => [g.node, i]));
  return graphs.map((g) => {
    const calls: HandOffCall[] = [];
    visitOwnCode(g.node, (node) => {
      if (!isCallExpression(node)) return;
      const fn = targets.calleeOf.get(node);
      const callee = fn && index.get(fn);
      if (fn && callee !== undefined && acceptsHandOff(fn)) calls.push({ call: node, callee });
    });
    return calls;
  });
}

/**
 * A call of one of `graphs` whose callee is known statically but hands it nothing (neither crossed nor cut:
 * the callee starts its own paths): the caller's and the callee's indexes among the graphs, and why.
 */
export interface RefusedHandOff {
  readonly call: t.CallExpression;
  readonly caller: number;
  readonly callee: number;
  readonly why: RefusalReason;
}

/**
 * The calls of `graphs`, in each graph's source order, whose callee is one of them and known statically but
 * cannot take a hand-off: it resumes later (async, generator), the call spreads its arguments, or the
 * callee's parameters run code before its body (`acceptsHandOff`), what users ask about when a call they
 * expected to be crossed is not.
 */
export function refusedHandOffs(targets: CallTargets, graphs: readonly ControlFlowGraph[]): RefusedHandOff[] {
  const index = new Map<t.Node, number>(graphs.map((g, i) => [g.node, i]));
  const refused: RefusedHandOff[] = [];
  graphs.forEach((g, caller) => {
    visitOwnCode(g.node, (node) => {
      if (!isCallExpression(node)) return;
      // A call is in at most one of the two maps.
      let refusal = targets.refusedCalls.get(node);
      const fn = targets.calleeOf.get(node);
      if (fn && !acceptsHandOff(fn)) refusal = { fn, why: 'parameters' };
      const callee = refusal && index.get(refusal.fn);
      if (refusal && callee !== undefined) refused.push({ call: node, caller, callee, why: refusal.why });
    });
  });
  return refused;
}

/** The functions that start only through `calls`: never escaping, every call of theirs among `calls`. */
export function enteredOnlyThrough(targets: CallTargets, split: ReadonlySet<t.Node>): Set<t.Node> {
  const only = new Set<t.Node>();
  const refused = new Set<t.Node>(targets.escaping);
  for (const [call, fn] of targets.calleeOf) {
    if (split.has(call)) only.add(fn);
    else refused.add(fn);
  }
  for (const fn of refused) only.delete(fn);
  return only;
}

/** The program's path, which scope analysis needs, for an AST parsed on its own. */
export function programPathOf(file: t.File): NodePath<t.Program> {
  let found: NodePath<t.Program> | null = null;
  traverse(file, {
    Program(path) {
      found = path;
      path.stop();
    },
  });
  if (!found) throw new Error('internal error: no program');
  return found;
}

/**
 * Parses a file the way pathprof reads sources: TypeScript for .ts/.tsx/.mts/.cts, JSX for .jsx/.tsx/.js;
 * `extra` adds parser options (the report's syntax highlighting asks for `tokens`).
 */
export function parseSource(code: string, filename: string, extra: ParserOptions = {}): t.File {
  const plugins: ParserPlugin[] = [];
  if (/\.[cm]?tsx?$/.test(filename)) plugins.push('typescript');
  if (/\.(tsx|jsx|js|mjs|cjs)$/.test(filename)) plugins.push('jsx');
  return parse(code, {
    sourceType: 'unambiguous',
    sourceFilename: filename,
    plugins,
    allowReturnOutsideFunction: false,
    ...extra,
  });
}
