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
 * A function's infeasible paths: those whose decisions on a value that cannot change during an activation
 * contradict (the plugin's `correlated` metadata: one condition decided both ways; `implied`: conditions on one
 * value that exclude each other, such as `x == null` and `x`). No run can take them, so the report lists none
 * of them among the paths no test takes.
 */
export interface InfeasiblePaths {
  readonly decisions: CorrelatedDecisions;
  /**
   * Of the potential paths, the infeasible ones by how they end; null when there are too many correlated
   * conditions to count them exactly (the figures then count every path, as before).
   */
  readonly counts: Omit<PathEndCounts, 'fromEntry'> | null;
}

/**
 * The function's infeasible paths, when its metadata lists correlated conditions. When the implied decisions
 * make too many states to count, the correlated conditions alone (as before they were known), so that listings
 * and figures leave out the same paths.
 */
export function infeasiblePaths(
  meta: FunctionMetadata,
  numbering: PathNumbering,
  ends: PathEnds,
): InfeasiblePaths | undefined {
  if (!meta.correlated?.length && !meta.implied?.length) return undefined;
  let decisions = new CorrelatedDecisions(numbering.edgeCount, meta.correlated, meta.implied);
  let feasible = ends.feasibleCounts(decisions);
  if (!feasible && meta.implied?.length && meta.correlated?.length) {
    decisions = new CorrelatedDecisions(numbering.edgeCount, meta.correlated);
    feasible = ends.feasibleCounts(decisions);
  }
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

/** The decisions that make path `id` infeasible (edges, in path order: usually two), or null. */
export function contradictionOf(fn: FunctionPaths, id: number): number[] | null {
  return fn.infeasible ? fn.infeasible.decisions.contradiction(decodePath(fn.numbering, id).edges) : null;
}

/**
 * Throws when a run took a path the build called infeasible: the analysis was wrong (a soundness bug), and
 * every figure built on it would be too.
 */
export function checkExecutedFeasible(fn: FunctionPaths, file: string): void {
  if (!fn.infeasible) return;
  for (const id of fn.counts.keys()) {
    const edges = contradictionOf(fn, id);
    if (edges)
      throw new Error(
        `${file}: ${fn.meta.name}: path ${id} ran, but its decisions on edges ${edges.slice(0, -1).join(', ')} and ${edges.at(-1)} were ` +
          'found contradicting at build time; this is a bug in pathprof, please report it',
      );
  }
}

/**
 * Why decisions cannot all be taken: `L9 opts → false contradicts L3 opts → true`, `L9 x → true contradicts
 * L3 x == null → true` (the last decision against the earlier ones).
 */
export function formatContradiction(fn: FunctionPaths, edges: readonly number[], source: SourceText): string {
  const say = (e: number) => {
    const decision = edgeDecision(fn.meta, e, source);
    return decision ? formatDecision(decision) : `edge ${e}`;
  };
  return `${say(edges[edges.length - 1])} contradicts ${edges.slice(0, -1).map(say).join(' and ')}`;
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
): { id: number; edges: number[] } | null {
  if (!fn.infeasible) return null;
  let looked = 0;
  for (const id of fn.ends.numbersEndingBy(kinds)) {
    const edges = contradictionOf(fn, id);
    if (edges) return { id, edges };
    if (++looked >= budget) return null;
  }
  return null;
}
