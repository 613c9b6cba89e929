import { EdgeKind } from '@pathprof/cfg';
import { edgeDecision, type Decision } from './decisions';
import type { FunctionCounts } from './istanbul/graph-counts';
import type { SourceText } from './source-text';

/** Decisions a test chooses between; a loop's and an exception's edges are left to the paths. */
const BRANCHES: ReadonlySet<EdgeKind> = new Set([
  EdgeKind.True,
  EdgeKind.False,
  EdgeKind.Nullish,
  EdgeKind.NotNullish,
  EdgeKind.CaseMatch,
  EdgeKind.CaseMiss,
  EdgeKind.Default,
  EdgeKind.DefaultValue,
  EdgeKind.ValuePresent,
]);

/** A branch decision of a function that no run took: its edge, and whether a run reached its block. */
export interface UntakenDecision {
  readonly edge: number;
  readonly decision: Decision;
  readonly reached: boolean;
}

/**
 * The branch decisions of one counted function that no run took, in edge order, each with a line in the source
 * (istanbul's partial branches, in pathprof's words: `coupon → false`). Exact in any mode: the edge counts are.
 */
export function untakenDecisions(
  { meta, edgeCounts }: FunctionCounts,
  source: SourceText,
): UntakenDecision[] {
  // The blocks a run left: a decision there was reached (one never reached is code never run).
  const left = new Set<number>();
  for (let e = 0; e < edgeCounts.length; e++) if (edgeCounts[e] > 0) left.add(meta.edges[3 * e]);
  const out: UntakenDecision[] = [];
  for (let e = 0; e < edgeCounts.length; e++) {
    if (edgeCounts[e] > 0 || !BRANCHES.has(meta.edges[3 * e + 2] as EdgeKind)) continue;
    const decision = edgeDecision(meta, e, source);
    if (!decision || decision.line === 0) continue;
    out.push({ edge: e, decision, reached: left.has(meta.edges[3 * e]) });
  }
  return out;
}
