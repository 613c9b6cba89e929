import type { PathEndKind } from '@pathprof/numbering';
import type { CoverageOptions } from './coverage-figures';
import { decodeDecisions, type DecodedDecisions } from './decisions';
import { contradictionOf } from './infeasible-paths';
import type { FunctionPaths } from './profiled-file';
import type { SourceText } from './source-text';

/**
 * Up to `limit` of the paths the figures count that no run took: returning paths first (what tests usually
 * miss), then explicit throws, then loop and cut paths, then (when counted) implicit exceptions, each kind in
 * increasing path number. Found without enumerating the paths that end otherwise: a function can have millions.
 */
export function unexecutedPaths(
  fn: FunctionPaths,
  source: SourceText,
  limit: number,
  options: CoverageOptions,
): { id: number; path: DecodedDecisions }[] {
  const groups: PathEndKind[][] = [['return'], ['throw'], ['backedge', 'cut']];
  if (options.implicitExceptions) groups.push(['exception']);
  return unexecutedEnding(fn, source, limit, groups);
}

/**
 * Up to `limit` of the paths no run took that end one of the ways of `groups`, group by group, each in
 * increasing path number (the HTML report lists the implicit-exception ones apart). Infeasible paths (see
 * `InfeasiblePaths`) are never listed: no test can take them.
 */
export function unexecutedEnding(
  fn: FunctionPaths,
  source: SourceText,
  limit: number,
  groups: readonly (readonly PathEndKind[])[],
): { id: number; path: DecodedDecisions }[] {
  const missing: { id: number; path: DecodedDecisions }[] = [];
  for (const kinds of groups) {
    for (const id of fn.ends.numbersEndingBy(kinds)) {
      if (missing.length >= limit) return missing;
      if (!fn.counts.has(id) && !contradictionOf(fn, id))
        missing.push({ id, path: decodeDecisions(fn, id, source) });
    }
  }
  return missing;
}
