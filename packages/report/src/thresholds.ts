import { resolve, sep } from 'node:path';
import type { CoverageSummaryData } from 'istanbul-lib-coverage';
import picomatch from 'picomatch';
import { aggregateFigures, percentOf, type CoverageOptions } from './coverage-figures';
import { mergedFileCoverage } from './istanbul/istanbul-coverage';
import type { FileReport, InterproceduralFileReport, PathReport } from './path-report';
import type { ProfiledFile } from './profiled-file';

/**
 * What a threshold can bound: `paths`, the headline (the mean of the functions' path coverage); `pooledPaths`,
 * executed of potential paths pooled over the files; `completeFunctions`, the share of functions whose paths
 * all ran; and istanbul's `statements`, `branches`, `functions` and `lines` as the istanbul export derives
 * them (jest's `coverageThreshold` metrics, so a project's jest thresholds carry over). A positive threshold is
 * a minimum percentage; a negative one, as in jest, the most uncovered items (paths, functions with an
 * unexecuted path, statements, branch arms, functions, lines).
 */
export const thresholdMetrics = [
  'paths',
  'pooledPaths',
  'completeFunctions',
  'statements',
  'branches',
  'functions',
  'lines',
] as const;
export type ThresholdMetric = (typeof thresholdMetrics)[number];
export type Thresholds = Partial<Record<ThresholdMetric, number>>;

const pathMetrics: ReadonlySet<ThresholdMetric> = new Set(['paths', 'pooledPaths', 'completeFunctions']);
const istanbulMetrics: ReadonlySet<ThresholdMetric> = new Set([
  'statements',
  'branches',
  'functions',
  'lines',
]);

/** jest's `coverageThreshold`: `global`, and paths (directories or files) or globs, relative to the project. */
export type CoverageThreshold = Record<string, Thresholds>;

/**
 * A file a threshold measures: counted per function (its paths' figures), or in interprocedural mode (no
 * per-function paths; istanbul's figures as a path-mode run's).
 */
export type MeasuredFile = FileReport | InterproceduralFileReport;

/** A file's istanbul summary, or why it cannot be derived. */
type IstanbulSummary = (file: MeasuredFile) => CoverageSummaryData | { error: string };

interface Measure {
  /** In percent, 2 decimals; null when there is nothing to measure. */
  readonly pct: number | null;
  readonly uncovered: number;
}

/**
 * The messages (jest's wording) for every threshold not met, grouped as jest groups files: a file under a
 * path key or matched by a glob key belongs to those groups, any other file to `global`; a path group is
 * measured over its files together, a glob group file by file, `global` over its files (all files when every
 * one is in another group). No message means every threshold is met. `files` are the report's files, profiled
 * (where they are; istanbul's figures are derived from them only when a threshold asks for one). The files
 * counted in interprocedural mode are measured too: istanbul's figures as for any file; a path metric on a
 * group with such a file fails naming it (it has no per-function paths).
 */
export function thresholdFailures(
  report: PathReport,
  threshold: CoverageThreshold,
  options: CoverageOptions,
  files: readonly ProfiledFile[],
  cwd = process.cwd(),
): string[] {
  const profiled = new Map(files.map((f) => [f.key, f]));
  const summaries = new Map<string, ReturnType<IstanbulSummary>>();
  const summary: IstanbulSummary = (file) => {
    if (!summaries.has(file.file)) {
      try {
        const builds = files.filter((f) => f.key === file.file);
        summaries.set(file.file, mergedFileCoverage(builds).toSummary().data);
      } catch (error) {
        summaries.set(file.file, { error: (error as Error).message });
      }
    }
    return summaries.get(file.file)!;
  };
  const groups = Object.keys(threshold).filter((g) => g !== 'global');
  const kinds = new Map<string, 'path' | 'glob'>();
  const members = new Map<string, MeasuredFile[]>([['global', []]]);
  const all = [...report.files, ...(report.interproceduralFiles ?? [])];
  for (const file of all) {
    const where = profiled.get(file.file)!.path;
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
    const check = (name: string, measured: readonly MeasuredFile[]) =>
      failures.push(...checkThresholds(name, threshold[group], measured, options, summary));
    if (group === 'global') {
      const rest = members.get('global')!;
      check('global', rest.length ? rest : all);
    } else if (kinds.get(group) === 'path') {
      check(group, members.get(group)!);
    } else if (kinds.get(group) === 'glob') {
      for (const file of members.get(group)!) check(file.file, [file]);
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

/**
 * The messages for the thresholds `files`, measured together as the group `name`, do not meet. istanbul's
 * metrics need `summary`; a file whose istanbul figures cannot be derived fails a threshold on them, and a
 * file counted in interprocedural mode every path metric (one that cannot be measured must not pass).
 */
export function checkThresholds(
  name: string,
  thresholds: Thresholds,
  files: readonly MeasuredFile[],
  options: CoverageOptions,
  summary?: IstanbulSummary,
): string[] {
  const failures: string[] = [];
  const perFunction = files.filter((f): f is FileReport => 'functions' in f);
  const paths = pathMeasures(perFunction, options);
  let wanted = thresholdMetrics.filter((m) => thresholds[m] !== undefined);
  const acrossCalls = files.filter((f) => !('functions' in f)).map((f) => f.file);
  const unmeasurable = wanted.filter((m) => pathMetrics.has(m));
  if (acrossCalls.length > 0 && unmeasurable.length > 0) {
    failures.push(
      `pathprof: ${unmeasurable.join(', ')} for "${name}" cannot be measured: ${listed(acrossCalls)} ` +
        `${acrossCalls.length === 1 ? 'was' : 'were'} counted in interprocedural mode, which has no per-function ` +
        "paths (its paths run across calls); gate such files on istanbul's statements, branches, functions " +
        'or lines, or count them in path mode',
    );
    wanted = wanted.filter((m) => !pathMetrics.has(m));
  }
  let istanbul: Record<string, Measure> | null = null;
  if (wanted.some((m) => istanbulMetrics.has(m))) {
    const derived = istanbulMeasures(files, summary);
    for (const message of derived.errors)
      failures.push(`pathprof: istanbul's figures for "${name}" cannot be derived: ${message}`);
    if (derived.errors.length) return failures;
    istanbul = derived.measures;
  }
  for (const metric of wanted) {
    const minimum = thresholds[metric]!;
    const { pct, uncovered } = istanbulMetrics.has(metric) ? istanbul![metric] : paths[metric];
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

function pathMeasures(files: readonly FileReport[], options: CoverageOptions): Record<string, Measure> {
  const functions = files.flatMap((f) => f.functions);
  const figures = aggregateFigures(functions, options);
  const measured = functions.filter((f) => f.potentialPaths > 0).length;
  const unexecuted = figures.potentialPaths - figures.executedPaths;
  return {
    paths: { pct: figures.meanCoverage, uncovered: unexecuted },
    pooledPaths: { pct: figures.coverage, uncovered: unexecuted },
    completeFunctions: {
      pct: percentOf(figures.completeFunctions, measured),
      uncovered: measured - figures.completeFunctions,
    },
  };
}

/** Up to 5 file names, then how many more. */
function listed(files: readonly string[]): string {
  const shown = files.slice(0, 5).join(', ');
  return files.length > 5 ? `${shown} and ${files.length - 5} more` : shown;
}

/**
 * istanbul's four figures over `files` together (covered and total summed, as jest merges a group's
 * summaries), files counted in interprocedural mode as any.
 */
function istanbulMeasures(
  files: readonly MeasuredFile[],
  summary: IstanbulSummary | undefined,
): { measures: Record<string, Measure>; errors: string[] } {
  const errors: string[] = [];
  const sums = { statements: [0, 0], branches: [0, 0], functions: [0, 0], lines: [0, 0] };
  for (const file of files) {
    const s = summary ? summary(file) : { error: 'no profiled file given' };
    if ('error' in s) {
      errors.push(`${file.file}: ${s.error}`);
      continue;
    }
    for (const metric of Object.keys(sums) as (keyof typeof sums)[]) {
      sums[metric][0] += s[metric].covered;
      sums[metric][1] += s[metric].total;
    }
  }
  const measures = Object.fromEntries(
    Object.entries(sums).map(([metric, [covered, total]]) => [
      metric,
      { pct: percentOf(covered, total), uncovered: total - covered },
    ]),
  );
  return { measures, errors };
}
