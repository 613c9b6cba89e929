import type { InterproceduralNumbering, PathStep } from '@pathprof/numbering';
import type { RefusalReason } from '@pathprof/cfg';
import type { ProfiledFile } from './profiled-file';

/** Why a call of a statically known callee is not crossed, by the build's reason (`RefusalReason`). */
export const WHY_NOT_CROSSED: Record<RefusalReason, string> = {
  async: 'an async function: its body resumes later',
  generator: 'a generator: its body resumes later',
  spread: 'spread arguments',
  parameters:
    'its parameters run code before the callee can take the path (destructuring; older builds also refused defaults)',
};

/**
 * A call not crossed (`notCrossed` of the file's metadata, in its order) and where it can run in its caller.
 * Such calls are not split into call vertices: the metadata gives their line, and the block the call runs in
 * is one of `blocks`, the caller's blocks whose code extent holds the call's position (the column, found in
 * the source, when the line has exactly as many `callee(` as the metadata lists calls; else the line).
 */
export interface NotCrossedSite {
  readonly caller: number;
  readonly callee: number;
  readonly line: number;
  /** The call as written (`scale(x)`), or the callee's name and `(…)` when its column is not known. */
  readonly text: string;
  readonly why: RefusalReason;
  readonly blocks: readonly number[];
}

const sitesByFile = new WeakMap<ProfiledFile, NotCrossedSite[]>();

/** The file's calls not crossed, each with the caller's blocks it can run in. */
export function notCrossedSites(file: ProfiledFile): NotCrossedSite[] {
  const known = sitesByFile.get(file);
  if (known) return known;
  const calls = file.meta.interprocedural?.notCrossed ?? [];
  const functions = file.meta.functions;
  // The calls of one caller to one callee on one line, in source order (the build's order).
  const same = (a: (typeof calls)[number], b: (typeof calls)[number]) =>
    a.caller === b.caller && a.callee === b.callee && a.line === b.line;
  const sites = calls.map((call) => {
    const columns = callColumns(file, call.caller, functions[call.callee].name, call.line);
    const nth = calls.filter((c) => same(c, call)).indexOf(call);
    const column = columns.length === calls.filter((c) => same(c, call)).length ? columns[nth] : null;
    const short = functions[call.callee].name.split('.').pop()!;
    return {
      caller: call.caller,
      callee: call.callee,
      line: call.line,
      text: column === null ? `${short}(…)` : callText(file.source.lines[call.line - 1], column),
      why: call.why,
      blocks: blocksAt(file, call.caller, call.line, column),
    };
  });
  sitesByFile.set(file, sites);
  return sites;
}

/**
 * Where `name(` (or `.name(`, `name?.(`) starts on `line` in the caller's own code (not in a function nested in
 * it): the columns of the name. A comment or a string holding `name(` adds one, so callers check the count.
 */
function callColumns(file: ProfiledFile, caller: number, fullName: string, line: number): number[] {
  const name = fullName.split('.').pop()!;
  if (!/^[\w$]+$/.test(name)) return [];
  const text = file.source.lines[line - 1] ?? '';
  const pattern = new RegExp(`(?<![\\w$])${name.replace(/\$/g, '\\$')}\\s*(?:\\?\\.\\s*)?\\(`, 'g');
  const columns: number[] = [];
  for (const match of text.matchAll(pattern))
    if (innermostFunction(file, line, match.index) === caller) columns.push(match.index);
  return columns;
}

/** The function whose code holds a position: the one of latest start among those whose extent holds it. */
function innermostFunction(file: ProfiledFile, line: number, column: number): number {
  let innermost = -1;
  file.meta.functions.forEach((fn, i) => {
    const [l, c, el, ec] = fn.range;
    if (!holds(l, c, el, ec, line, column)) return;
    const [il, ic] = innermost < 0 ? [0, -1] : file.meta.functions[innermost].range;
    if (l > il || (l === il && c >= ic)) innermost = i;
  });
  return innermost;
}

function holds(l: number, c: number, el: number, ec: number, line: number, column: number): boolean {
  return (l < line || (l === line && c <= column)) && (line < el || (line === el && column < ec));
}

/** The end (exclusive) of the call whose name starts at `column`: its closing parenthesis on the line, if any. */
function callEnd(text: string, column: number): number | null {
  let depth = 0;
  for (let i = text.indexOf('(', column); i >= 0 && i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return i + 1;
  }
  return null;
}

/** The call's text from its name to its closing parenthesis on the line (cut as decisions quote code). */
function callText(text: string, column: number): string {
  const end = callEnd(text, column);
  const call = end === null ? `${text.slice(column).trimEnd()}…)` : text.slice(column, end);
  return call.length > 60 ? `${call.slice(0, 59)}…` : call;
}

/**
 * The caller's blocks the call at `column` of `line` can run in (`column` null: any block with code on the
 * line). Each block's extent spans the code it runs, so the one the call runs in holds the call; others can
 * too (a switch case's test spans its case). When the call is a plain name and its text is plain (no quote
 * or slash that could hold a parenthesis), its extent is known: a block spanning exactly it ran it (only the
 * call, or a statement ending with it in the same block, ends where the call ends).
 */
function blocksAt(file: ProfiledFile, caller: number, line: number, column: number | null): number[] {
  const meta = file.meta.functions[caller];
  const extents = meta.blockRanges.map((range) =>
    range < 0 ? null : meta.ranges.slice(4 * range, 4 * range + 4),
  );
  const blocks: number[] = [];
  extents.forEach((extent, block) => {
    if (!extent) return;
    const [l, c, el, ec] = extent;
    if (column === null ? l <= line && line <= el : holds(l, c, el, ec, line, column)) blocks.push(block);
  });
  if (column === null) return blocks;
  const text = file.source.lines[line - 1] ?? '';
  const end = callEnd(text, column);
  const plain =
    end !== null && !/[.?]\s*$/.test(text.slice(0, column)) && !/['"`/]/.test(text.slice(column, end));
  if (!plain) return blocks;
  const exact = blocks.filter((b) => {
    const [l, c, el, ec] = extents[b]!;
    return l === line && c === column && el === line && ec === end;
  });
  return exact.length === 1 ? exact : blocks;
}

/**
 * A call not crossed on a decoded path: shown before the path's step `before` (the step that leaves the last
 * of its blocks), `certain` unless an exception left one of its blocks before the block's end (before or
 * after the call).
 */
export interface PlacedCall {
  readonly site: NotCrossedSite;
  readonly before: number;
  readonly certain: boolean;
}

/**
 * The calls not crossed that a path's steps run through (`steps` of a decoded interprocedural path): for each
 * activation of a function on the path, the blocks it ran, then each of its calls not crossed all of whose
 * blocks it ran (the call's is one of them), before the step that leaves the last of them; calls in the same
 * place in source order. A call only some of whose blocks ran is left out: the path may not have run it.
 */
export function placeNotCrossed(
  numbering: InterproceduralNumbering,
  steps: readonly PathStep[],
  sites: readonly NotCrossedSite[],
): PlacedCall[] {
  if (sites.length === 0) return [];
  // Per activation of a function on the path: the step leaving each block it ran, and the blocks an
  // exception left before their end.
  interface Activation {
    readonly procedure: number;
    readonly left: Map<number, number>;
    readonly thrown: Set<number>;
  }
  const activation = (procedure: number): Activation => ({ procedure, left: new Map(), thrown: new Set() });
  const activations: Activation[] = [];
  const open: Activation[] = [];
  let current: Activation | null = null;
  const enter = (procedure: number) => {
    current = activation(procedure);
    activations.push(current);
    return current;
  };
  steps.forEach((step, i) => {
    const here: Activation = current ?? enter(step.procedure);
    if (step.kind === 'edge') {
      const { dag } = numbering.procedures[step.procedure];
      here.left.set(dag.src[step.edge], i);
      const kind = dag.kind[step.edge];
      if (kind === 'exception' || kind === 'throw-end') here.thrown.add(dag.src[step.edge]);
    } else if (step.kind === 'call') {
      // The call vertex runs nothing but the crossed call; its extent can hold a call in its arguments.
      here.left.set(numbering.procedures[step.procedure].callSites[step.site].call, i);
      open.push(here);
      current = null;
    } else if (step.to !== null) {
      // A piecewise path can return past the function it started in: its caller's activation starts here.
      current = open.pop() ?? enter(step.to.procedure);
    }
  });
  const placed: PlacedCall[] = [];
  for (const { procedure, left, thrown } of activations) {
    for (const site of sites) {
      if (site.caller !== procedure) continue;
      if (site.blocks.length === 0 || !site.blocks.every((b) => left.has(b))) continue;
      const before = Math.max(...site.blocks.map((b) => left.get(b)!));
      placed.push({ site, before, certain: !site.blocks.some((b) => thrown.has(b)) });
    }
  }
  return placed.sort((a, b) => a.before - b.before);
}
