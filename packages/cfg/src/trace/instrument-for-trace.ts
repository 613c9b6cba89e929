import generateModule from '@babel/generator';
import { buildInstrumentedCfgs, parseSource, programPathOf } from '../build';
import { findCallTargets } from '../call-targets';
import type { ControlFlowGraph } from '../control-flow-graph';
import { insertEdgeCode } from '../insert-edge-code';
import { freshNamesFor } from '../fresh-names';
import { TracePlan } from './trace-plan';

// @babel/generator is CommonJS with a `default` export; under Node's ESM interop it may be nested.
const generate = (generateModule as unknown as { default?: typeof generateModule }).default ?? generateModule;

export interface TracedSource {
  readonly code: string;
  /** The graphs, indexed as the traced code reports them. */
  readonly graphs: readonly ControlFlowGraph[];
  /** The file has calls interprocedural mode splits (a callee that is a function of the file). */
  readonly hasCallsToSplit: boolean;
}

/**
 * Instruments a source file in `trace` mode: the oracle's view of which edges ran. With `splitCalls`, the
 * graphs split the calls interprocedural mode splits, so the edges into call vertices show each call.
 */
export function instrumentForTrace(
  source: string,
  filename: string,
  options: { splitCalls?: boolean } = {},
): TracedSource {
  const ast = parseSource(source, filename);
  const fresh = freshNamesFor(ast);
  const targets = findCallTargets(programPathOf(ast));
  const graphs = buildInstrumentedCfgs(
    ast.program,
    filename,
    fresh,
    options.splitCalls ? targets : undefined,
  );
  insertEdgeCode(ast.program, fresh, graphs, new TracePlan(graphs));
  // Run, never read: printed compact, without the indentation of deeply nested programs (a tenth of a transform).
  return { code: generate(ast, { compact: true }).code, graphs, hasCallsToSplit: targets.calleeOf.size > 0 };
}
