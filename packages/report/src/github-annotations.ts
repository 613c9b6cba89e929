import { relative } from 'node:path';
import { functionFigures, type CoverageOptions } from './coverage-figures';
import { decodeDecisions, formatDecision, type DecodedDecisions } from './decisions';
import { functionCounts } from './istanbul/graph-counts';
import type { FunctionPaths, ProfiledFile } from './profiled-file';
import { unexecutedPaths } from './unexecuted-paths';
import { untakenDecisions } from './untaken-decisions';

/**
 * GitHub Actions workflow commands (`::warning file=…,line=…,title=…::message`) for the untaken paths of the
 * given files: one per function with any, at the line where its first untaken path leaves every executed
 * path, listing up to `perFunction` of them as decisions. GitHub shows a few annotations per step, so one per
 * function keeps each visible. A file counted in interprocedural mode has no per-function paths: per function,
 * the branch decisions no run took instead (exact, as the html report's). Files are named relative to
 * `workspace` (the repository's checkout), as GitHub expects.
 */
export function githubAnnotations(
  files: readonly ProfiledFile[],
  options: CoverageOptions,
  workspace: string,
  perFunction = 5,
): string[] {
  const out: string[] = [];
  for (const file of files) {
    const where = `file=${property(relative(workspace, file.path))}`;
    if (file.interprocedural) {
      for (const counted of functionCounts(file)) {
        const untaken = untakenDecisions(counted, file.source);
        if (untaken.length === 0) continue;
        const title = `pathprof: ${untaken.length} decision${untaken.length === 1 ? '' : 's'} never taken in ${counted.meta.name}`;
        const listed = untaken.slice(0, perFunction).map(({ decision }) => formatDecision(decision));
        if (untaken.length > perFunction)
          listed.push(`… and ${untaken.length - perFunction} more (pathprof-report html)`);
        out.push(
          `::warning ${where},line=${untaken[0].decision.line},title=${property(title)}::${data(listed.join('\n'))}`,
        );
      }
      continue;
    }
    for (const fn of file.functions) {
      const missing = unexecutedPaths(fn, file.source, perFunction, options);
      if (missing.length === 0) continue;
      const line = divergence(fn, file, missing[0].path) || fn.meta.range[0];
      const figures = functionFigures(fn, options);
      const total = figures.potentialPaths - figures.executedPaths;
      const title = `pathprof: ${total} untaken path${total === 1 ? '' : 's'} in ${fn.meta.name}`;
      const listed = missing.map(
        ({ id, path }) =>
          `path ${id} (${path.description}): ${path.decisions.map(formatDecision).join('; ') || 'straight through'}`,
      );
      if (total > missing.length) listed.push(`… and ${total - missing.length} more (pathprof-report show)`);
      out.push(`::warning ${where},line=${line},title=${property(title)}::${data(listed.join('\n'))}`);
    }
  }
  return out;
}

/**
 * The line of the first decision of `path` where no executed path of the function that starts where it does
 * makes the same ones; 0 when it has none.
 */
function divergence(fn: FunctionPaths, file: ProfiledFile, path: DecodedDecisions): number {
  const steps = (p: DecodedDecisions) => [
    p.start,
    ...p.decisions.map((d) => `${d.line}:${d.column}:${d.kind}`),
  ];
  const wanted = steps(path);
  let shared = 0;
  for (const id of fn.counts.keys()) {
    const other = steps(decodeDecisions(fn, id, file.source));
    let n = 0;
    while (n < wanted.length && n < other.length && wanted[n] === other[n]) n++;
    shared = Math.max(shared, n);
  }
  // `shared` counts the start: the first decision not shared is decisions[shared - 1].
  return path.decisions[Math.min(Math.max(shared - 1, 0), path.decisions.length - 1)]?.line ?? 0;
}

/** Escapes a workflow command's message (as @actions/core does). */
function data(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escapes a workflow command's property value. */
function property(text: string): string {
  return data(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
