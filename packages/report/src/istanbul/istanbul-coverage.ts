import { parseSource } from '@pathprof/cfg';
import type { ProfiledFile } from '../profiled-file';
import { countBranches } from './branch-counts';
import { location, type IstanbulFileCoverage } from './file-coverage';
import { GraphCounts } from './graph-counts';
import { countLines } from './line-counts';

/**
 * istanbul's coverage of one file, derived from its path profile: functions count activations (paths
 * that start at entry), branches count edges (see `countBranches`), and each line with code is one
 * statement counting its innermost block. The program itself is not a function in istanbul's sense.
 */
export function istanbulCoverage(file: ProfiledFile): IstanbulFileCoverage {
  const graph = new GraphCounts(file);
  const coverage: IstanbulFileCoverage = {
    path: file.path,
    statementMap: {},
    fnMap: {},
    branchMap: {},
    s: {},
    f: {},
    b: {},
  };
  file.functions.forEach((fn, i) => {
    if (fn.meta.kind === 'program') return;
    const id = String(Object.keys(coverage.fnMap).length);
    const [sl, sc, el, ec] = fn.meta.range;
    const loc = location(sl, sc, el, ec);
    coverage.fnMap[id] = { name: fn.meta.name, decl: loc, loc, line: sl };
    coverage.f[id] = graph.activations[i];
  });
  countBranches(parseSource(file.source.text, file.path).program, graph).forEach((branch, i) => {
    coverage.branchMap[i] = branch.mapping;
    coverage.b[i] = branch.counts;
  });
  let s = 0;
  for (const [line, count] of countLines(file, graph)) {
    coverage.statementMap[s] = location(line, 0, line, file.source.lines[line - 1].length);
    coverage.s[s++] = count;
  }
  return coverage;
}
