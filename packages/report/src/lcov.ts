import type { IstanbulFileCoverage } from './istanbul/file-coverage';

/**
 * lcov tracefile text from istanbul coverage, record by record as istanbul's lcovonly reporter writes it
 * (FN/FNDA, BRDA with `-` for a branch whose block never ran, DA, and the totals).
 */
export function formatLcov(files: readonly IstanbulFileCoverage[]): string {
  return files.map(record).join('');
}

function record(c: IstanbulFileCoverage): string {
  const out = ['TN:', `SF:${c.path}`];
  const fns = Object.entries(c.fnMap);
  for (const [, fn] of fns) out.push(`FN:${fn.line},${fn.name}`);
  for (const [id, fn] of fns) out.push(`FNDA:${c.f[id]},${fn.name}`);
  out.push(`FNF:${fns.length}`, `FNH:${fns.filter(([id]) => c.f[id] > 0).length}`);
  let found = 0;
  let hit = 0;
  for (const [id, branch] of Object.entries(c.branchMap)) {
    const counts = c.b[id];
    const reached = counts.some((n) => n > 0);
    counts.forEach((n, i) => {
      out.push(`BRDA:${branch.line},${id},${i},${reached ? n : '-'}`);
      found++;
      if (n > 0) hit++;
    });
  }
  out.push(`BRF:${found}`, `BRH:${hit}`);
  const lines = Object.entries(c.statementMap).map(([id, loc]) => [loc.start.line, c.s[id]] as const);
  for (const [line, n] of lines) out.push(`DA:${line},${n}`);
  out.push(`LF:${lines.length}`, `LH:${lines.filter(([, n]) => n > 0).length}`, 'end_of_record');
  return `${out.join('\n')}\n`;
}
