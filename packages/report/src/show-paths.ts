import { functionFigures, type CoverageOptions } from './coverage-figures';
import { decodeDecisions, formatDecision, type DecodedDecisions } from './decisions';
import { throughLine } from './function-selection';
import type { FunctionPaths, ProfiledFile } from './profiled-file';
import { unexecutedPaths } from './unexecuted-paths';
import type { TerminalStyle } from './terminal-style';

/**
 * Each executed path of a function as its decisions, with its count; then the paths no test took, with the
 * decisions a test must make to take them (at most `limit` of them: a function can have millions), among the
 * paths the figures count. Given a `line`, only the paths through it (see `throughLine`).
 */
export function formatFunctionPaths(
  file: ProfiledFile,
  whole: FunctionPaths,
  style: TerminalStyle,
  limit: number,
  options: CoverageOptions,
  line?: number,
): string {
  const restricted = line === undefined ? whole : throughLine(whole, line);
  const fn = restricted ?? whole;
  const { meta, counts } = fn;
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
      `: ${figures.executedPaths} of ${figures.potentialPaths} paths executed ` +
      `(${style.coverage(figures.coverage)})${exceptions}`,
  ];
  const executed = [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  for (const [id, count] of executed)
    out.push(...pathLines(`path ${id}  ×${count}`, decodeDecisions(fn, id, file.source)));
  const shown = unexecutedPaths(fn, file.source, limit, options);
  if (shown.length) out.push('', style.yellow('  not executed:'));
  for (const { id, path } of shown) out.push(...pathLines(`path ${id}`, path));
  const more = figures.potentialPaths - figures.executedPaths - shown.length;
  if (more > 0) out.push(style.dim(`  … and ${more} more not executed (--limit N shows more)`));
  const implicit = e.potentialPaths - e.executedPaths;
  if (!e.counted && implicit > 0)
    out.push(
      style.dim(`  (${implicit} implicit-exception paths not executed; --implicit-exceptions lists them)`),
    );
  return out.join('\n');
}

function pathLines(title: string, path: DecodedDecisions): string[] {
  const steps = path.decisions.length
    ? path.decisions.map((d) => `      ${formatDecision(d)}`)
    : ['      (straight through)'];
  return [`  ${title}  ${path.description}`, ...steps];
}
