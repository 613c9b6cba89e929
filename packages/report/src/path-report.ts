import { decodeDecisions, type Decision, type PathShape } from './decisions';
import type { FunctionPaths, ProfiledFile } from './profiled-file';

/**
 * The report as data, format `pathprof-report/1` (what `pathprof-report json` prints; the text, check and
 * diff commands read the same object). Documented in the package README.
 */
export interface PathReport {
  readonly format: 'pathprof-report/1';
  readonly summary: CoverageFigures & { readonly files: number; readonly functions: number };
  readonly files: FileReport[];
  /** What was skipped and why (also printed on stderr). */
  readonly problems: string[];
}

export interface CoverageFigures {
  readonly potentialPaths: number;
  readonly executedPaths: number;
  /** executed / potential, in percent. */
  readonly coverage: number;
}

export interface FileReport extends CoverageFigures {
  readonly file: string;
  readonly functions: FunctionReport[];
}

export interface FunctionReport extends CoverageFigures {
  readonly name: string;
  readonly kind: string;
  readonly location: { start: { line: number; column: number }; end: { line: number; column: number } };
  /** The numbering's checksum: two runs' path ids compare only when it is the same. */
  readonly checksum: string;
  /** How often the function was entered. */
  readonly activations: number;
  /** Executed paths, most frequent first. */
  readonly paths: ExecutedPath[];
}

export interface ExecutedPath extends PathShape {
  readonly id: number;
  readonly count: number;
  readonly decisions: Decision[];
}

export function pathReport(files: readonly ProfiledFile[], problems: readonly string[]): PathReport {
  const fileReports = files.map(fileReport);
  const functions = fileReports.reduce((n, f) => n + f.functions.length, 0);
  return {
    format: 'pathprof-report/1',
    summary: { files: fileReports.length, functions, ...figures(fileReports) },
    files: fileReports,
    problems: [...problems],
  };
}

function fileReport(file: ProfiledFile): FileReport {
  const functions = file.functions.map((fn) => functionReport(fn, file));
  return { file: file.key, ...figures(functions), functions };
}

function functionReport(fn: FunctionPaths, file: ProfiledFile): FunctionReport {
  const [line, column, endLine, endColumn] = fn.meta.range;
  const paths = [...fn.counts]
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .map(([id, count]) => ({ id, count, ...decodeDecisions(fn, id, file.source) }));
  const activations = paths.filter((p) => p.start === 'entry').reduce((n, p) => n + p.count, 0);
  return {
    name: fn.meta.name,
    kind: fn.meta.kind,
    location: { start: { line, column }, end: { line: endLine, column: endColumn } },
    checksum: fn.meta.path!.checksum,
    activations,
    ...coverage(fn.numbering.pathCount, paths.length),
    paths,
  };
}

function figures(parts: readonly CoverageFigures[]): CoverageFigures {
  const sum = (f: (c: CoverageFigures) => number) => parts.reduce((n, c) => n + f(c), 0);
  return coverage(
    sum((c) => c.potentialPaths),
    sum((c) => c.executedPaths),
  );
}

function coverage(potentialPaths: number, executedPaths: number): CoverageFigures {
  const percent = potentialPaths === 0 ? 100 : (100 * executedPaths) / potentialPaths;
  return { potentialPaths, executedPaths, coverage: Math.round(percent * 100) / 100 };
}
