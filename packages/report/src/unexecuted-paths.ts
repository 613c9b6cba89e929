import { decodeDecisions, type DecodedDecisions } from './decisions';
import type { FunctionPaths } from './profiled-file';
import type { SourceText } from './source-text';

/**
 * Up to `limit` paths no run took, returning paths before those ending by an exception (they are what tests
 * usually miss). A function can have millions of paths, so only the first path numbers are looked at.
 */
export function unexecutedPaths(
  fn: FunctionPaths,
  source: SourceText,
  limit: number,
): { id: number; path: DecodedDecisions }[] {
  const scanned = Math.min(fn.numbering.pathCount, Math.max(limit * 20, 1000));
  const missing: { id: number; path: DecodedDecisions }[] = [];
  for (let id = 0; id < scanned; id++) {
    if (!fn.counts.has(id)) missing.push({ id, path: decodeDecisions(fn, id, source) });
  }
  return missing
    .sort((a, b) => Number(a.path.end === 'exception') - Number(b.path.end === 'exception'))
    .slice(0, limit);
}
