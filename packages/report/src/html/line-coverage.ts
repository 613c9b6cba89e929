import { EdgeKind } from '@pathprof/cfg';
import { edgeCountsFromPaths } from '@pathprof/numbering';
import type { CoverageSummaryData } from 'istanbul-lib-coverage';
import { edgeDecision, formatDecision } from '../decisions';
import { istanbulFileCoverage } from '../istanbul/istanbul-coverage';
import type { ProfiledFile } from '../profiled-file';

/** What the source view shows beside each line, and istanbul's figures for the files table. */
export interface LineCoverage {
  /** Per line with a statement: how often the statement that ran most there ran (istanbul's line count). */
  readonly counts: ReadonlyMap<number, number>;
  /** Per line, the decisions made there that no run took (`coupon → false`): istanbul's partial branches. */
  readonly untaken: ReadonlyMap<number, string[]>;
  /** istanbul's summary of the file: statements, branches, functions, lines. */
  readonly summary: CoverageSummaryData;
}

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

/**
 * A file's line counts and summary as the istanbul export derives them (`istanbulCoverage`: the same numbers
 * lcov and nyc show), and the branch decisions no path took, by line; null for a file counted in
 * interprocedural mode or whose coverage cannot be derived (the page then shows no counts).
 */
export function lineCoverage(file: ProfiledFile): LineCoverage | null {
  let coverage;
  try {
    coverage = istanbulFileCoverage(file);
  } catch {
    return null;
  }
  if (!coverage) return null;
  const counts = new Map(Object.entries(coverage.getLineCoverage()).map(([line, n]) => [Number(line), n]));
  const untaken = new Map<number, string[]>();
  for (const fn of file.functions) {
    const edgeCounts = edgeCountsFromPaths(fn.numbering, fn.counts);
    for (let e = 0; e < edgeCounts.length; e++) {
      if (edgeCounts[e] > 0 || !BRANCHES.has(fn.meta.edges[3 * e + 2] as EdgeKind)) continue;
      const decision = edgeDecision(fn.meta, e, file.source);
      if (!decision || decision.line === 0) continue;
      untaken.set(decision.line, [...(untaken.get(decision.line) ?? []), formatDecision(decision)]);
    }
  }
  return { counts, untaken, summary: coverage.toSummary().data };
}
