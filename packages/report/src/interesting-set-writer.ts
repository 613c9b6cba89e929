import { INTERESTING_SET_FORMAT, type InterestingSet } from '@pathprof/numbering';
import { FunctionFingerprints } from 'babel-plugin-pathprof';
import type { ProfiledFile } from './profiled-file';

/** Which executed paths become interesting: all of them, or each function's hottest. */
export type PathSelection = { readonly kind: 'covered' } | { readonly kind: 'hot'; readonly percent: number };

/**
 * `pathprof-report prefer`: the interesting set of a run, from its per-function Ball-Larus counts (files
 * counted in path or preferential mode): per function every executed path (`covered`), or its most frequent
 * paths that together make up at least `percent`% of its path executions (`hot`; ties go to the lower path
 * id). Every function of a profiled file is listed, those that ran no path with none, so that the set tells
 * a function the baseline knew but never ran from a new one.
 */
export function interestingSet(
  files: readonly ProfiledFile[],
  selection: PathSelection,
): { set: InterestingSet; paths: number; functions: number } {
  let paths = 0;
  let functions = 0;
  const listed = files
    .filter((file) => !file.interprocedural)
    .map((file) => {
      const fingerprints = new FunctionFingerprints(
        file.source.text,
        file.meta.functions.map((fn) => fn.range),
      );
      return {
        file: file.key,
        functions: file.functions.map((fn) => {
          const checksum = (fn.meta.path ?? fn.meta.preferential)!.checksum;
          const pathIds = selectPaths(fn.counts, selection);
          paths += pathIds.length;
          functions++;
          return { name: fn.meta.name, fingerprint: fingerprints.of(checksum, fn.meta.range), pathIds };
        }),
      };
    });
  const name = selection.kind === 'covered' ? 'covered' : `hot ${selection.percent}%`;
  return { set: { format: INTERESTING_SET_FORMAT, selection: name, files: listed }, paths, functions };
}

/** The selected path ids of one function's counts, in increasing order. */
export function selectPaths(counts: ReadonlyMap<number, number>, selection: PathSelection): number[] {
  if (selection.kind === 'covered') return [...counts.keys()].sort((a, b) => a - b);
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  const hottest = [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  const chosen: number[] = [];
  let sum = 0;
  // Integers compared exactly: sum / total ≥ percent / 100.
  for (const [id, n] of hottest) {
    if (sum * 100 >= total * selection.percent) break;
    chosen.push(id);
    sum += n;
  }
  return chosen.sort((a, b) => a - b);
}
