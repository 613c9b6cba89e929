import type { PathEndKind } from '@pathprof/numbering';
import { countedInfeasible } from './infeasible-paths';
import type { FunctionPaths } from './profiled-file';

/** What the coverage figures count. */
export interface CoverageOptions {
  /**
   * Count the paths that end by an implicit exception (a call or property access throwing) in the figures.
   * Off by default: they are reported apart (`exceptionPaths`).
   */
  readonly implicitExceptions: boolean;
}

export const defaultCoverageOptions: CoverageOptions = { implicitExceptions: false };

export interface PathCounts {
  readonly potentialPaths: number;
  readonly executedPaths: number;
}

export interface PathFigures extends PathCounts {
  /**
   * executed / potential, in percent (2 decimals, 0 and 100 only when exact); null when there is no potential
   * path.
   */
  readonly coverage: number | null;
}

/** The paths that end by an implicit exception, reported apart; `counted` when the figures include them. */
export interface ExceptionPaths extends PathCounts {
  readonly counted: boolean;
}

export interface FunctionFigures extends PathFigures {
  readonly exceptionPaths: ExceptionPaths;
  /**
   * Of the paths the figures would count, those no run can take (see `InfeasiblePaths`), left out of
   * `potentialPaths`; null when the function has some but they could not be counted exactly (then counted in
   * `potentialPaths`, as any path). Absent when the function has no correlated conditions.
   */
  readonly infeasiblePaths?: number | null;
}

/**
 * A file's or the whole run's figures: the paths pooled (`coverage`), and, so that one function with millions
 * of paths does not swamp the rest, the mean of its functions' coverage and how many have every path run.
 */
export interface AggregateFigures extends PathFigures {
  /**
   * The mean of the functions' executed / potential (those with potential paths), in percent as `coverage`;
   * null when none has.
   */
  readonly meanCoverage: number | null;
  /** Functions whose counted paths all ran (of those with potential paths). */
  readonly completeFunctions: number;
  readonly exceptionPaths: ExceptionPaths;
  /** Infeasible paths left out of `potentialPaths`, summed (see `FunctionFigures`). */
  readonly infeasiblePaths: number;
  /** Functions with infeasible paths too many to count exactly: those are in `potentialPaths`. */
  readonly infeasibleUncounted: number;
}

/**
 * One function's figures: its counted paths, and its implicit-exception paths apart. `executedEnds` are how
 * its executed paths end, when the caller has decoded them already.
 */
export function functionFigures(
  fn: FunctionPaths,
  options: CoverageOptions,
  executedEnds: Iterable<PathEndKind> = [...fn.counts.keys()].map((id) => fn.ends.kindOfNumber(id)),
): FunctionFigures {
  let implicitExecuted = 0;
  for (const end of executedEnds) if (end === 'exception') implicitExecuted++;
  const ends = fn.ends.counts;
  const implicitPotential = ends.exception;
  const counted = options.implicitExceptions;
  // Every path ends one way: their sum is the numbering's path count (or, through a line, the paths through it).
  const potential = ends.return + ends.throw + ends.exception + ends.backedge + ends.cut;
  // No run takes an infeasible path (the loader checked the executed ones), so none is among the executed.
  const infeasible =
    fn.infeasible && fn.infeasible.counts && countedInfeasible(fn.infeasible.counts, counted);
  const exceptionInfeasible = fn.infeasible?.counts?.exception ?? 0;
  return {
    ...pathFigures(
      potential - (counted ? 0 : implicitPotential) - (infeasible ?? 0),
      fn.counts.size - (counted ? 0 : implicitExecuted),
    ),
    exceptionPaths: {
      potentialPaths: implicitPotential - exceptionInfeasible,
      executedPaths: implicitExecuted,
      counted,
    },
    ...(infeasible !== undefined ? { infeasiblePaths: infeasible } : {}),
  };
}

/** Figures over several functions' (see `AggregateFigures`). */
export function aggregateFigures(
  functions: readonly FunctionFigures[],
  options: CoverageOptions,
): AggregateFigures {
  const sum = (f: (c: FunctionFigures) => number) => functions.reduce((n, c) => n + f(c), 0);
  const measured = functions.filter((f) => f.potentialPaths > 0);
  const ratios = measured.map((f) => f.executedPaths / f.potentialPaths);
  return {
    ...pathFigures(
      sum((f) => f.potentialPaths),
      sum((f) => f.executedPaths),
    ),
    meanCoverage: ratios.length ? percent(ratios.reduce((a, b) => a + b, 0) / ratios.length) : null,
    completeFunctions: measured.filter((f) => f.executedPaths === f.potentialPaths).length,
    infeasiblePaths: sum((f) => f.infeasiblePaths ?? 0),
    infeasibleUncounted: functions.filter((f) => f.infeasiblePaths === null).length,
    exceptionPaths: {
      potentialPaths: sum((f) => f.exceptionPaths.potentialPaths),
      executedPaths: sum((f) => f.exceptionPaths.executedPaths),
      counted: options.implicitExceptions,
    },
  };
}

function pathFigures(potentialPaths: number, executedPaths: number): PathFigures {
  return {
    potentialPaths,
    executedPaths,
    coverage: percentOf(executedPaths, potentialPaths),
  };
}

/** `covered` of `total` in percent as `percent` gives it; null when `total` is 0 (never 100 for nothing). */
export function percentOf(covered: number, total: number): number | null {
  return total === 0 ? null : percent(covered / total);
}

/**
 * A ratio in percent, 2 decimals, never rounded to 0 or 100 when it is not exactly that: 43 of DateTime.fromObject's
 * 933,899 paths are 0.01, not 0 (which would read as "no test runs it").
 */
function percent(ratio: number): number {
  const rounded = Math.round(ratio * 10000) / 100;
  if (rounded === 0 && ratio > 0) return 0.01;
  if (rounded === 100 && ratio < 1) return 99.99;
  return rounded;
}

/**
 * A percentage as printed: one decimal; `n/a` when there is nothing to divide by; never 100.0% or 0.0% when
 * that is not exact.
 */
export function formatPercent(value: number | null): string {
  if (value === null) return 'n/a';
  const text = value.toFixed(1);
  if (text === '100.0' && value < 100) return '>99.9%';
  if (text === '0.0' && value > 0) return '<0.1%';
  return `${text}%`;
}
