import { decodeInterproceduralPath, type CutReason } from '@pathprof/numbering';
import type { RefusalReason } from '@pathprof/cfg';
import type { FunctionMetadata } from 'babel-plugin-pathprof';
import { edgeDecision, formatDecision } from './decisions';
import type { ProfiledFile } from './profiled-file';
import type { TerminalStyle } from './terminal-style';
import { counted, groupedDigits } from './counted';
import { closestWords } from '@pathprof/runtime';
import { namesOf, suggestion } from './function-selection';
import {
  placeUnsplitCalls,
  UNKNOWN_CALLEE_MEANS,
  unsplitCalls,
  WHY_NOT_CROSSED,
  type PlacedCall,
} from './not-crossed-calls';

/** One step of an interprocedural path, in source terms. */
export interface CallPathStep {
  /** How many crossed calls are open here, counted from the shallowest frame the path runs in. */
  readonly depth: number;
  readonly function: string;
  /**
   * A decision, a crossed call, a cut call, a call not crossed of a statically known callee, a call whose
   * callee is not known statically (a method, a callback, another file's function, a `new`), the return from
   * a call, a path (re)start, or its end.
   */
  readonly kind:
    'decision' | 'call' | 'cut-call' | 'not-crossed-call' | 'unknown-call' | 'return' | 'restart' | 'end';
  readonly line: number;
  readonly text: string;
  /** A cut call or a call not crossed: the callee, whose paths are counted on their own, and why, in words. */
  readonly callee?: string;
  readonly why?: string;
  /** A call not crossed or of an unknown callee: the call as written (`obj.parse(s)`, `new Date(…)`). */
  readonly call?: string;
  /**
   * A call not crossed or of an unknown callee: false when the path perhaps did not make it (an exception
   * left its block, and code before the call in the block may have raised it). Such a call is placed exactly:
   * the build records the block of the caller's graph that makes it, and the path ran that block.
   */
  readonly certain?: boolean;
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

/** Why a call site is cut, by the numbering's reason (`CutReason`). */
const WHY_CUT: Record<CutReason, string> = {
  recursive: 'recursion',
  hybrid: "to keep the file's N within the plugin's maxPaths",
  'unknown-callee': 'its callee is not known',
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
    notCrossed: notCrossedCalls(file),
    paths,
  };
}

/** Path `number` of a file counted in interprocedural mode, as the steps it takes through the source. */
export function decodeCallPath(file: ProfiledFile, number: number, count: number): DecodedCallPath {
  const { numbering } = file.interprocedural!;
  const decoded = decodeInterproceduralPath(numbering, BigInt(number));
  const functions = file.meta.functions;
  const names = functionNames(file);
  const entry = numbering.entryPoints[decoded.path.entryPoint];
  const steps: CallPathStep[] = [];
  let depth = 0;
  let contextLength = 0;
  const push = (
    fn: number,
    kind: CallPathStep['kind'],
    line: number,
    text: string,
    extra: Pick<CallPathStep, 'callee' | 'why' | 'call' | 'certain'> = {},
  ) => steps.push({ depth, function: names[fn], kind, line, text, ...extra });
  const placed = placeUnsplitCalls(numbering, decoded.path.steps, file);
  let next = 0;
  decoded.path.steps.forEach((step, i) => {
    const procedure = numbering.procedures[step.procedure];
    const meta = functions[step.procedure];
    // The calls not split that the block the step leaves made, before it.
    for (; next < placed.length && placed[next].before === i; next++) {
      const { call, certain } = placed[next];
      const callee = call.callee < 0 ? undefined : names[call.callee];
      // An unknown callee's meaning is long and the same for each: the legends say it once.
      const why = call.why === 'unknown' ? 'callee not known statically' : WHY_NOT_CROSSED[call.why];
      push(
        step.procedure,
        callee === undefined ? 'unknown-call' : 'not-crossed-call',
        call.endLine,
        unsplitStep(placed[next], callee, why),
        // An unknown callee's why is its kind: json lists many such steps.
        { ...(callee === undefined ? {} : { callee, why }), call: call.text, certain },
      );
    }
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
        push(step.to.procedure, 'return', line, `← back from ${names[step.procedure]}`);
      }
    } else {
      const { dag } = procedure;
      const kind = dag.kind[step.edge];
      if (kind === 'restart') {
        // A path restarts at a loop's head after a back edge, or in a handler after an exception.
        const block = dag.dst[step.edge];
        const [line, text] = restartCode(file, meta, block);
        // A handler's first block is often a bare expression of its body (`0` of `return 0`): not quoted.
        const restart = handlers(meta).has(block)
          ? 'starts again in the handler, after an exception'
          : `starts again at the loop's next iteration${text ? `: ${text}` : ''}`;
        push(step.procedure, 'restart', line, restart);
      } else {
        const decision = edgeDecision(meta, dag.origin[step.edge], file.source);
        if (kind === 'summary') {
          const site = procedure.callSites[dag.callSite[step.edge]];
          const [line, text] = blockCode(file, meta, site.call);
          const why = site.cut === null ? 'cut' : WHY_CUT[site.cut];
          const callee = site.callee === null ? undefined : names[site.callee];
          push(
            step.procedure,
            'cut-call',
            line,
            `→ ${text}, cut (${why}); ${callee ?? 'its callee'}'s paths are counted on their own`,
            { ...(callee === undefined ? {} : { callee }), why },
          );
        } else if (decision) {
          // The step carries its line apart, as every other step does.
          push(step.procedure, 'decision', decision.line, formatDecision(decision).replace(/^L\d+ /, ''));
        }
        if (kind === 'loop-end')
          push(
            step.procedure,
            'end',
            decision?.line ?? 0,
            "the path ends; the loop's next iteration starts the next one",
          );
        if (kind === 'throw-end')
          push(step.procedure, 'end', decision?.line ?? 0, 'the path ends with the exception');
      }
    }
    if (i + 1 === decoded.contextLength) contextLength = steps.length;
  });
  // A piecewise path can start inside a callee and return past it: depths count from the shallowest frame.
  const shallowest = Math.min(0, ...steps.map((s) => s.depth));
  const levelled = steps.map((s) => ({ ...s, depth: s.depth - shallowest }));
  const through: string[] = [];
  for (const name of [names[entry.procedure], ...steps.map((s) => s.function)])
    if (!through.includes(name)) through.push(name);
  return {
    number,
    count,
    start: {
      function: names[entry.procedure],
      at: entry.kind === 'entry' && steps[0]?.kind !== 'restart' ? 'entry' : 'restart',
    },
    functions: through,
    contextLength,
    steps: levelled,
  };
}

/** A call not split as a step: the call, why not crossed, and whether the path surely made it. */
function unsplitStep(placed: PlacedCall, callee: string | undefined, why: string): string {
  const own = callee === undefined ? why : `not crossed, ${why}; ${callee}'s paths are counted on their own`;
  if (placed.certain) return `→ ${placed.call.text}, ${own}`;
  return `→ ${placed.call.text}? perhaps not made: an exception left this code, perhaps before the call; ${own}`;
}

/**
 * The calls of statically known callees that are not crossed: from the calls the build recorded with their
 * blocks, or as older builds listed them (`notCrossed`).
 */
function notCrossedCalls(file: ProfiledFile): NotCrossedCall[] {
  const names = functionNames(file);
  const older = file.meta.interprocedural?.notCrossed;
  const calls = older ?? unsplitCalls(file).filter((call) => call.callee >= 0);
  return calls.map((call) => ({
    caller: names[call.caller],
    callee: names[call.callee],
    line: call.line,
    why: WHY_NOT_CROSSED[call.why as RefusalReason] ?? call.why,
  }));
}

const namesByFile = new WeakMap<ProfiledFile, string[]>();

/**
 * The file's functions' names in paths across calls: an anonymous one with its line (`<anonymous L430>`), as
 * `show` heads it, and its column too where another starts on that line (`<anonymous L293:26>`), since a
 * file's callbacks are all `<anonymous>` and a route through two of them would read as one.
 */
function functionNames(file: ProfiledFile): string[] {
  const known = namesByFile.get(file);
  if (known) return known;
  const functions = file.meta.functions;
  const anonymous = functions.filter((fn) => fn.name === '<anonymous>');
  const names = functions.map((fn) => {
    if (fn.name !== '<anonymous>') return fn.name;
    const [line, column] = fn.range;
    const shared = anonymous.some((other) => other !== fn && other.range[0] === line);
    return `<anonymous L${line}${shared ? `:${column + 1}` : ''}>`;
  });
  namesByFile.set(file, names);
  return names;
}

/** The blocks an exceptional edge enters: the function's handlers (and its exit). */
function handlers(meta: FunctionMetadata): Set<number> {
  return new Set(meta.exceptional.map((e) => meta.edges[3 * e + 1]));
}

/** The first line of a block's code, and its line number. */
function blockCode(file: ProfiledFile, meta: FunctionMetadata, block: number): [number, string] {
  const range = meta.blockRanges[block];
  if (range < 0) return [0, ''];
  const [line, column, endLine, endColumn] = meta.ranges.slice(4 * range, 4 * range + 4);
  return [line, file.source.head(line, column, endLine, endColumn)];
}

/**
 * Where a path restarts: the block's code, or for a block with none (the head of `for (;;)` or of a loop with
 * no test) the construct that owns an edge out of it (`for (let o = 36; ; o += 36)`), not line 0.
 */
function restartCode(file: ProfiledFile, meta: FunctionMetadata, block: number): [number, string] {
  const code = blockCode(file, meta, block);
  if (code[0] > 0) return code;
  for (let e = 0; e < meta.edgeRanges.length; e++) {
    const range = meta.edgeRanges[e];
    if (meta.edges[3 * e] !== block || range < 0) continue;
    const [line, column, endLine, endColumn] = meta.ranges.slice(4 * range, 4 * range + 4);
    return [line, file.source.head(line, column, endLine, endColumn)];
  }
  return code;
}

/**
 * The functions of an interprocedural file that answer to `name` (as `show` finds them: with or without their
 * class or object, `fromISO` finds `DateTime.fromISO`), by their full names; or why none, with the closest.
 */
export function callPathFunctions(
  file: ProfiledFile,
  name: string,
): { readonly names: string[]; readonly miss?: undefined } | { readonly names: []; readonly miss: string } {
  const all = [...new Set(functionNames(file))];
  const names = all.filter((full) => namesOf(full).includes(name));
  if (names.length) return { names };
  const near = new Set(closestWords(name, all.flatMap(namesOf)));
  const meant = all.filter((full) => namesOf(full).some((n) => near.has(n)));
  return { names: [], miss: `${file.key} has no function ${name}${suggestion(meant)}` };
}

/** Whether a context-scheme path's context prefix holds calls still open when its active suffix runs. */
export function contextOpensCalls(path: DecodedCallPath): boolean {
  return path.steps.slice(0, path.contextLength).some((step) => step.kind === 'call');
}

/** Whether a path runs through more than one function: what interprocedural mode adds to path mode. */
export function crossesCalls(path: DecodedCallPath): boolean {
  return path.functions.length > 1;
}

/**
 * `pathprof-report calls FILE[:FUNCTION]`: the file's hottest interprocedural paths (through the functions
 * `names` when given, `label` being what the user asked for), each decoded into the decisions, calls and
 * returns it takes, indented by call depth; in the context scheme the context prefix is shown apart from the
 * active suffix. The calls not crossed come first, grouped by callee (those into or out of `names` alone).
 */
export function formatCallPaths(
  file: ProfiledFile,
  report: InterproceduralReport,
  selected: { readonly label: string; readonly names: readonly string[] } | null,
  style: TerminalStyle,
  limit: number,
  acrossOnly = false,
): string {
  const through = (functions: readonly string[]) =>
    selected === null || functions.some((f) => selected.names.includes(f));
  const paths = report.paths.filter((p) => through(p.functions));
  const crossing = paths.filter(crossesCalls).length;
  // --across: only the paths through more than one function, those path mode cannot show.
  const listed = acrossOnly ? paths.filter(crossesCalls) : paths;
  // With a function, the count is of the paths listed below (those through it), out of the file's.
  const executed =
    selected === null
      ? `${counted(report.executedPaths, 'interprocedural path')} executed`
      : `${paths.length} of the file's ${counted(report.executedPaths, 'executed interprocedural path')} run through ${selected.label}`;
  const notCrossed = report.notCrossed.filter((c) => through([c.caller, c.callee]));
  const out = [
    style.bold(`${file.key}${selected ? `:${selected.label}` : ''}`) +
      `: ${executed} (${report.scheme} scheme, N = ${groupedDigits(report.pathCount)}), ${crossing} of them through more than one function; ` +
      // The call sites are the file's, with a function too.
      `${selected ? 'in the file, ' : ''}${counted(report.crossedSites, 'call site')} crossed, ${report.cutSites} cut` +
      (report.notCrossed.length > 0 ? `, ${report.notCrossed.length} not crossed` : ''),
    ...formatNotCrossed(notCrossed, style, limit),
  ];
  if (listed.length > 0) out.push('', style.dim(PATH_LEGEND));
  for (const path of listed.slice(0, limit)) out.push('', ...formatCallPath(path, report.scheme, style));
  const more = listed.length > limit ? `  … and ${listed.length - limit} more (--limit N shows more)` : '';
  // The hottest paths are often a helper's alone: say how to list those across calls only.
  const across =
    !acrossOnly && crossing > 0 && crossing < paths.length
      ? '--across lists only those through more than one function'
      : '';
  if (more || across) out.push('', style.dim(more && across ? `${more}; ${across}` : more || `  ${across}`));
  if (listed.length === 0)
    out.push(
      style.dim(
        acrossOnly
          ? '  no executed path through it runs through more than one function'
          : '  no executed path runs through it',
      ),
    );
  return out.join('\n');
}

/** The calls not crossed into one callee for one reason: its callers, each with the line of each of its calls. */
export interface NotCrossedCallee {
  readonly callee: string;
  readonly why: string;
  readonly callers: ReadonlyMap<string, readonly number[]>;
}

/** The calls not crossed, grouped by callee and reason, in order of first appearance. */
export function notCrossedByCallee(calls: readonly NotCrossedCall[]): NotCrossedCallee[] {
  const groups = new Map<string, { callee: string; why: string; callers: Map<string, number[]> }>();
  for (const call of calls) {
    const key = `${call.callee}\0${call.why}`;
    const group = groups.get(key) ?? { callee: call.callee, why: call.why, callers: new Map() };
    groups.set(key, group);
    const lines = group.callers.get(call.caller) ?? [];
    group.callers.set(call.caller, lines);
    lines.push(call.line);
  }
  return [...groups.values()];
}

/** Where a callee not crossed is called: `total L6 ×2, L7; other L10` (×2: two calls on the line). */
export function notCrossedWhere(group: NotCrossedCallee): string {
  const where = [...group.callers].map(([caller, lines]) => {
    const calls = new Map<number, number>();
    for (const line of lines) calls.set(line, (calls.get(line) ?? 0) + 1);
    return `${caller} ${[...calls].map(([line, n]) => (n > 1 ? `L${line} ×${n}` : `L${line}`)).join(', ')}`;
  });
  return where.join('; ');
}

/** The context scheme's two parts of a path, in words. */
const CONTEXT_MEANS = 'how the part below was reached (its calls still open; counted as part of this path)';
const ACTIVE_MEANS = 'what ran from there to where the path ends';

/** How to read a listed path, for someone who has never met a path number. */
const PATH_LEGEND =
  '  path P ×C: the path numbered P of the file (0 to N − 1, as in json), taken C times; each step is a ' +
  'function, a line and what ran there, indented one level inside each crossed call; a call whose callee is ' +
  `not known statically is a step where the path made it: ${UNKNOWN_CALLEE_MEANS}`;

/** What a call not crossed does, for a reader who expected its callee inside the caller's paths. */
export const NOT_CROSSED_MEANS =
  "each such call starts the callee's paths afresh at its entry; the caller's path goes on after it";

/**
 * The calls not crossed, one line per callee and reason, with the callers and lines of its calls: each of them
 * starts the callee's paths afresh, counted on their own.
 */
function formatNotCrossed(calls: readonly NotCrossedCall[], style: TerminalStyle, limit: number): string[] {
  if (calls.length === 0) return [];
  const groups = notCrossedByCallee(calls);
  const out = [style.dim(`  not crossed (${NOT_CROSSED_MEANS}):`)];
  for (const group of groups.slice(0, limit))
    out.push(style.dim(`    ${group.callee} called in ${notCrossedWhere(group)}: ${group.why}`));
  if (groups.length > limit)
    out.push(style.dim(`    … and ${groups.length - limit} more callees (json lists every call)`));
  return out;
}

/** Where a path starts, as its heading says. */
export function startOf(path: DecodedCallPath): string {
  return path.start.at === 'entry'
    ? `from ${path.start.function}'s entry`
    : `restarting in ${path.start.function}`;
}

/** One path: its heading, then its steps, the function column as wide as its names. */
function formatCallPath(
  path: DecodedCallPath,
  scheme: InterproceduralReport['scheme'],
  style: TerminalStyle,
): string[] {
  const out = [`  path ${path.number}  ×${path.count}  ${path.functions.join(' → ')}  (${startOf(path)})`];
  // The context scheme's paths are a context prefix and an active suffix. A prefix that opens no call (a
  // piecewise path's, or a restart in the function the path starts in) is only the restart the heading names.
  const split = scheme === 'context' && contextOpensCalls(path);
  const width = Math.max(...path.functions.map((f) => f.length));
  const line = (step: CallPathStep) =>
    `      ${'  '.repeat(step.depth)}${step.function.padEnd(width)}  ${step.line > 0 ? `L${step.line} ` : ''}${step.text}`;
  const [context, active] = foldedParts(path);
  if (split) out.push(style.dim(`    context: ${CONTEXT_MEANS}`), ...context.map(line));
  else out.push(...context.map(line));
  if (split) out.push(style.dim(`    active: ${ACTIVE_MEANS}`));
  out.push(...active.map(line));
  return out;
}

/** A path's context prefix and active suffix (all of it when none), each with its unmatched cases folded. */
export function foldedParts(path: DecodedCallPath): [CallPathStep[], CallPathStep[]] {
  return [
    foldCallRuns(foldUnmatchedCases(path.steps.slice(0, path.contextLength))),
    foldCallRuns(foldUnmatchedCases(path.steps.slice(path.contextLength))),
  ];
}

/** The most calls not split shown in a row: of more (an object built of calls), all but one, then a count. */
const CALLS_IN_A_ROW = 8;

const isUnsplitCall = (s: CallPathStep) => s.kind === 'not-crossed-call' || s.kind === 'unknown-call';

/**
 * Calls not split in a row, folded so that they do not swamp a path's listing: the same call made again and
 * again (`this.push(x)`) as one step, `this.push(x) ×4`; of a longer run of calls, the first
 * `CALLS_IN_A_ROW - 1`, then one step saying how many more (json lists each).
 */
export function foldCallRuns(steps: readonly CallPathStep[]): CallPathStep[] {
  const same = (a: CallPathStep, b: CallPathStep) =>
    isUnsplitCall(a) &&
    a.text === b.text &&
    a.kind === b.kind &&
    a.function === b.function &&
    a.depth === b.depth;
  // Each step with how many calls it stands for.
  const repeated: { step: CallPathStep; calls: number }[] = [];
  for (let i = 0; i < steps.length;) {
    let j = i + 1;
    while (j < steps.length && same(steps[i], steps[j])) j++;
    const step = steps[i];
    const text = step.text.replace(`→ ${step.call}`, `→ ${step.call} ×${j - i}`);
    repeated.push({ step: j - i > 1 ? { ...step, text } : step, calls: j - i });
    i = j;
  }
  const out: CallPathStep[] = [];
  for (let i = 0; i < repeated.length;) {
    const first = repeated[i].step;
    let j = i;
    while (
      j < repeated.length &&
      isUnsplitCall(repeated[j].step) &&
      repeated[j].step.function === first.function &&
      repeated[j].step.depth === first.depth
    )
      j++;
    if (j - i <= CALLS_IN_A_ROW) {
      for (let k = i; k < Math.max(j, i + 1); k++) out.push(repeated[k].step);
      i = Math.max(j, i + 1);
      continue;
    }
    for (let k = i; k < i + CALLS_IN_A_ROW - 1; k++) out.push(repeated[k].step);
    const rest = repeated.slice(i + CALLS_IN_A_ROW - 1, j);
    const calls = rest.reduce((n, r) => n + r.calls, 0);
    const perhaps = rest.some((r) => r.step.certain === false);
    const { step } = rest[0];
    out.push({
      ...step,
      text: `… and ${calls} more calls not crossed, to L${rest[rest.length - 1].step.line}${perhaps ? ', some perhaps not made' : ''} (json lists each)`,
      ...(perhaps ? { certain: false } : {}),
    });
    i = j;
  }
  return out;
}

const UNMATCHED = ' → does not match';

/**
 * Runs of three or more `case` tests of one switch that do not match, each folded into one step (a switch
 * reaching its 49th case took 49 lines): `case "G": … case "z": → none of these 49 cases matches (L76–L182)`.
 */
export function foldUnmatchedCases(steps: readonly CallPathStep[]): CallPathStep[] {
  const unmatched = (s: CallPathStep) =>
    s.kind === 'decision' && s.text.startsWith('case ') && s.text.endsWith(UNMATCHED);
  const out: CallPathStep[] = [];
  for (let i = 0; i < steps.length;) {
    let j = i;
    while (
      j < steps.length &&
      unmatched(steps[j]) &&
      steps[j].function === steps[i].function &&
      steps[j].depth === steps[i].depth
    )
      j++;
    if (j - i < 3) {
      out.push(...steps.slice(i, Math.max(j, i + 1)));
      i = Math.max(j, i + 1);
      continue;
    }
    const [first, last] = [steps[i], steps[j - 1]];
    const test = (s: CallPathStep) => s.text.slice(0, -UNMATCHED.length);
    out.push({
      ...first,
      text: `${test(first)} … ${test(last)} → none of these ${j - i} cases matches (L${first.line}–L${last.line})`,
    });
    i = j;
  }
  return out;
}
