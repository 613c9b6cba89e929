import { resolve, sep } from 'node:path';
import picomatch from 'picomatch';
import { aggregateFigures, percent, type CoverageOptions } from './coverage-figures';
import type { FileReport, PathReport } from './path-report';

/**
 * What a threshold can bound: `paths`, the headline (the mean of the functions' path coverage); `pooledPaths`,
 * executed of potential paths pooled over the files; `completeFunctions`, the share of functions whose paths
 * all ran. A positive threshold is a minimum percentage; a negative one, as in jest, the most uncovered items
 * (paths, or functions with an unexecuted path).
 */
export const thresholdMetrics = ['paths', 'pooledPaths', 'completeFunctions'] as const;
export type ThresholdMetric = (typeof thresholdMetrics)[number];
export type Thresholds = Partial<Record<ThresholdMetric, number>>;

/** jest's `coverageThreshold`: `global`, and paths (directories or files) or globs, relative to the project. */
export type CoverageThreshold = Record<string, Thresholds>;

interface Measure {
  /** In percent, 2 decimals; null when there is nothing to measure. */
  readonly pct: number | null;
  readonly uncovered: number;
}

/**
 * The messages (jest's wording) for every threshold not met, grouped as jest groups files: a file under a
 * path key or matched by a glob key belongs to those groups, any other file to `global`; a path group is
 * measured over its files together, a glob group file by file, `global` over its files (all files when every
 * one is in another group). No message means every threshold is met. `locate` gives a file's absolute path.
 */
export function thresholdFailures(
  report: PathReport,
  threshold: CoverageThreshold,
  options: CoverageOptions,
  locate: (file: string) => string,
  cwd = process.cwd(),
): string[] {
  const groups = Object.keys(threshold).filter((g) => g !== 'global');
  const kinds = new Map<string, 'path' | 'glob'>();
  const members = new Map<string, FileReport[]>([['global', []]]);
  for (const file of report.files) {
    const where = locate(file.file);
    let grouped = false;
    for (const group of groups) {
      const kind = matchGroup(group, where, cwd);
      if (!kind) continue;
      kinds.set(group, kind);
      members.set(group, [...(members.get(group) ?? []), file]);
      grouped = true;
    }
    if (!grouped) members.get('global')!.push(file);
  }
  const failures: string[] = [];
  for (const group of Object.keys(threshold)) {
    if (group === 'global') {
      const files = members.get('global')!;
      failures.push(
        ...checkThresholds('global', threshold.global, files.length ? files : report.files, options),
      );
    } else if (kinds.get(group) === 'path') {
      failures.push(...checkThresholds(group, threshold[group], members.get(group)!, options));
    } else if (kinds.get(group) === 'glob') {
      for (const file of members.get(group)!)
        failures.push(...checkThresholds(file.file, threshold[group], [file], options));
    } else {
      failures.push(`pathprof: Coverage data for ${group} was not found.`);
    }
  }
  return failures;
}

/** A threshold key is a path when a file lies under it, else a glob when it matches the file (as in jest). */
function matchGroup(group: string, file: string, cwd: string): 'path' | 'glob' | null {
  const resolved = resolve(cwd, group);
  const directory = (group.endsWith('/') || group.endsWith(sep)) && !resolved.endsWith(sep) ? sep : '';
  if (file.startsWith(`${resolved}${directory}`)) return 'path';
  return picomatch(resolved)(file) ? 'glob' : null;
}

/** The messages for the thresholds `files`, measured together as the group `name`, do not meet. */
export function checkThresholds(
  name: string,
  thresholds: Thresholds,
  files: readonly FileReport[],
  options: CoverageOptions,
): string[] {
  const measures = measure(files, options);
  const failures: string[] = [];
  for (const metric of thresholdMetrics) {
    const minimum = thresholds[metric];
    if (minimum === undefined) continue;
    const { pct, uncovered } = measures[metric];
    if (minimum < 0) {
      if (uncovered > -minimum)
        failures.push(
          `pathprof: Uncovered count for ${metric} (${uncovered}) exceeds ${name} threshold (${-minimum})`,
        );
    } else if (pct !== null && pct < minimum) {
      failures.push(
        `pathprof: Coverage for ${metric} (${pct}%) does not meet "${name}" threshold (${minimum}%)`,
      );
    }
  }
  return failures;
}

function measure(files: readonly FileReport[], options: CoverageOptions): Record<ThresholdMetric, Measure> {
  const functions = files.flatMap((f) => f.functions);
  const figures = aggregateFigures(functions, options);
  const measured = functions.filter((f) => f.potentialPaths > 0).length;
  const unexecuted = figures.potentialPaths - figures.executedPaths;
  return {
    paths: { pct: figures.meanCoverage, uncovered: unexecuted },
    pooledPaths: { pct: figures.coverage, uncovered: unexecuted },
    completeFunctions: {
      pct: measured ? percent(figures.completeFunctions / measured) : null,
      uncovered: measured - figures.completeFunctions,
    },
  };
}
