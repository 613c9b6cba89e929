import {
  CorrelatedDecisions,
  decodePath,
  type PathEndCounts,
  type PathEndKind,
  type PathEnds,
  type PathNumbering,
} from '@pathprof/numbering';
import type { FunctionMetadata } from 'babel-plugin-pathprof';
import { edgeDecision, formatDecision } from './decisions';
import type { FunctionPaths } from './profiled-file';
import type { SourceText } from './source-text';

/**
 * A function's infeasible paths: those that decide one correlated condition both ways (the plugin's
 * `correlated` metadata: a condition over values that cannot change during an activation, tested twice). No run
 * can take them, so the report lists none of them among the paths no test takes.
 */
export interface InfeasiblePaths {
  readonly decisions: CorrelatedDecisions;
  /**
   * Of the potential paths, the infeasible ones by how they end; null when there are too many correlated
   * conditions to count them exactly (the figures then count every path, as before).
   */
  readonly counts: Omit<PathEndCounts, 'fromEntry'> | null;
}

/** The function's infeasible paths, when its metadata lists correlated conditions. */
export function infeasiblePaths(
  meta: FunctionMetadata,
  numbering: PathNumbering,
  ends: PathEnds,
): InfeasiblePaths | undefined {
  if (!meta.correlated?.length) return undefined;
  const decisions = new CorrelatedDecisions(numbering.edgeCount, meta.correlated);
  const feasible = ends.feasibleCounts(decisions);
  const all = ends.counts;
  const counts = feasible && {
    return: all.return - feasible.return,
    throw: all.throw - feasible.throw,
    exception: all.exception - feasible.exception,
    backedge: all.backedge - feasible.backedge,
    cut: all.cut - feasible.cut,
  };
  return { decisions, counts };
}

/** The two decisions that make path `id` infeasible (edges, the earlier first), or null. */
export function contradictionOf(fn: FunctionPaths, id: number): [number, number] | null {
  return fn.infeasible ? fn.infeasible.decisions.contradiction(decodePath(fn.numbering, id).edges) : null;
}

/**
 * Throws when a run took a path the build called infeasible: the analysis was wrong (a soundness bug), and
 * every figure built on it would be too.
 */
export function checkExecutedFeasible(fn: FunctionPaths, file: string): void {
  if (!fn.infeasible) return;
  for (const id of fn.counts.keys()) {
    const pair = contradictionOf(fn, id);
    if (pair)
      throw new Error(
        `${file}: ${fn.meta.name}: path ${id} ran, but its decisions on edges ${pair[0]} and ${pair[1]} were ` +
          'found contradicting at build time; this is a bug in pathprof, please report it',
      );
  }
}

/** Why a pair of decisions cannot both be taken: `L9 opts → false contradicts L3 opts → true`. */
export function formatContradiction(
  fn: FunctionPaths,
  [earlier, later]: [number, number],
  source: SourceText,
): string {
  const say = (e: number) => {
    const decision = edgeDecision(fn.meta, e, source);
    return decision ? formatDecision(decision) : `edge ${e}`;
  };
  return `${say(later)} contradicts ${say(earlier)}`;
}

/** How many of the paths a function's figures count are infeasible (see `functionFigures`). */
export function countedInfeasible(
  counts: Omit<PathEndCounts, 'fromEntry'>,
  implicitExceptions: boolean,
): number {
  return (
    counts.return + counts.throw + counts.backedge + counts.cut + (implicitExceptions ? counts.exception : 0)
  );
}

/**
 * The first infeasible path among those that end one of the ways of `kinds`, in increasing number, with the
 * decisions that contradict; looks at no more than `budget` paths (null if none is found by then).
 */
export function firstInfeasible(
  fn: FunctionPaths,
  kinds: readonly PathEndKind[],
  budget = 100_000,
): { id: number; pair: [number, number] } | null {
  if (!fn.infeasible) return null;
  let looked = 0;
  for (const id of fn.ends.numbersEndingBy(kinds)) {
    const pair = contradictionOf(fn, id);
    if (pair) return { id, pair };
    if (++looked >= budget) return null;
  }
  return null;
}
