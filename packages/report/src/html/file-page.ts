import { decodePath } from '@pathprof/numbering';
import {
  formatPercent,
  functionFigures,
  percentOf,
  type CoverageOptions,
  type FunctionFigures,
} from '../coverage-figures';
import { counted } from '../counted';
import { decodeDecisions, edgeDecision, formatDecision, type DecodedDecisions } from '../decisions';
import { functionCounts } from '../istanbul/graph-counts';
import { closestExecuted, pathTests, testLines } from '../path-tests';
import { functionPreferential, isResidual } from '../preferential-report';
import type { FunctionPaths, ProfiledFile } from '../profiled-file';
import { unexecutedEnding, unexecutedPaths } from '../unexecuted-paths';
import { untakenDecisions } from '../untaken-decisions';
import { callTreesSection } from './call-trees';
import { BlockCode } from './block-code';
import { escapeHtml } from './escape-html';
import { graphSvg } from './graph-svg';
import type { LineCoverage } from './line-coverage';
import { sourceView } from './source-view';

/**
 * A source file's page body: its source (counts, colours, syntax; the code no run reached and the conditions
 * with an outcome no run took marked to the column) beside its functions, each with its figures, its graph and
 * its paths: executed ones with their counts and tests, then those no run took (at most `limit` of each kind)
 * with the closest executed ones; implicit-exception paths no run took are listed apart, shown by a toggle.
 * Selecting a path highlights the code it runs and where it decides, to the column, and its edges.
 */
export function filePageBody(
  file: ProfiledFile,
  coverage: LineCoverage | null,
  limit: number,
  options: CoverageOptions,
): string {
  const figures = file.functions.map((fn) => functionFigures(fn, options));
  const functions = file.functions
    .map((fn, index) => functionSection(file, fn, index, figures[index], limit, options))
    .join('\n');
  const istanbul = coverage ? istanbulFigures(coverage.summary) : '';
  // The code no run reached and the conditions with an outcome no run took, marked to the column by the script.
  const marks = coverage
    ? ` data-missed="${escapeHtml(JSON.stringify(coverage.missed))}" data-undecided="${escapeHtml(JSON.stringify(coverage.undecided))}"`
    : '';
  const implicit = options.implicitExceptions
    ? ''
    : '<label class="toggle"><input type="checkbox" id="show-implicit"> implicit-exception paths no run took</label>';
  // A file counted in interprocedural mode has no functions' paths to select, and none listed as untaken.
  const help = file.interprocedural
    ? 'Each path runs across calls, drawn as a call tree: its steps nested by call depth, each line a link to the source.'
    : `Select a path to see its lines and decisions; <kbd>n</kbd> and <kbd>p</kbd>: the next and previous path no run took. ${implicit}`;
  return `<p><a href="index.html">All files</a></p><h1>${escapeHtml(file.key)}</h1>${istanbul}
<p class="help">${help}</p>
<div class="layout"><div class="source"${marks}>${sourceView(file, coverage)}</div><div class="functions">${undecided(file)}${callTreesSection(file, limit)}${toDo(file, figures)}${functions}</div></div>`;
}

/**
 * What is left to test in a file counted in interprocedural mode, which has no functions' untaken paths: the
 * branch decisions no run took, in source order, each linked to its line, with its function ('' for other
 * files, and when it cannot be derived).
 */
function undecided(file: ProfiledFile): string {
  if (!file.interprocedural) return '';
  let items;
  try {
    items = functionCounts(file)
      .flatMap((counted) =>
        untakenDecisions(counted, file.source).map(({ decision }) => ({ decision, name: counted.meta.name })),
      )
      .sort((a, b) => a.decision.line - b.decision.line || a.decision.column - b.decision.column);
  } catch {
    return '';
  }
  if (items.length === 0) return '<nav class="todo"><h2>Every branch decision was taken</h2></nav>';
  const listed = items.map(
    ({ decision, name }) =>
      `<li><a href="#L${decision.line}">L${decision.line}</a> ${escapeHtml(formatDecision({ ...decision, line: 0 }))} <small>${escapeHtml(name)}</small></li>`,
  );
  return `<nav class="todo"><h2>Branch decisions no run took (${items.length})</h2><ul>${listed.join('')}</ul></nav>`;
}

/**
 * What is left to test in the file: its functions with untaken paths, in source order, each linked to its
 * section (`#fn-N`), with how many.
 */
function toDo(file: ProfiledFile, figures: readonly FunctionFigures[]): string {
  const items = file.functions.flatMap((fn, index) => {
    const untaken = figures[index].potentialPaths - figures[index].executedPaths;
    return untaken > 0
      ? [
          `<li><a href="#fn-${index}">${escapeHtml(fn.meta.name)}</a> <small>line ${fn.meta.range[0]}</small>: ${untaken} untaken path${untaken === 1 ? '' : 's'}</li>`,
        ]
      : [];
  });
  if (file.functions.length === 0) return '';
  return items.length
    ? `<nav class="todo"><h2>Functions with untaken paths (${items.length} of ${file.functions.length})</h2><ul>${items.join('')}</ul></nav>`
    : `<nav class="todo"><h2>Every counted path of its ${file.functions.length} functions ran</h2></nav>`;
}

type Metric = { covered: number; total: number };

/**
 * istanbul's four figures, as a line of the page (the same counts its own report and lcov give; the
 * percentage as pathprof's: `n/a` for 0 of 0, where istanbul says 100%).
 */
export function istanbulFigures(
  s: Record<'statements' | 'branches' | 'functions' | 'lines', Metric>,
): string {
  const metric = (m: Metric) => `${m.covered}/${m.total} (${formatPercent(percentOf(m.covered, m.total))})`;
  return `<p class="istanbul">As istanbul counts: statements ${metric(s.statements)}, branches ${metric(s.branches)}, functions ${metric(s.functions)}, lines ${metric(s.lines)}.</p>`;
}

function functionSection(
  file: ProfiledFile,
  fn: FunctionPaths,
  index: number,
  figures: FunctionFigures,
  limit: number,
  options: CoverageOptions,
): string {
  const executed = [...fn.counts]
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .map(([id, count]) => ({ id, count, path: decodeDecisions(fn, id, file.source) }));
  const code = new BlockCode(fn.meta, file.source);
  const item = (id: number, label: string, path: DecodedDecisions, kind: string, extra: string) =>
    pathItem(file, fn, index, code, id, label, path, kind, extra);
  // In preferential mode each executed path says whether its interesting set names it.
  const items = executed.map(({ id, count, path }) =>
    fn.preferential && isResidual(fn, id)
      ? item(id, `×${count}, residual`, path, 'executed residual', testsLine(fn, id))
      : item(id, `×${count}`, path, 'executed', testsLine(fn, id)),
  );
  const closest = (path: DecodedDecisions) => {
    const near = closestExecuted(path, executed);
    if (!near) return '';
    const links = near.ids.map((c) => `<a href="#${escapeHtml(pathId(file, index, c))}">path ${c}</a>`);
    const next = path.decisions[near.shared];
    return `<span class="closest">closest: ${links.join(', ')}, the same first ${near.shared === 1 ? 'decision' : `${near.shared} decisions`}${next ? `; then ${escapeHtml(formatDecision(next))}` : ''}</span>`;
  };
  const missing = unexecutedPaths(fn, file.source, limit, options);
  for (const { id, path } of missing) items.push(item(id, 'not executed', path, 'unexecuted', closest(path)));
  if (!options.implicitExceptions)
    for (const { id, path } of unexecutedEnding(fn, file.source, limit, [['exception']]))
      items.push(item(id, 'not executed', path, 'unexecuted implicit', closest(path)));
  const more = figures.potentialPaths - figures.executedPaths - missing.length;
  const e = figures.exceptionPaths;
  return `<section class="function" id="fn-${index}"><h2><a href="#fn-${index}">${escapeHtml(fn.meta.name)}</a> <small>line ${fn.meta.range[0]}</small></h2>
<p>${figures.executedPaths} of ${counted(figures.potentialPaths, 'path')} executed (<span class="${level(figures.coverage)}">${formatPercent(figures.coverage)}</span>)${more > 0 ? `, ${more} more not listed` : ''}; implicit-exception paths ${e.counted ? 'among them' : 'apart'}: ${e.executedPaths} of ${e.potentialPaths}</p>${preferentialLine(file, fn)}
<div id="graph-${index}">${graphSvg(fn, file.source, `g${index}`)}</div>
<ul class="paths">${items.join('\n')}</ul></section>`;
}

/** A function counted in preferential mode: how it stands to its interesting set (see `residual`). */
function preferentialLine(file: ProfiledFile, fn: FunctionPaths): string {
  const p = functionPreferential(file, fn);
  if (!p) return '';
  const text =
    p.status === 'compared'
      ? `${p.residualPaths} residual path${p.residualPaths === 1 ? '' : 's'} (taken, not in the interesting set of ${p.interestingPaths})`
      : p.status === 'changed'
        ? 'changed since the interesting set was made: counted in path mode, not compared'
        : 'not in the interesting set: every path it took is residual';
  const residual = p.status === 'compared' ? p.residualPaths > 0 : p.status === 'unlisted';
  return `<p class="preferential${residual ? ' residual' : ''}">Preferential: ${text}</p>`;
}

/** The tests that took a path, as a line under it (none when the run did not name them). */
function testsLine(fn: FunctionPaths, id: number): string {
  const known = pathTests(fn, id);
  if (!known) return '';
  return `<span class="tests">taken by: ${testLines(known).map(escapeHtml).join('; ')}</span>`;
}

/** A path's element id: `FILE-FUNCTION-PATH`, what links to a path use. */
export function pathId(file: ProfiledFile, index: number, id: number): string {
  return `${file.key}-${index}-${id}`;
}

function pathItem(
  file: ProfiledFile,
  fn: FunctionPaths,
  index: number,
  code: BlockCode,
  id: number,
  label: string,
  path: DecodedDecisions,
  kind: string,
  extra: string,
): string {
  const decoded = decodePath(fn.numbering, id);
  const lines = new Set<number>();
  for (const b of decoded.blocks) {
    const r = fn.meta.blockRanges[b];
    if (r < 0) continue;
    for (let line = fn.meta.ranges[4 * r]; line <= fn.meta.ranges[4 * r + 2]; line++) lines.add(line);
  }
  // Where it decides, to the column: the deciding code of each edge that is one of its decisions.
  const ranges = decoded.edges.flatMap((e) =>
    edgeDecision(fn.meta, e, file.source) ? code.decision(fn.meta, e) : [],
  );
  for (const [line] of ranges) lines.add(line);
  const steps = path.decisions.map((d) => escapeHtml(formatDecision(d))).join('<br>');
  const data = (name: string, value: unknown) => `data-${name}="${escapeHtml(JSON.stringify(value))}"`;
  const decisionLines = [...new Set(ranges.map(([line]) => line))];
  // The code it runs, to the column: its blocks' code without the code of blocks nested in them it skips.
  return `<li class="path ${kind}" id="${escapeHtml(pathId(file, index, id))}" data-fn="${index}" ${data(
    'lines',
    [...lines].sort((a, b) => a - b),
  )} ${data('decisions', decisionLines)} ${data('ranges', ranges)} ${data('code', code.extents(decoded.blocks))} ${data('edges', decoded.edges)} aria-selected="false">path ${id} (${label}): ${escapeHtml(path.description)}<span class="steps">${steps}</span>${extra}</li>`;
}

export function level(percent: number | null): string {
  return percent === null ? 'none' : percent >= 80 ? 'high' : percent >= 50 ? 'medium' : 'low';
}
