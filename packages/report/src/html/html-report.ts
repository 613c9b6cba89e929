import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatPercent, percentOf, type CoverageOptions } from '../coverage-figures';
import type { PathReport } from '../path-report';
import type { ContextTree } from '../context-tree';
import { preferentialSummary } from '../preferential-report';
import { crossesCalls } from '../interprocedural-report';
import { counted, groupedDigits } from '../counted';
import type { ProfiledFile } from '../profiled-file';
import { escapeHtml } from './escape-html';
import { filePageBody, istanbulFigures, level } from './file-page';
import { flameGraphBody, flameScript } from './flame-graph';
import { lineCoverage, type LineCoverage } from './line-coverage';
import { indexScript, pageScript } from './page-script';
import { pageStyle } from './page-style';

/**
 * `html`: a static site in `outDir`: `index.html` with the files table (sortable, filterable: paths, and
 * istanbul's statements, branches, functions and lines), and per source file a page with its source (line
 * counts, colours, syntax), its functions, their executed and unexecuted paths (selecting one highlights its
 * lines, the code where it decides and its edges) and each function's graph; with calling contexts,
 * `contexts.html`, their flame graph. Returns the path of `index.html`.
 */
export function writeHtmlReport(
  files: readonly ProfiledFile[],
  report: PathReport,
  outDir: string,
  limit: number,
  options: CoverageOptions,
  contexts: ContextTree | null = null,
): string {
  mkdirSync(outDir, { recursive: true });
  // By build, not key: a file counted by two builds in one run has a row and a page for each.
  const coverages = new Map(files.map((f) => [f, lineCoverage(f)]));
  const pages = pageNames(files);
  const interproceduralFiles = report.interproceduralFiles ?? [];
  // The report lists the files counted per function, then those counted as interprocedural paths, in order.
  const builds = [...files.filter((f) => !f.interprocedural), ...files.filter((f) => f.interprocedural)];
  // Only files counted as interprocedural paths: no functions' figures of none, their own columns.
  const interproceduralOnly = report.files.length === 0 && interproceduralFiles.length > 0;
  if (builds.length !== report.files.length + interproceduralFiles.length)
    throw new Error('internal error: the html report was given a report of other files');
  const rows = [...report.files, ...interproceduralFiles].map((f, i) => {
    const build = builds[i];
    const summary = coverages.get(build)?.summary;
    const cell = (value: number | null, text = formatPercent(value)) =>
      `<td class="${level(value)}" data-sort="${value ?? -1}">${text}</td>`;
    // istanbul's counts, the percentage as pathprof's (n/a for 0 of 0, where istanbul says 100%).
    const istanbul = (m: keyof NonNullable<typeof summary>) => {
      if (!summary) return '<td class="none" data-sort="-1">n/a</td>';
      const { covered, total } = summary[m];
      const pct = percentOf(covered, total);
      return cell(pct, `${formatPercent(pct)} <small>${covered}/${total}</small>`);
    };
    const which = pages.get(build) === pageName(f.file) ? '' : ` <small>(${build.meta.mode} build)</small>`;
    const link = `<td data-sort="${escapeHtml(f.file)}"><a href="${pages.get(build)}">${escapeHtml(f.file)}</a>${which}</td>`;
    // istanbul's four in every mode (a file counted as interprocedural paths has a path-mode run's).
    const istanbulCells = `${istanbul('statements')}${istanbul('branches')}${istanbul('functions')}${istanbul('lines')}`;
    // A file counted as interprocedural paths has no functions' paths: its executed paths across calls instead.
    if (interproceduralOnly && !('functions' in f)) {
      const number = (n: number | string, text = groupedDigits(n)) => `<td data-sort="${n}">${text}</td>`;
      return `<tr>${link}${number(f.executedPaths)}${number(f.paths.filter(crossesCalls).length)}${number(f.pathCount)}${number(f.crossedSites)}${number(f.cutSites)}${number(f.notCrossed.length)}${istanbulCells}</tr>`;
    }
    if (!('functions' in f)) {
      const across = `${f.executedPaths} executed <small>${f.paths.filter(crossesCalls).length} across calls</small>`;
      const none = `<td data-sort="-1" title="counted in interprocedural mode: no per-function paths">–</td>`;
      return `<tr>${link}<td class="none" data-sort="-1">${across}</td>${none}${none}${istanbulCells}</tr>`;
    }
    return `<tr>${link}${cell(f.meanCoverage)}<td data-sort="${f.functions.length ? f.completeFunctions / f.functions.length : -1}">${f.completeFunctions}/${f.functions.length}</td><td data-sort="${f.potentialPaths - f.executedPaths}">${f.potentialPaths - f.executedPaths}</td>${istanbulCells}</tr>`;
  });
  const s = report.summary;
  const totals = istanbulTotals([...coverages.values()]);
  const preferential = preferentialSummary(report);
  const header = [
    'File',
    ...(interproceduralOnly
      ? ['Paths executed', 'Across calls', 'N', 'Call sites crossed', 'Cut', 'Not crossed']
      : ['Paths', 'Complete functions', 'Untaken paths']),
    'Statements',
    'Branches',
    'Functions',
    'Lines',
  ];
  const title = interproceduralOnly ? 'Paths across calls' : 'Path coverage';
  const untaken = interproceduralOnly
    ? ''
    : ' <label><input type="checkbox" id="untaken-only"> only files with untaken paths</label>';
  const index = page(
    `pathprof: ${title.toLowerCase()}`,
    `<h1>${title}</h1>
${interproceduralOnly ? '' : `<p>${counted(s.files, 'file')}, ${counted(s.functions, 'function')} (${s.completeFunctions} with every path executed): path coverage <span class="${level(s.meanCoverage)}">${formatPercent(s.meanCoverage)}</span> (mean of the functions'); pooled ${s.executedPaths} of ${counted(s.potentialPaths, 'path')} (${formatPercent(s.coverage)}). Implicit-exception paths ${s.exceptionPaths.counted ? 'counted' : 'left out'}: ${s.exceptionPaths.executedPaths} of ${s.exceptionPaths.potentialPaths} executed.${s.infeasiblePaths > 0 ? ` Infeasible paths (two decisions on one unchanging condition contradict) left out: ${s.infeasiblePaths}.` : ''}</p>`}${interprocedural(report)}
${totals}${preferential ? `<p class="preferential">${escapeHtml(preferential)}</p>` : ''}
${contexts ? `<p><a href="contexts.html">Calling contexts</a>: ${counted(contexts.calls, 'call')} in ${counted(contexts.contexts, 'context')}, as a flame graph.</p>` : ''}
<p><input type="search" id="filter" placeholder="Filter files" aria-label="Filter files">${untaken}</p>
<table class="files"><thead><tr>${header.map((h) => `<th tabindex="0" aria-sort="none">${h}</th>`).join('')}</tr></thead>
<tbody>${rows.join('\n')}</tbody></table>`,
    indexScript,
  );
  writeFileSync(join(outDir, 'index.html'), index);
  if (contexts) {
    // Calling contexts are a contexts build's: its files link to that build's page.
    const contextPages = new Map(files.filter((f) => f.contexts).map((f) => [f.key, pages.get(f)!]));
    const pageOf = (key: string) => contextPages.get(key) ?? pageName(key);
    const body = `<p><a href="index.html">All files</a></p>${flameGraphBody(contexts, files, pageOf)}`;
    writeFileSync(join(outDir, 'contexts.html'), page('pathprof: calling contexts', body, flameScript));
  }
  for (const file of files) {
    const body = filePageBody(file, coverages.get(file) as LineCoverage | null, limit, options);
    const title = pages.get(file) === pageName(file.key) ? file.key : `${file.key} (${file.meta.mode} build)`;
    writeFileSync(join(outDir, pages.get(file)!), page(`pathprof: ${title}`, body));
  }
  return join(outDir, 'index.html');
}

/** What the files counted as interprocedural paths ran, and where to see their paths; '' without such files. */
function interprocedural(report: PathReport): string {
  const reports = report.interproceduralFiles ?? [];
  if (reports.length === 0) return '';
  const executed = reports.reduce((n, r) => n + r.executedPaths, 0);
  const across = reports.reduce((n, r) => n + r.paths.filter(crossesCalls).length, 0);
  return `<p>${counted(reports.length, 'file')} counted as interprocedural paths: ${groupedDigits(executed)} ${executed === 1 ? 'path' : 'paths'} executed, ${groupedDigits(across)} of them through more than one function, drawn as call trees on each file's page. No path coverage percentage: N counts every combination of the functions' paths that crossed calls allow, feasible or not. istanbul's statements, branches, functions and lines are a path-mode run's.</p>`;
}

/** istanbul's figures over every file it could be derived for, as its own report's header gives them. */
function istanbulTotals(coverages: readonly (LineCoverage | null)[]): string {
  const known = coverages.filter((c): c is LineCoverage => c !== null);
  if (known.length === 0) return '';
  const sum = (m: 'statements' | 'branches' | 'functions' | 'lines') => {
    const covered = known.reduce((n, c) => n + c.summary[m].covered, 0);
    const total = known.reduce((n, c) => n + c.summary[m].total, 0);
    return { covered, total };
  };
  return istanbulFigures({
    statements: sum('statements'),
    branches: sum('branches'),
    functions: sum('functions'),
    lines: sum('lines'),
  });
}

function page(title: string, body: string, script = pageScript): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${pageStyle}</style></head>
<body>${body}<script>${script}</script></body></html>
`;
}

/** A file's page: its key with path separators replaced, so the site is one flat folder. */
export function pageName(key: string): string {
  return `${key.replace(/[^\w.-]/g, '_')}.html`;
}

/**
 * Each build's page: `pageName(key)` for a file counted by one build; for a file counted by several in one
 * run (the plugin's options changed between accumulated commands), one page each, named by its mode (and
 * its order among builds of that mode): `src_cart.js~interprocedural.html`. No key's page has a `~`.
 */
export function pageNames(files: readonly ProfiledFile[]): Map<ProfiledFile, string> {
  const byKey = new Map<string, ProfiledFile[]>();
  for (const file of files) byKey.set(file.key, [...(byKey.get(file.key) ?? []), file]);
  const names = new Map<ProfiledFile, string>();
  for (const [key, builds] of byKey) {
    const base = pageName(key).slice(0, -'.html'.length);
    for (const build of builds) {
      const mode = build.meta.mode;
      const same = builds.filter((b) => b.meta.mode === mode);
      const nth = same.length > 1 ? `-${same.indexOf(build) + 1}` : '';
      names.set(build, builds.length === 1 ? pageName(key) : `${base}~${mode}${nth}.html`);
    }
  }
  return names;
}
