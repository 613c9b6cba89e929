import type { CoverageSummaryData, Range } from 'istanbul-lib-coverage';
import { formatDecision } from '../decisions';
import { functionCounts } from '../istanbul/graph-counts';
import { istanbulFileCoverage } from '../istanbul/istanbul-coverage';
import type { ProfiledFile } from '../profiled-file';
import { untakenDecisions } from '../untaken-decisions';
import { BlockCode, type Extent } from './block-code';

/** What the source view shows beside each line, and istanbul's figures for the files table. */
export interface LineCoverage {
  /** Per line with a statement: how often the statement that ran most there ran (istanbul's line count). */
  readonly counts: ReadonlyMap<number, number>;
  /** Per line, the decisions made there that no run took (`coupon → false`): istanbul's partial branches. */
  readonly untaken: ReadonlyMap<number, string[]>;
  /** istanbul's summary of the file: statements, branches, functions, lines. */
  readonly summary: CoverageSummaryData;
  /**
   * The code no run reached, to the column, as istanbul's report marks it: its statements and functions never
   * run and its branch arms never taken (but an `if`'s, whose location is the whole statement: `undecided`
   * marks its condition).
   */
  readonly missed: Extent[];
  /** To the column, the conditions with an outcome no run took (`coupon.kind === 'fixed'`, never false). */
  readonly undecided: Extent[];
}

/**
 * A file's line counts and summary as the istanbul export derives them (`istanbulCoverage`: the same numbers
 * lcov and nyc show), the branch decisions no path took, by line, and to the column the code no run reached
 * and the conditions with an outcome no run took (in any mode: a file counted in interprocedural mode has a
 * path-mode run's); null for a file whose coverage cannot be derived (the page then shows no counts).
 */
export function lineCoverage(file: ProfiledFile): LineCoverage | null {
  let coverage;
  try {
    coverage = istanbulFileCoverage(file);
  } catch {
    return null;
  }
  const counts = new Map(Object.entries(coverage.getLineCoverage()).map(([line, n]) => [Number(line), n]));
  const untaken = new Map<number, string[]>();
  const undecided = new Extents();
  for (const counted of functionCounts(file)) {
    const code = new BlockCode(counted.meta, file.source);
    for (const { edge, decision, reached } of untakenDecisions(counted, file.source)) {
      untaken.set(decision.line, [...(untaken.get(decision.line) ?? []), formatDecision(decision)]);
      // A decision in a block a run left was reached: a condition with an outcome no run took.
      if (reached) for (const extent of code.decision(counted.meta, edge)) undecided.add(extent);
    }
  }
  const missed = new Extents();
  const { s, statementMap, f, fnMap, b, branchMap } = coverage.data;
  for (const id in s) if (s[id] === 0) missed.add(extentOf(statementMap[id]));
  for (const id in f) if (f[id] === 0) missed.add(extentOf(fnMap[id].decl));
  for (const id in b)
    if (branchMap[id].type !== 'if')
      b[id].forEach((n, arm) => n === 0 && missed.add(extentOf(branchMap[id].locations[arm])));
  return {
    counts,
    untaken,
    summary: coverage.toSummary().data,
    missed: missed.list,
    undecided: undecided.list,
  };
}

/** Extents, each once. */
class Extents {
  private readonly seen = new Set<string>();
  readonly list: Extent[] = [];

  add(extent: readonly number[] | null): void {
    if (!extent || extent[0] <= 0 || this.seen.has(extent.join(':'))) return;
    this.seen.add(extent.join(':'));
    this.list.push([extent[0], extent[1], extent[2], extent[3]]);
  }
}

/** An istanbul location as an extent; null for the empty location of an arm with no code. */
function extentOf(range: Range | undefined): number[] | null {
  if (range?.start?.line === undefined || range.end?.line === undefined) return null;
  return [range.start.line, range.start.column, range.end.line, range.end.column];
}
