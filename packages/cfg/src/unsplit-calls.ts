import type * as t from '@babel/types';
import type { RefusedHandOff } from './build';
import type { ControlFlowGraph } from './control-flow-graph';
import type { RefusalReason } from './call-targets';

/**
 * Why a call is not split into a call vertex: its callee is not known statically (`unknown`: a method, a
 * callback, a function of another file, a `new`), or it is known but takes no hand-off (`RefusalReason`).
 */
export type UnsplitReason = 'unknown' | RefusalReason;

/** The reasons in the order their codes number them (a record's `how` is `2 * code + afterThrowable`). */
const REASONS: readonly UnsplitReason[] = ['unknown', 'async', 'generator', 'spread', 'parameters'];

/** Integers per call in `unsplitCallRecords`. */
export const UNSPLIT_CALL_STRIDE = 7;

/** A call a graph makes without a call vertex of its own, as read back from `unsplitCallRecords`. */
export interface UnsplitCall {
  /** The block that makes it (see `CfgCall`). */
  readonly block: number;
  /** Where the call starts (1-based line, 0-based column). */
  readonly line: number;
  readonly column: number;
  /**
   * Where its callee ends (`obj.parse` of `obj.parse(x)`, `new Date` of `new Date()`, `html` of a tagged
   * template): its arguments follow.
   */
  readonly endLine: number;
  readonly endColumn: number;
  /** The callee's index among the file's graphs, or -1 when not known statically. */
  readonly callee: number;
  readonly why: UnsplitReason;
  /** Code of the block before the call may throw (`CfgCall.afterThrowable`). */
  readonly afterThrowable: boolean;
}

/**
 * A graph's calls that are not split (neither crossed nor cut: each starts its callee's paths afresh, or
 * calls code that is not instrumented here), packed as the metadata stores them: per call, in the order the
 * graph's blocks make them, `block, line, column, endLine, endColumn, callee, how`. `refused`: the file's
 * calls of statically known callees that take no hand-off (`refusedHandOffs`); every other call that is not
 * split has no static callee.
 */
export function unsplitCallRecords(graph: ControlFlowGraph, refused: readonly RefusedHandOff[]): number[] {
  const split = new Set<t.Node>(graph.callSites.map((site) => site.node));
  const refusal = new Map<t.Node, RefusedHandOff>(refused.map((r) => [r.call, r]));
  const records: number[] = [];
  for (const { node, block, afterThrowable } of graph.calls) {
    if (split.has(node) || !node.loc) continue;
    const end = (node.type === 'TaggedTemplateExpression' ? node.tag : node.callee).loc?.end;
    const r = refusal.get(node);
    const { start } = node.loc;
    records.push(
      block,
      start.line,
      start.column,
      end?.line ?? start.line,
      end?.column ?? start.column,
      r ? r.callee : -1,
      2 * REASONS.indexOf(r ? r.why : 'unknown') + (afterThrowable ? 1 : 0),
    );
  }
  return records;
}

/** `unsplitCallRecords` read back. */
export function readUnsplitCalls(records: readonly number[]): UnsplitCall[] {
  const calls: UnsplitCall[] = [];
  for (let i = 0; i + UNSPLIT_CALL_STRIDE <= records.length; i += UNSPLIT_CALL_STRIDE) {
    const how = records[i + 6];
    calls.push({
      block: records[i],
      line: records[i + 1],
      column: records[i + 2],
      endLine: records[i + 3],
      endColumn: records[i + 4],
      callee: records[i + 5],
      why: REASONS[how >> 1] ?? 'unknown',
      afterThrowable: (how & 1) === 1,
    });
  }
  return calls;
}
