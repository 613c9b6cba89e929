import { decodeInterproceduralPath } from '@pathprof/numbering';
import type { RefusalReason } from '@pathprof/cfg';
import type { FunctionMetadata } from 'babel-plugin-pathprof';
import { edgeDecision, formatDecision } from './decisions';
import type { ProfiledFile } from './profiled-file';
import type { TerminalStyle } from './terminal-style';
import { counted } from './counted';

/** One step of an interprocedural path, in source terms. */
export interface CallPathStep {
  /** How many crossed calls are open here, counted from the shallowest frame the path runs in. */
  readonly depth: number;
  readonly function: string;
  /** A decision, a crossed call, a cut call, the return from a call, a path (re)start, or its end. */
  readonly kind: 'decision' | 'call' | 'cut-call' | 'return' | 'restart' | 'end';
  readonly line: number;
  readonly text: string;
}

/** One executed interprocedural path, decoded. */
export interface DecodedCallPath {
  /** The path's number in the file (`[0, N)`). */
  readonly number: number;
  readonly count: number;
  /** The function the path starts in, and whether at its entry or in its middle (after a restart). */
  readonly start: { readonly function: string; readonly at: 'entry' | 'restart' };
  /** The functions it runs through, in order of first appearance. */
  readonly functions: string[];
  /**
   * How many leading steps are the context prefix: how the active suffix was reached (context scheme: up to
   * the last restart, e.g. "a later iteration of this loop", with the calls still open); 0 when none.
   */
  readonly contextLength: number;
  readonly steps: CallPathStep[];
}

/** A call of a statically known callee that paths do not cross, and why (`why`, in words). */
export interface NotCrossedCall {
  readonly caller: string;
  readonly callee: string;
  readonly line: number;
  readonly why: string;
}

/** Why a call of a statically known callee is not crossed, by the build's reason (`RefusalReason`). */
const WHY_NOT_CROSSED: Record<RefusalReason, string> = {
  async: 'an async function: its body resumes later',
  generator: 'a generator: its body resumes later',
  spread: 'spread arguments',
  parameters: 'its parameters run code before its body (defaults or destructuring)',
};

/** The interprocedural part of a file's report (`pathprof-report json`, `calls`). */
export interface InterproceduralReport {
  readonly scheme: 'piecewise' | 'context';
  /** N: how many interprocedural paths the file has (a decimal string: it can pass 2^53 in principle). */
  readonly pathCount: string;
  readonly executedPaths: number;
  /** Calls whose callee is known statically, crossed by paths or cut (recursion, path budget). */
  readonly crossedSites: number;
  readonly cutSites: number;
  /** Calls whose callee is known statically but takes no hand-off: it starts paths of its own. */
  readonly notCrossed: NotCrossedCall[];
  /** Executed paths, most frequent first. */
  readonly paths: DecodedCallPath[];
}

/** The file's interprocedural report; null for a file counted per function. */
export function interproceduralReport(file: ProfiledFile): InterproceduralReport | null {
  const ipp = file.interprocedural;
  if (!ipp) return null;
  const sites = ipp.numbering.procedures.flatMap((p) => p.callSites);
  const paths = [...ipp.counts]
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .map(([number, count]) => decodeCallPath(file, number, count));
  return {
    scheme: ipp.numbering.scheme,
    pathCount: String(ipp.numbering.pathCount),
    executedPaths: paths.length,
    crossedSites: sites.filter((s) => s.cut === null).length,
    cutSites: sites.filter((s) => s.cut !== null).length,
    notCrossed: (file.meta.interprocedural?.notCrossed ?? []).map((call) => ({
      caller: file.meta.functions[call.caller].name,
      callee: file.meta.functions[call.callee].name,
      line: call.line,
      why: WHY_NOT_CROSSED[call.why] ?? call.why,
    })),
    paths,
  };
}

/** Path `number` of a file counted in interprocedural mode, as the steps it takes through the source. */
export function decodeCallPath(file: ProfiledFile, number: number, count: number): DecodedCallPath {
  const { numbering } = file.interprocedural!;
  const decoded = decodeInterproceduralPath(numbering, BigInt(number));
  const functions = file.meta.functions;
  const entry = numbering.entryPoints[decoded.path.entryPoint];
  const steps: CallPathStep[] = [];
  let depth = 0;
  let contextLength = 0;
  const push = (fn: number, kind: CallPathStep['kind'], line: number, text: string) =>
    steps.push({ depth, function: functions[fn].name, kind, line, text });
  decoded.path.steps.forEach((step, i) => {
    const procedure = numbering.procedures[step.procedure];
    const meta = functions[step.procedure];
    if (step.kind === 'call') {
      const site = procedure.callSites[step.site];
      const [line, text] = blockCode(file, meta, site.call);
      push(step.procedure, 'call', line, `→ ${text}`);
      depth++;
    } else if (step.kind === 'return') {
      if (step.to === null) {
        push(step.procedure, 'end', meta.range[2], 'returns: the path ends');
      } else {
        depth--;
        const caller = numbering.procedures[step.to.procedure].callSites[step.to.site];
        const [line] = blockCode(file, functions[step.to.procedure], caller.call);
        push(step.to.procedure, 'return', line, `← back from ${meta.name}`);
      }
    } else {
      const { dag } = procedure;
      const kind = dag.kind[step.edge];
      if (kind === 'restart') {
        const [line, text] = blockCode(file, meta, dag.dst[step.edge]);
        push(step.procedure, 'restart', line, `starts again at ${text || `line ${line}`}`);
      } else {
        const decision = edgeDecision(meta, dag.origin[step.edge], file.source);
        if (kind === 'summary') {
          const site = procedure.callSites[dag.callSite[step.edge]];
          const [line, text] = blockCode(file, meta, site.call);
          push(step.procedure, 'cut-call', line, `→ ${text} (cut: its paths are counted on their own)`);
        } else if (decision) {
          // The step carries its line apart, as every other step does.
          push(step.procedure, 'decision', decision.line, formatDecision(decision).replace(/^L\d+ /, ''));
        }
        if (kind === 'loop-end')
          push(step.procedure, 'end', decision?.line ?? 0, 'the path ends at the back edge');
        if (kind === 'throw-end')
          push(step.procedure, 'end', decision?.line ?? 0, 'the path ends with the exception');
      }
    }
    if (i + 1 === decoded.contextLength) contextLength = steps.length;
  });
  // A piecewise path can start inside a callee and return past it: depths count from the shallowest frame.
  const shallowest = Math.min(0, ...steps.map((s) => s.depth));
  const levelled = steps.map((s) => ({ ...s, depth: s.depth - shallowest }));
  const names: string[] = [];
  for (const name of [functions[entry.procedure].name, ...steps.map((s) => s.function)])
    if (!names.includes(name)) names.push(name);
  return {
    number,
    count,
    start: {
      function: functions[entry.procedure].name,
      at: entry.kind === 'entry' && steps[0]?.kind !== 'restart' ? 'entry' : 'restart',
    },
    functions: names,
    contextLength,
    steps: levelled,
  };
}

/** The first line of a block's code, and its line number. */
function blockCode(file: ProfiledFile, meta: FunctionMetadata, block: number): [number, string] {
  const range = meta.blockRanges[block];
  if (range < 0) return [0, ''];
  const [line, column, endLine, endColumn] = meta.ranges.slice(4 * range, 4 * range + 4);
  return [line, file.source.head(line, column, endLine, endColumn)];
}

/**
 * `pathprof-report calls FILE[:FUNCTION]`: the file's hottest interprocedural paths (those through FUNCTION
 * when given), each decoded into the decisions, calls and returns it takes, indented by call depth; in the
 * context scheme the context prefix is shown apart from the active suffix.
 */
export function formatCallPaths(
  file: ProfiledFile,
  report: InterproceduralReport,
  name: string | null,
  style: TerminalStyle,
  limit: number,
): string {
  const paths = report.paths.filter((p) => name === null || p.functions.includes(name));
  // With a function, the count is of the paths listed below (those through it), out of the file's.
  const executed =
    name === null
      ? `${counted(report.executedPaths, 'interprocedural path')} executed`
      : `${paths.length} of the file's ${counted(report.executedPaths, 'executed interprocedural path')} run through ${name}`;
  const out = [
    style.bold(`${file.key}${name ? `:${name}` : ''}`) +
      `: ${executed} (${report.scheme} scheme, N = ${report.pathCount}); ` +
      `${counted(report.crossedSites, 'call site')} crossed, ${report.cutSites} cut` +
      (report.notCrossed.length > 0 ? `, ${report.notCrossed.length} not crossed:` : ''),
  ];
  // The calls a reader would expect crossed: each starts its callee's paths afresh, and says why.
  for (const call of report.notCrossed.slice(0, limit))
    out.push(style.dim(`  L${call.line} ${call.caller} → ${call.callee}: ${call.why}`));
  if (report.notCrossed.length > limit)
    out.push(style.dim(`  … and ${report.notCrossed.length - limit} more (json lists them all)`));
  for (const path of paths.slice(0, limit)) {
    const route = path.functions.join(' → ');
    const start =
      path.start.at === 'entry'
        ? `from ${path.start.function}'s entry`
        : `restarting in ${path.start.function}`;
    out.push('', `  path ${path.number}  ×${path.count}  ${route}  (${start})`);
    // The context scheme's paths are a context prefix and an active suffix; a piecewise path that restarts
    // has only its restart before the rest, which the heading already names.
    const split = report.scheme === 'context' && path.contextLength > 0;
    path.steps.forEach((step, i) => {
      if (split && i === 0) out.push(style.dim('    context:'));
      if (split && i === path.contextLength) out.push(style.dim('    active:'));
      const where = step.line > 0 ? `L${step.line} ` : '';
      out.push(`      ${'  '.repeat(step.depth)}${step.function.padEnd(12)} ${where}${step.text}`);
    });
  }
  if (paths.length > limit)
    out.push('', style.dim(`  … and ${paths.length - limit} more (--limit N shows more)`));
  if (paths.length === 0) out.push(style.dim('  no executed path runs through it'));
  return out.join('\n');
}
