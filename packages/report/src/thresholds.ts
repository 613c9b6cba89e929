import type { PathReport } from './path-report';

/**
 * `check --paths N`: the messages (jest's wording) for every coverage below the threshold, overall or, with
 * `perFile`, per file. No message means the threshold is met.
 */
export function thresholdFailures(report: PathReport, minimum: number, perFile: boolean): string[] {
  const message = (coverage: number, where: string) =>
    `pathprof: path coverage threshold for paths (${minimum}%) not met${where}: ${coverage}%`;
  if (!perFile) return report.summary.coverage < minimum ? [message(report.summary.coverage, '')] : [];
  return report.files.filter((f) => f.coverage < minimum).map((f) => message(f.coverage, ` for ${f.file}`));
}
