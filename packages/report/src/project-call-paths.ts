import { counted, groupedDigits } from './counted';
import { crossesCalls, startOf, type InterproceduralReport } from './interprocedural-report';
import type { TerminalStyle } from './terminal-style';

/** A file counted in interprocedural mode, by its key. */
export interface KeyedCallReport {
  readonly key: string;
  readonly report: InterproceduralReport;
}

/**
 * `pathprof-report calls` without a file: what a project's interprocedural files ran, to read first (a big
 * project's hottest paths decoded ran to hundreds of lines): the files whose paths run through more than one
 * function, most such paths first, one line each; the hottest of those paths across files, one line each;
 * then the command that decodes a file's paths. `limit` of each list.
 */
export function formatProjectCallPaths(
  files: readonly KeyedCallReport[],
  style: TerminalStyle,
  limit: number,
): string {
  const crossingOf = new Map(files.map((f) => [f, f.report.paths.filter(crossesCalls)]));
  const crossing = files
    .flatMap((f) => crossingOf.get(f)!.map((path) => ({ key: f.key, path })))
    .sort((a, b) => b.path.count - a.path.count);
  const executed = files.reduce((n, { report }) => n + report.executedPaths, 0);
  const across = files
    .filter((f) => crossingOf.get(f)!.length > 0)
    .sort((a, b) => crossingOf.get(b)!.length - crossingOf.get(a)!.length);
  const alone = files.filter(({ report }) => report.crossedSites === 0).length;
  const schemes = [...new Set(files.map(({ report }) => report.scheme))].join(' and ');
  const out = [
    style.bold(`${counted(files.length, 'file')} counted in interprocedural mode`) +
      ` (${schemes} scheme): ${groupedDigits(executed)} ${executed === 1 ? 'path' : 'paths'} executed, ${groupedDigits(crossing.length)} of them through more ` +
      `than one function, in ${counted(across.length, 'file')}`,
  ];
  if (alone > 0)
    out.push(
      style.dim(
        `${counted(alone, 'file')} ${alone === 1 ? 'has' : 'have'} no crossed call (each call in ${alone === 1 ? 'it' : 'them'} goes to ` +
          `another file, a method, a callback or a callee that is not crossed): ${alone === 1 ? 'its' : 'their'} paths are per function, as in path mode`,
      ),
    );
  if (crossing.length === 0) {
    out.push('', '  no executed path runs through more than one function');
    return out.join('\n');
  }
  const more = (left: number, what: string) =>
    left > 0 ? [style.dim(`    … and ${counted(left, `more ${what}`)} (--limit N lists more)`)] : [];
  const keyWidth = Math.max(...across.slice(0, limit).map((f) => f.key.length));
  out.push('', '  files, most paths through more than one function first:');
  for (const file of across.slice(0, limit)) {
    const { key, report } = file;
    const notCrossed = report.notCrossed.length > 0 ? `, ${report.notCrossed.length} not crossed` : '';
    out.push(
      `    ${key.padEnd(keyWidth)}  ${groupedDigits(crossingOf.get(file)!.length)} of ` +
        `${groupedDigits(report.executedPaths)} ${report.executedPaths === 1 ? 'path' : 'paths'} across calls; N = ${groupedDigits(report.pathCount)}; ` +
        `${counted(report.crossedSites, 'call site')} crossed, ${report.cutSites} cut${notCrossed}`,
    );
  }
  out.push(...more(across.length - limit, 'file'));
  out.push('', '  the hottest paths through more than one function:');
  const hottest = crossing.slice(0, limit);
  const countWidth = Math.max(...hottest.map(({ path }) => groupedDigits(path.count).length));
  const pathKeyWidth = Math.max(...hottest.map(({ key }) => key.length));
  for (const { key, path } of hottest)
    out.push(
      `    ×${groupedDigits(path.count).padEnd(countWidth)}  ${key.padEnd(pathKeyWidth)}  path ${path.number}  ` +
        `${path.functions.join(' → ')}  (${startOf(path)})`,
    );
  out.push(...more(crossing.length - limit, 'path'));
  // The hottest path's function, if it can be typed as is.
  const [first] = crossing;
  const example = /^[\w$.]+$/.test(first.path.start.function)
    ? `${first.key}:${first.path.start.function}`
    : first.key;
  out.push(
    '',
    style.dim(
      `\`pathprof-report calls FILE\` decodes a file's paths into source, with its calls not crossed and why ` +
        `(FILE:FUNCTION: those through FUNCTION; --across: only those through more than one function), e.g. ` +
        `\`pathprof-report calls ${example} --across\``,
    ),
  );
  return out.join('\n');
}
