import type { PathReport } from './path-report';
import type { TerminalStyle } from './terminal-style';

/** The default report: per file and function, potential and executed paths, coverage, the hottest paths. */
export function formatTextReport(report: PathReport, style: TerminalStyle, hottest = 3): string {
  const rows: string[][] = [['File / function', 'line', 'paths', 'executed', 'coverage', 'hottest paths']];
  const percents: (number | null)[] = [null];
  for (const file of report.files) {
    rows.push([
      file.file,
      '',
      String(file.potentialPaths),
      String(file.executedPaths),
      pct(file.coverage),
      '',
    ]);
    percents.push(file.coverage);
    for (const fn of file.functions) {
      const hot = fn.paths.slice(0, hottest).map((p) => `#${p.id} ×${p.count}`);
      rows.push([
        `  ${fn.name}`,
        String(fn.location.start.line),
        String(fn.potentialPaths),
        String(fn.executedPaths),
        pct(fn.coverage),
        hot.join(', '),
      ]);
      percents.push(fn.coverage);
    }
  }
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  const lines = rows.map((row, r) => {
    const cells = row.map((cell, c) =>
      c === 0 || c === 5 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]),
    );
    const percent = percents[r];
    if (percent !== null) cells[4] = style.coverage(percent, cells[4]);
    const line = cells.join('  ').trimEnd();
    return r === 0 ? style.bold(line) : row[0].startsWith('  ') ? line : style.bold(line);
  });
  const s = report.summary;
  lines.push(
    '',
    `All files: ${s.files} files, ${s.functions} functions, ${s.potentialPaths} potential paths, ` +
      `${s.executedPaths} executed (${style.coverage(s.coverage)})`,
  );
  return lines.join('\n');
}

function pct(coverage: number): string {
  return `${coverage.toFixed(1)}%`;
}
