import { formatPercent } from './coverage-figures';
import { hottestPaths, type FunctionReport, type PathReport } from './path-report';
import { preferentialSummary } from './preferential-report';
import type { TerminalStyle } from './terminal-style';
import { counted, groupedDigits } from './counted';
import { crossesCalls } from './interprocedural-report';

const header = [
  'File / function',
  'line',
  'paths',
  'executed',
  // A file's row gives the mean of its functions' coverage, not executed ÷ paths of its row.
  'coverage (file: mean)',
  'complete',
  'exception',
  'hottest',
];

/**
 * The default report: per file and function, potential and executed paths, coverage (a file's: the mean of
 * its functions'), how many functions have every path executed, the implicit-exception paths (executed of
 * potential) and the hottest paths; then the totals.
 */
export function formatTextReport(report: PathReport, style: TerminalStyle, hottest = 3): string {
  const rows: string[][] = [header];
  const percents: (number | null | undefined)[] = [undefined];
  const exceptions = (e: { executedPaths: number; potentialPaths: number }) =>
    `${e.executedPaths}/${e.potentialPaths}`;
  // Files that counted calling contexts alone have no paths: a line says where their counts are, not a row
  // (another build of such a file, which counted paths, keeps its row).
  const contextsOnly = new Set(report.contextsOnlyFiles);
  for (const file of report.files) {
    if (contextsOnly.has(file.file) && file.functions.length === 0) continue;
    rows.push([
      file.file,
      '',
      String(file.potentialPaths),
      String(file.executedPaths),
      formatPercent(file.meanCoverage),
      `${file.completeFunctions}/${file.functions.length}`,
      exceptions(file.exceptionPaths),
      '',
    ]);
    percents.push(file.meanCoverage);
    for (const fn of file.functions) {
      const hot = hottestPaths(fn, hottest).map((p) => `#${p.id} ×${p.count}`);
      rows.push([
        `  ${fn.name}`,
        String(fn.location.start.line),
        String(fn.potentialPaths),
        String(fn.executedPaths),
        formatPercent(fn.coverage),
        '',
        exceptions(fn.exceptionPaths),
        hot.join(', '),
      ]);
      percents.push(fn.coverage);
    }
  }
  const last = header.length - 1;
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  // Files counted as interprocedural paths have no rows: with only those, no empty table and no totals of none.
  const interprocedural = report.interproceduralFiles ?? [];
  const tabled = rows.length > 1 || (interprocedural.length === 0 && contextsOnly.size === 0) ? rows : [];
  const lines = tabled.map((row, r) => {
    const cells = row.map((cell, c) =>
      c === 0 || c === last ? cell.padEnd(widths[c]) : cell.padStart(widths[c]),
    );
    const percent = percents[r];
    if (percent !== undefined) cells[4] = style.coverage(percent, cells[4]);
    const line = cells.join('  ').trimEnd();
    return r === 0 ? style.bold(line) : row[0].startsWith('  ') ? line : style.bold(line);
  });
  // Interprocedural files: a line each, then once how to read their paths.
  const decode = '`pathprof-report calls [FILE[:FUNCTION]]` decodes their paths into source';
  for (const ipp of interprocedural) {
    const crossing = ipp.paths.filter(crossesCalls).length;
    const notCrossed = ipp.notCrossed.length;
    lines.push(
      `${style.bold(ipp.file)}: interprocedural (${ipp.scheme}): ${counted(ipp.executedPaths, 'path')} executed of N = ${groupedDigits(ipp.pathCount)}` +
        (ipp.crossedSites > 0
          ? `, ${crossing} through more than one function; ${counted(ipp.crossedSites, 'call site')} crossed` +
            (notCrossed > 0 ? `, ${notCrossed} not crossed` : '')
          : `; no call crossed${notCrossed > 0 ? ` (${counted(notCrossed, 'call')} not crossed, \`calls\` says why)` : ''}: ` +
            'per-function paths, as in path mode'),
    );
  }
  if (contextsOnly.size > 0)
    lines.push(
      `${style.bold(counted(contextsOnly.size, 'file'))} counted calling contexts alone (mode: 'contexts'), no paths: ` +
        '`pathprof-report contexts` shows their calling-context tree with exact call counts',
    );
  if (tabled.length === 0) {
    if (interprocedural.length > 0)
      lines.push(
        '',
        `All files: ${counted(interprocedural.length, 'file')}, counted as interprocedural paths: no path coverage percentage ` +
          `(N counts every combination of the functions' paths that crossed calls allow, feasible or not); ${decode}`,
        "istanbul's statements, branches, functions and lines, as a path-mode run gives them: `lcov`, `istanbul`, `html`, `check`",
      );
    return lines.join('\n');
  }
  if (interprocedural.length > 0) lines.push(style.dim(decode));
  const preferential = preferentialSummary(report);
  if (preferential) lines.push('', preferential);
  const s = report.summary;
  const e = s.exceptionPaths;
  lines.push(
    '',
    `All files: ${counted(s.files - contextsOnly.size, 'file')}, ${counted(s.functions, 'function')}, ${s.completeFunctions} with every path executed`,
    `Path coverage: ${style.coverage(s.meanCoverage)} (mean of the functions'); pooled: ${s.executedPaths} of ` +
      `${counted(s.potentialPaths, 'path')} (${formatPercent(s.coverage)})`,
    e.counted
      ? `Implicit-exception paths (counted above): ${e.executedPaths} of ${e.potentialPaths} executed`
      : `Implicit-exception paths, left out above: ${e.executedPaths} of ${e.potentialPaths} executed ` +
          `(--implicit-exceptions counts them)`,
  );
  if (s.infeasiblePaths > 0 || s.infeasibleUncounted > 0)
    lines.push(
      `Infeasible paths (two decisions on one unchanging condition contradict: no run can take them), left out ` +
        `above: ${s.infeasiblePaths}` +
        (s.infeasibleUncounted > 0
          ? `; in ${counted(s.infeasibleUncounted, 'function')} too many to count, so counted above`
          : '') +
        `; \`pathprof-report show ${showTarget(report, (fn) => fn.infeasiblePaths ?? 0) ?? 'FUNCTION'}\` gives an example`,
    );
  const next = showHint(report);
  if (next) lines.push(style.dim(next));
  return lines.join('\n');
}

/**
 * Where to look next, with the function that has the most paths no run took as the example: the `#id`s of the
 * table mean nothing until `show` decodes them.
 */
function showHint(report: PathReport): string | null {
  const target = showTarget(report, (fn) => fn.potentialPaths - fn.executedPaths);
  return (
    target &&
    `Next: \`pathprof-report show ${target}\` decodes a function's paths (#ids above) into decisions and ` +
      'lists those no run took; `pathprof-report html` writes a browsable report'
  );
}

/**
 * `FILE:FUNCTION` for `show`, of the function with the most of `measure`; null when none has any. A name
 * `show` takes as one word (not `<anonymous>`, `get Cart.size`), else the function's line.
 */
function showTarget(report: PathReport, measure: (fn: FunctionReport) => number): string | null {
  let best: { file: string; fn: FunctionReport; n: number } | null = null;
  for (const file of report.files)
    for (const fn of file.functions) {
      const n = measure(fn);
      if (n > (best?.n ?? 0)) best = { file: file.file, fn, n };
    }
  if (!best) return null;
  const { name, location } = best.fn;
  return `${best.file}:${/^[\w$.#]+$/.test(name) ? name : location.start.line}`;
}
