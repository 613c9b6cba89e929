import { ENTRY_DUMMY, PathDecoder, type PathEndKind } from '@pathprof/numbering';
import {
  aggregateFigures,
  defaultCoverageOptions,
  functionFigures,
  type AggregateFigures,
  type CoverageOptions,
  type FunctionFigures,
} from './coverage-figures';
import { decodeDecisions, type Decision, type PathShape } from './decisions';
import { interproceduralReport, type InterproceduralReport } from './interprocedural-report';
import { functionPreferential, isResidual, type FunctionPreferential } from './preferential-report';
import type { FunctionPaths, ProfiledFile } from './profiled-file';
import { closestExecuted, pathTests } from './path-tests';
import type { SourceText } from './source-text';
import { unexecutedPaths } from './unexecuted-paths';

/**
 * The report as data, format `pathprof-report/2` (what `pathprof-report json` prints; the text, check and
 * diff commands read the same object). Documented in the package README.
 */
export interface PathReport {
  readonly format: 'pathprof-report/2';
  /** The figures of `files` (those counted per function). */
  readonly summary: AggregateFigures & { readonly files: number; readonly functions: number };
  /** The files counted per function (path, edge, preferential mode). */
  readonly files: FileReport[];
  /**
   * The files counted in interprocedural mode, whose paths run across calls: no functions' paths and no
   * coverage percentage, their executed paths decoded instead. Absent when there are none.
   */
  readonly interproceduralFiles?: InterproceduralFileReport[];
  /**
   * The files of `files` that counted calling contexts alone (`mode: 'contexts'`): no paths, so their rows
   * are empty; `pathprof-report contexts` reads their contexts. Absent when there are none.
   */
  readonly contextsOnlyFiles?: string[];
  /** What was skipped and why (also printed on stderr). */
  readonly problems: string[];
}

export interface FileReport extends AggregateFigures {
  readonly file: string;
  readonly functions: FunctionReport[];
}

/**
 * A file counted in interprocedural mode: its executed paths across calls (no per-function paths, and no
 * coverage percentage: N counts every combination of paths that crossed calls allow, feasible or not).
 */
export interface InterproceduralFileReport extends InterproceduralReport {
  readonly file: string;
}

export interface FunctionReport extends FunctionFigures {
  readonly name: string;
  readonly kind: string;
  readonly location: { start: { line: number; column: number }; end: { line: number; column: number } };
  /** The numbering's checksum: two runs' path ids compare only when it is the same. */
  readonly checksum: string;
  /** How often the function was entered. */
  readonly activations: number;
  /**
   * Executed paths, most frequent first (implicit-exception ones too: `end` says which they are). Described
   * anew at each read (a function's at a time: millions of paths' decisions are never all held), so read it
   * once; `hottestPaths` ranks them without describing them.
   */
  readonly paths: ExecutedPath[];
  /**
   * Up to the report's limit of the counted paths no run took, in `show`'s order (returning paths first), with
   * the decisions a test must make to take them. Described at each read, as `paths`.
   */
  readonly unexecutedPaths: UnexecutedPath[];
  /** How many more counted paths no run took than `unexecutedPaths` lists. */
  readonly moreUnexecutedPaths: number;
  /** A file counted in preferential mode: how the function stands to its interesting set. */
  readonly preferential?: FunctionPreferential;
}

export interface ExecutedPath extends PathShape {
  readonly id: number;
  readonly count: number;
  readonly decisions: Decision[];
  /** The tests that took it, most runs first, when the run split its counts by test (see `PathTest`). */
  readonly tests?: { file: string; name?: readonly string[] | null; count: number }[];
  /** Its runs in processes that did not split counts by test, when some did and those are fewer. */
  readonly unattributedCount?: number;
  /** A function counted in preferential mode: whether its interesting set leaves this path out. */
  readonly residual?: boolean;
}

export interface UnexecutedPath extends PathShape {
  readonly id: number;
  readonly decisions: Decision[];
  /** The executed paths that share its longest prefix of decisions (their tests come closest to taking it). */
  readonly closest?: { paths: number[]; sharedDecisions: number };
}

/** How the report is made: what the figures count, and how many unexecuted paths each function lists. */
export interface ReportOptions extends CoverageOptions {
  /** Default 0: only counted. */
  readonly unexecutedLimit?: number;
}

export function pathReport(
  files: readonly ProfiledFile[],
  problems: readonly string[],
  options: ReportOptions = defaultCoverageOptions,
): PathReport {
  const fileReports = files.filter((f) => !f.interprocedural).map((file) => fileReport(file, options));
  const contextsOnlyFiles = files.filter((f) => f.meta.mode === 'contexts').map((f) => f.key);
  const functions = fileReports.flatMap((f) => f.functions);
  const interproceduralFiles = files.flatMap((file) => {
    const report = interproceduralReport(file);
    return report ? [{ file: file.key, ...report }] : [];
  });
  return {
    format: 'pathprof-report/2',
    summary: {
      files: fileReports.length,
      functions: functions.length,
      ...aggregateFigures(functions, options),
    },
    files: fileReports,
    ...(interproceduralFiles.length > 0 ? { interproceduralFiles } : {}),
    ...(contextsOnlyFiles.length > 0 ? { contextsOnlyFiles } : {}),
    problems: [...problems],
  };
}

function fileReport(file: ProfiledFile, options: ReportOptions): FileReport {
  const functions = file.functions.map((fn) => functionReport(fn, file, options));
  return { file: file.key, ...aggregateFigures(functions, options), functions };
}

/** The counts behind each function report (`hottestPaths` ranks them without describing the paths). */
const counted = new WeakMap<FunctionReport, FunctionPaths>();

function functionReport(fn: FunctionPaths, file: ProfiledFile, options: ReportOptions): FunctionReport {
  const [line, column, endLine, endColumn] = fn.meta.range;
  const { activations, ends } = executedShapes(fn);
  const figures = functionFigures(fn, options, ends);
  // Every counted path no run took is listed up to the limit (the figures count exactly those).
  const unexecutedCount = figures.potentialPaths - figures.executedPaths;
  const listed = Math.min(options.unexecutedLimit ?? 0, unexecutedCount);
  const preferential = functionPreferential(file, fn);
  const report: FunctionReport = {
    name: fn.meta.name,
    kind: fn.meta.kind,
    location: { start: { line, column }, end: { line: endLine, column: endColumn } },
    checksum: (fn.meta.path ?? fn.meta.preferential)!.checksum,
    activations,
    ...figures,
    get paths() {
      return executedPaths(fn, file.source);
    },
    get unexecutedPaths() {
      return listed ? unexecutedWithClosest(fn, file, options) : [];
    },
    moreUnexecutedPaths: unexecutedCount - listed,
    ...(preferential ? { preferential } : {}),
  };
  counted.set(report, fn);
  return report;
}

/**
 * How a function's executed paths start and end, from their numbers alone: the activations (the counts of the
 * paths that start at entry) and each path's end, without describing their decisions.
 */
function executedShapes(fn: FunctionPaths): { activations: number; ends: PathEndKind[] } {
  const decoder = PathDecoder.of(fn.numbering);
  const { kind } = fn.numbering.dag;
  let activations = 0;
  const ends: PathEndKind[] = [];
  for (const [id, count] of fn.counts) {
    decoder.decode(id);
    if (kind[decoder.dagEdges[0]] !== ENTRY_DUMMY) activations += count;
    ends.push(fn.ends.kindOfNumber(id));
  }
  return { activations, ends };
}

/**
 * The function whose executed paths were described last, and them: the JSON output reads a function's `paths`,
 * then its `unexecutedPaths`, whose closest executed paths compare with them.
 */
let described: { fn: FunctionPaths; paths: ExecutedPath[] } | null = null;

/** A function's executed paths described, most frequent first: built anew at each call. */
function executedPaths(fn: FunctionPaths, source: SourceText): ExecutedPath[] {
  const paths = [...fn.counts]
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .map(([id, count]) => ({
      id,
      count,
      ...decodeDecisions(fn, id, source),
      ...testsOf(fn, id),
      ...(fn.preferential ? { residual: isResidual(fn, id) } : {}),
    }));
  described = { fn, paths };
  return paths;
}

/** Up to the report's limit of the paths no run took, each with the executed paths that come closest. */
function unexecutedWithClosest(
  fn: FunctionPaths,
  file: ProfiledFile,
  options: ReportOptions,
): UnexecutedPath[] {
  const missing = unexecutedPaths(fn, file.source, options.unexecutedLimit ?? 0, options);
  if (missing.length === 0) return [];
  const paths = described?.fn === fn ? described.paths : executedPaths(fn, file.source);
  const executed = paths.map((p) => ({ id: p.id, path: p }));
  return missing.map(({ id, path }) => {
    const closest = closestExecuted(path, executed);
    return {
      id,
      ...path,
      ...(closest ? { closest: { paths: closest.ids, sharedDecisions: closest.shared } } : {}),
    };
  });
}

/**
 * The `limit` most frequent executed paths of a function report (ties by path number), as `paths` lists them
 * first, without describing them (a report read back from JSON: from its `paths`).
 */
export function hottestPaths(report: FunctionReport, limit: number): { id: number; count: number }[] {
  const fn = counted.get(report);
  if (!fn) return report.paths.slice(0, limit);
  const hottest: { id: number; count: number }[] = [];
  for (const [id, count] of fn.counts) {
    let at = hottest.length;
    while (
      at > 0 &&
      (count > hottest[at - 1].count || (count === hottest[at - 1].count && id < hottest[at - 1].id))
    )
      at--;
    if (at < limit) {
      hottest.splice(at, 0, { id, count });
      if (hottest.length > limit) hottest.pop();
    }
  }
  return hottest;
}

function testsOf(fn: FunctionPaths, id: number): Pick<ExecutedPath, 'tests' | 'unattributedCount'> {
  const known = pathTests(fn, id);
  if (!known) return {};
  const tests = known.tests.map((t) => ({ file: t.testFile, name: t.name, count: t.count }));
  return known.unattributed > 0 ? { tests, unattributedCount: known.unattributed } : { tests };
}
