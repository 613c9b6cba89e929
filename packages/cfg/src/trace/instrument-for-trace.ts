import * as t from '@babel/types';
import traverseModule, { type NodePath } from '@babel/traverse';
import generateModule from '@babel/generator';
import { buildFileCfgs, parseSource } from '../build';
import type { ControlFlowGraph } from '../control-flow-graph';
import { insertEdgeCode } from '../insert-edge-code';
import { TracePlan } from './trace-plan';

// Babel's packages are CommonJS with a `default` export; under Node's ESM interop it may be nested.
const traverse = (traverseModule as unknown as { default?: typeof traverseModule }).default ?? traverseModule;
const generate = (generateModule as unknown as { default?: typeof generateModule }).default ?? generateModule;

export interface TracedSource {
  readonly code: string;
  /** The graphs, indexed as the traced code reports them. */
  readonly graphs: readonly ControlFlowGraph[];
}

/** Instruments a source file in `trace` mode: the oracle's view of which edges ran. */
export function instrumentForTrace(source: string, filename: string): TracedSource {
  const ast = parseSource(source, filename);
  const graphs = buildFileCfgs(ast.program, filename);
  let programPath: NodePath<t.Program> | null = null;
  traverse(ast, {
    Program(path) {
      programPath = path;
      path.stop();
    },
  });
  const scope = (programPath as NodePath<t.Program> | null)!.scope;
  insertEdgeCode(ast.program, scope, graphs, new TracePlan(graphs));
  return { code: generate(ast, { retainLines: false }).code, graphs };
}
