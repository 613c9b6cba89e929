import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { createCoverageMap, type FileCoverageData } from 'istanbul-lib-coverage';
import { createContext } from 'istanbul-lib-report';
import { create, type ReportType } from 'istanbul-reports';
import type { IstanbulFileCoverage } from './file-coverage';

/** istanbul-reports' reporters, each with where it writes by default (console ones to stdout). */
export const istanbulReporters: Readonly<Record<string, string>> = {
  json: 'coverage-final.json',
  'json-summary': 'coverage-summary.json',
  lcovonly: 'lcov.info',
  lcov: 'lcov.info and lcov-report/',
  html: 'index.html and a page per file',
  'html-spa': 'index.html (a single-page app)',
  cobertura: 'cobertura-coverage.xml',
  clover: 'clover.xml',
  teamcity: 'stdout',
  text: 'stdout',
  'text-summary': 'stdout',
  'text-lcov': 'stdout',
};

/** Where a report goes: stdout, one file, or a directory of the reporters' own files. */
export type ReportTarget = { readonly stdout: true } | { readonly file: string } | { readonly dir: string };

/**
 * Writes `coverage` with istanbul-reports' `reporters` (what nyc and jest use, so cobertura, clover, lcov and
 * the rest are theirs, byte for byte). Paths in the reports are relative to the current directory, as jest's
 * are. Files are written to a staging directory beside the target and renamed into place, so a reader never
 * sees a half-written report.
 */
export function writeIstanbulReports(
  coverage: readonly IstanbulFileCoverage[],
  reporters: readonly string[],
  target: ReportTarget,
): void {
  for (const name of reporters)
    if (!(name in istanbulReporters))
      throw new Error(`unknown reporter "${name}" (known: ${Object.keys(istanbulReporters).join(', ')})`);
  // A file counted by two builds in one run (the plugin's options changed between accumulated commands): istanbul
  // adds their counts, statement by statement.
  const coverageMap = createCoverageMap({});
  for (const c of coverage) coverageMap.addFileCoverage(c as unknown as FileCoverageData);
  const options = (name: string, file?: string) =>
    create(name as ReportType, { projectRoot: process.cwd(), ...(file ? { file } : {}) });
  if ('stdout' in target) {
    const context = createContext({ coverageMap, defaultSummarizer: 'nested' });
    for (const name of reporters) options(name, '-').execute(context);
    return;
  }
  const destination = resolve('file' in target ? dirname(target.file) : target.dir);
  mkdirSync(destination, { recursive: true });
  const staging = mkdtempSync(join(destination, '.pathprof-report-'));
  try {
    const context = createContext({ dir: staging, coverageMap, defaultSummarizer: 'nested' });
    for (const name of reporters)
      options(name, 'file' in target ? basename(target.file) : undefined).execute(context);
    for (const file of filesUnder(staging)) {
      const to = join(destination, relative(staging, file));
      mkdirSync(dirname(to), { recursive: true });
      renameSync(file, to);
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}
