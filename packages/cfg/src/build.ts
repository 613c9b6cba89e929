import * as t from '@babel/types';
import { parse, type ParserPlugin } from '@babel/parser';
import { CfgBuilder } from './cfg-builder';
import { findCfgRoots, type CfgRoot } from './cfg-roots';
import type { ControlFlowGraph } from './control-flow-graph';
import { freshNamesFor, type FreshName } from './fresh-names';
import { lowerPatternParameters } from './lower-pattern-parameters';
import { lowerPatternTargets } from './lower-pattern-targets';

/** The graph of one function-like (see `findCfgRoots` for what qualifies). */
export function buildCfg(root: CfgRoot, filename: string): ControlFlowGraph {
  return new CfgBuilder(root.node, root.kind, root.name, filename).build();
}

/** The graphs of every function-like in a program, in source order, the program's own first. */
export function buildFileCfgs(program: t.Program, filename: string): ControlFlowGraph[] {
  return findCfgRoots(program).map((root) => buildCfg(root, filename));
}

/**
 * The rewrites that let more defaults be path decisions, on one graph root before its graph is built:
 * destructuring parameters move into the body (lower-pattern-parameters.ts), then declarations split where a
 * default's target is a pattern (lower-pattern-targets.ts). Each rewrites the root's own code only.
 */
export function lowerForDecisions(root: t.Node, fresh: FreshName): void {
  if (t.isFunction(root)) lowerPatternParameters(root, fresh);
  lowerPatternTargets(root, fresh);
}

/**
 * The graphs an instrumenter works on: every root lowered (`lowerForDecisions`, which rewrites `program`),
 * in the order of the source as written (a split declaration can reorder the functions inside it).
 */
export function buildInstrumentedCfgs(
  program: t.Program,
  filename: string,
  fresh: FreshName = freshNamesFor(program),
): ControlFlowGraph[] {
  const roots = findCfgRoots(program);
  for (const root of roots) lowerForDecisions(root.node, fresh);
  return roots.map((root) => buildCfg(root, filename));
}

/** Parses a file the way pathprof reads sources: TypeScript for .ts/.tsx/.mts/.cts, JSX for .jsx/.tsx/.js. */
export function parseSource(code: string, filename: string): t.File {
  const plugins: ParserPlugin[] = [];
  if (/\.[cm]?tsx?$/.test(filename)) plugins.push('typescript');
  if (/\.(tsx|jsx|js|mjs|cjs)$/.test(filename)) plugins.push('jsx');
  return parse(code, {
    sourceType: 'unambiguous',
    sourceFilename: filename,
    plugins,
    allowReturnOutsideFunction: false,
  });
}
