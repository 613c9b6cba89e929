import type { PathEndKind } from '@pathprof/numbering';
import { counted } from './counted';
import { functionFigures, type CoverageOptions, type FunctionFigures } from './coverage-figures';
import { decodeDecisions, formatDecision, type DecodedDecisions } from './decisions';
import { throughLine } from './function-selection';
import { firstInfeasible, formatContradiction } from './infeasible-paths';
import { closestExecuted, pathTests, testLines } from './path-tests';
import { isResidual } from './preferential-report';
import type { FunctionPaths, ProfiledFile } from './profiled-file';
import { unexecutedPaths } from './unexecuted-paths';
import type { TerminalStyle } from './terminal-style';

/** What `show` adds: a line to restrict the paths to, the tests that took each path. */
export interface ShowOptions {
  /** Only the paths through this line (see `throughLine`). */
  readonly line?: number;
  /** Under each executed path the tests that took it; under each unexecuted one the closest executed paths. */
  readonly tests?: boolean;
}

/**
 * Each executed path of a function as its decisions, with its count; then the paths no test took, with the
 * decisions a test must make to take them (at most `limit` of them: a function can have millions), among the
 * paths the figures count.
 */
export function formatFunctionPaths(
  file: ProfiledFile,
  whole: FunctionPaths,
  style: TerminalStyle,
  limit: number,
  options: CoverageOptions,
  { line, tests }: ShowOptions = {},
): string {
  const restricted = line === undefined ? whole : throughLine(whole, line);
  const fn = restricted ?? whole;
  const { meta } = fn;
  const figures = functionFigures(fn, options);
  const through =
    line === undefined
      ? ''
      : restricted
        ? `, through line ${line}`
        : ` (line ${line} runs no code of its own)`;
  const e = figures.exceptionPaths;
  const exceptions = e.counted
    ? `, implicit-exception paths among them: ${e.executedPaths} of ${e.potentialPaths}`
    : `; implicit-exception paths apart: ${e.executedPaths} of ${e.potentialPaths}`;
  const out = [
    style.bold(`${file.key}:${meta.range[0]} ${meta.name}`) +
      through +
      `: ${figures.executedPaths} of ${counted(figures.potentialPaths, 'path')} executed ` +
      `(${style.coverage(figures.coverage)})${exceptions}${idRange(fn, figures)}`,
  ];
  const decoded = (f: FunctionPaths) =>
    [...f.counts]
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .map(([id, count]) => ({ id, count, path: decodeDecisions(f, id, file.source) }));
  const executed = decoded(fn);
  // In preferential mode, each executed path says whether its interesting set names it.
  const tag = (id: number) => (fn.preferential ? (isResidual(fn, id) ? '  residual' : '  interesting') : '');
  for (const { id, count, path } of executed) {
    out.push(...pathLines(`path ${id}  ×${count}${tag(id)}`, path));
    if (tests) out.push(...takenBy(fn, id));
  }
  const shown = unexecutedPaths(fn, file.source, limit, options);
  if (shown.length) out.push('', style.yellow('  not executed:'));
  // The closest executed paths are looked for in the whole function, through the line or not.
  const candidates = tests ? (fn === whole ? executed : decoded(whole)) : [];
  for (const { id, path } of shown) {
    out.push(...pathLines(`path ${id}`, path));
    const closest = tests && closestExecuted(path, candidates);
    if (closest)
      out.push(
        `      closest: ${closest.ids.map((c) => `path ${c}`).join(', ')}, the same first ` +
          `${closest.shared === 1 ? 'decision' : `${closest.shared} decisions`}; then ${describeNext(path, closest.shared)}`,
        ...closest.ids.flatMap((c) => takenBy(whole, c, `path ${c} `)),
      );
  }
  const more = figures.potentialPaths - figures.executedPaths - shown.length;
  if (more > 0) out.push(style.dim(`  … and ${more} more not executed (--limit N shows more)`));
  if (figures.infeasiblePaths !== undefined) out.push(style.dim(infeasibleLine(file, fn, figures, options)));
  const implicit = e.potentialPaths - e.executedPaths;
  if (!e.counted && implicit > 0)
    out.push(
      style.dim(
        `  (${implicit} implicit-exception path${implicit === 1 ? '' : 's'} not executed; --implicit-exceptions lists ${implicit === 1 ? 'it' : 'them'})`,
      ),
    );
  return out.join('\n');
}

/**
 * Path ids number every path of the function, those the figures leave out too: when there are more than the
 * figures count, an id can be larger than the count the header gives (`path 8` of `3 of 5 paths`).
 */
function idRange(fn: FunctionPaths, figures: FunctionFigures): string {
  const { pathCount } = fn.numbering;
  if (pathCount <= figures.potentialPaths) return '';
  const also = [
    ...(figures.exceptionPaths.counted ? [] : ['implicit-exception']),
    ...(figures.infeasiblePaths ? ['infeasible'] : []),
  ];
  return `; path ids 0 to ${pathCount - 1} number all the function's ${pathCount} paths${also.length ? ` (${also.join(' and ')} ones too)` : ''}`;
}

/**
 * How many infeasible paths were set aside, and why one of them is: `3 infeasible paths set aside (no run can
 * take them), e.g. path 5: L9 opts → false contradicts L3 opts → true`.
 */
function infeasibleLine(
  file: ProfiledFile,
  fn: FunctionPaths,
  figures: FunctionFigures,
  options: CoverageOptions,
): string {
  const kinds: PathEndKind[] = ['return', 'throw', 'backedge', 'cut'];
  if (options.implicitExceptions) kinds.push('exception');
  const example = firstInfeasible(fn, kinds);
  const why = example
    ? `, e.g. path ${example.id}: ${formatContradiction(fn, example.edges, file.source)}`
    : '';
  const n = figures.infeasiblePaths;
  return n === null || n === undefined
    ? `  infeasible paths (decisions on one unchanging value contradict) are not listed, but the figures count them (too many conditions to count them exactly)${why}`
    : `  ${n} infeasible path${n === 1 ? '' : 's'} set aside (no run can take ${n === 1 ? 'it' : 'them'})${why}`;
}

/** The tests that took path `id`, one a line, or what is known of them. */
function takenBy(fn: FunctionPaths, id: number, which = ''): string[] {
  const known = pathTests(fn, id);
  const why = 'no test recorded: the run did not split its counts by test';
  if (!known) return [`      ${which}taken by: (${why})`];
  return testLines(known).map(
    (text, i) => `      ${i === 0 ? `${which}taken by: ` : ' '.repeat(which.length + 10)}${text}`,
  );
}

/** The decision an unexecuted path makes where the closest executed ones leave it. */
function describeNext(path: DecodedDecisions, shared: number): string {
  const next = path.decisions[shared];
  return next ? formatDecision(next) : path.description;
}

/** A path's title line, then its decisions, one per line. */
export function pathLines(title: string, path: DecodedDecisions): string[] {
  const steps = path.decisions.length
    ? path.decisions.map((d) => `      ${formatDecision(d)}`)
    : ['      (straight through)'];
  return [`  ${title}  ${path.description}`, ...steps];
}
