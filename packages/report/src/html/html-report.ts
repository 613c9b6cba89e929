import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodePath } from '@pathprof/numbering';
import { formatPercent, functionFigures, type CoverageOptions } from '../coverage-figures';
import { decodeDecisions, formatDecision, type DecodedDecisions } from '../decisions';
import type { PathReport } from '../path-report';
import type { FunctionPaths, ProfiledFile } from '../profiled-file';
import { unexecutedPaths } from '../unexecuted-paths';
import { callTreesSection } from './call-trees';
import { escapeHtml } from './escape-html';
import { graphSvg } from './graph-svg';
import { pageScript } from './page-script';
import { pageStyle } from './page-style';

/**
 * `html`: a static site in `outDir`: `index.html` with the files table, and per source file a page with its
 * source, its functions, their executed and unexecuted paths (selecting one highlights its lines and
 * decisions) and each function's graph with hot edges. Returns the path of `index.html`.
 */
export function writeHtmlReport(
  files: readonly ProfiledFile[],
  report: PathReport,
  outDir: string,
  limit: number,
  options: CoverageOptions,
): string {
  mkdirSync(outDir, { recursive: true });
  const rows = report.files.map((f) => {
    const href = pageName(f.file);
    return `<tr><td><a href="${href}">${escapeHtml(f.file)}</a></td><td>${f.functions.length}</td><td>${f.completeFunctions}</td><td>${f.potentialPaths}</td><td>${f.executedPaths}</td><td class="${level(f.meanCoverage)}">${formatPercent(f.meanCoverage)}</td></tr>`;
  });
  const s = report.summary;
  const index = page(
    'pathprof: path coverage',
    `<h1>Path coverage</h1>
<p>${s.files} files, ${s.functions} functions (${s.completeFunctions} with every path executed): path coverage <span class="${level(s.meanCoverage)}">${formatPercent(s.meanCoverage)}</span> (mean of the functions'); pooled ${s.executedPaths} of ${s.potentialPaths} paths (${formatPercent(s.coverage)}). Implicit-exception paths ${s.exceptionPaths.counted ? 'counted' : 'left out'}: ${s.exceptionPaths.executedPaths} of ${s.exceptionPaths.potentialPaths} executed.</p>
<table class="files"><thead><tr><th>File</th><th>Functions</th><th>Complete</th><th>Paths</th><th>Executed</th><th>Coverage</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table>`,
  );
  writeFileSync(join(outDir, 'index.html'), index);
  for (const file of files) writeFileSync(join(outDir, pageName(file.key)), filePage(file, limit, options));
  return join(outDir, 'index.html');
}

function filePage(file: ProfiledFile, limit: number, options: CoverageOptions): string {
  const source = file.source.lines
    .map(
      (text, i) =>
        `<span class="line" id="L${i + 1}"><span class="n">${i + 1}</span>${escapeHtml(text)}</span>`,
    )
    .join('');
  const functions = file.functions
    .map((fn, index) => functionSection(file, fn, index, limit, options))
    .join('\n');
  return page(
    `pathprof: ${file.key}`,
    `<p><a href="index.html">All files</a></p><h1>${escapeHtml(file.key)}</h1>
<div class="layout"><div class="source">${source}</div><div class="functions">${callTreesSection(file, limit)}${functions}</div></div>`,
  );
}

function functionSection(
  file: ProfiledFile,
  fn: FunctionPaths,
  index: number,
  limit: number,
  options: CoverageOptions,
): string {
  const figures = functionFigures(fn, options);
  const executed = [...fn.counts]
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .map(([id, count]) =>
      pathItem(fn, index, id, `×${count}`, decodeDecisions(fn, id, file.source), file, false),
    );
  const missing = unexecutedPaths(fn, file.source, limit, options).map(({ id, path }) =>
    pathItem(fn, index, id, 'not executed', path, file, true),
  );
  return `<section class="function"><h2>${escapeHtml(fn.meta.name)} <small>line ${fn.meta.range[0]}</small></h2>
<p>${figures.executedPaths} of ${figures.potentialPaths} paths executed (<span class="${level(figures.coverage)}">${formatPercent(figures.coverage)}</span>); implicit-exception paths ${figures.exceptionPaths.counted ? 'among them' : 'apart'}: ${figures.exceptionPaths.executedPaths} of ${figures.exceptionPaths.potentialPaths}</p>
<div id="graph-${index}">${graphSvg(fn)}</div>
<ul class="paths">${[...executed, ...missing].join('\n')}</ul></section>`;
}

function pathItem(
  fn: FunctionPaths,
  index: number,
  id: number,
  label: string,
  path: DecodedDecisions,
  file: ProfiledFile,
  unexecuted: boolean,
): string {
  const decoded = decodePath(fn.numbering, id);
  const lines = new Set<number>();
  for (const b of decoded.blocks) {
    const r = fn.meta.blockRanges[b];
    if (r < 0) continue;
    for (let line = fn.meta.ranges[4 * r]; line <= fn.meta.ranges[4 * r + 2]; line++) lines.add(line);
  }
  const decisionLines = [...new Set(path.decisions.map((d) => d.line).filter((n) => n > 0))];
  for (const n of decisionLines) lines.add(n);
  const steps = path.decisions.map((d) => escapeHtml(formatDecision(d))).join('<br>');
  const data = (name: string, value: unknown) => `data-${name}="${escapeHtml(JSON.stringify(value))}"`;
  return `<li class="path${unexecuted ? ' unexecuted' : ''}" id="${escapeHtml(`${file.key}-${index}-${id}`)}" data-fn="${index}" ${data(
    'lines',
    [...lines].sort((a, b) => a - b),
  )} ${data('decisions', decisionLines)} ${data('edges', decoded.edges)} aria-selected="false">path ${id} (${label}): ${escapeHtml(path.description)}<span class="steps">${steps}</span></li>`;
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${pageStyle}</style></head>
<body>${body}<script>${pageScript}</script></body></html>
`;
}

/** A file's page: its key with path separators replaced, so the site is one flat folder. */
function pageName(key: string): string {
  return `${key.replace(/[^\w.-]/g, '_')}.html`;
}

function level(percent: number | null): string {
  return percent === null ? 'none' : percent >= 80 ? 'high' : percent >= 50 ? 'medium' : 'low';
}
