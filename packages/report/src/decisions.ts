import { EdgeKind, edgeKindName } from '@pathprof/cfg';
import { decodePath, type PathEndKind } from '@pathprof/numbering';
import type { FunctionMetadata } from 'babel-plugin-pathprof';
import type { FunctionPaths } from './profiled-file';
import type { SourceText } from './source-text';

/** One choice a path makes, in source terms: `L12 x > 0 → true`. */
export interface Decision {
  readonly line: number;
  readonly column: number;
  /** The edge kind (`edgeKindName`): `true`, `case`, `loop-back`, `return`, `exception`, … */
  readonly kind: string;
  /** The code that decides, from the current source (first line, trimmed); empty for exceptions. */
  readonly code: string;
  /** What happened there, in words. */
  readonly outcome: string;
}

/**
 * Where a path starts and ends. A loop makes several paths per activation (Ball & Larus cut the back edge):
 * from entry into the first iteration, one iteration from the loop head back to it, and from the loop head
 * out of the loop. `end` is `PathEndKind`: `throw` for an exception a `throw` on the path raised, `exception`
 * for an implicit one.
 */
export interface PathShape {
  readonly start: 'entry' | 'loop-head' | 'after-cut';
  readonly end: PathEndKind;
  readonly description: string;
}

export interface DecodedDecisions extends PathShape {
  readonly decisions: Decision[];
}

/** What taking an edge of each deciding kind means; other kinds (entry, plain sequencing) are not shown. */
const outcomes: Partial<Record<EdgeKind, string>> = {
  [EdgeKind.True]: 'true',
  [EdgeKind.False]: 'false',
  [EdgeKind.Nullish]: 'null or undefined',
  [EdgeKind.NotNullish]: 'not null or undefined',
  [EdgeKind.CaseMatch]: 'matches',
  [EdgeKind.CaseMiss]: 'does not match',
  [EdgeKind.Default]: 'no case matches: default',
  [EdgeKind.Fallthrough]: 'falls through to the next case',
  [EdgeKind.LoopBack]: 'loop: next iteration',
  [EdgeKind.Next]: 'loop: next item',
  [EdgeKind.Done]: 'loop: done, leaves the loop',
  [EdgeKind.Break]: 'break',
  [EdgeKind.Continue]: 'continue',
  [EdgeKind.Return]: 'return',
  [EdgeKind.Throw]: 'throw',
  [EdgeKind.Exception]: 'throws',
  [EdgeKind.FinallyExit]: 'leaves finally',
  [EdgeKind.Resume]: 'resumed by next()',
  [EdgeKind.YieldReturn]: 'finished by return() at yield',
  [EdgeKind.Interrupt]: 'interrupted',
  [EdgeKind.DefaultValue]: 'value undefined: default used',
  [EdgeKind.ValuePresent]: 'value present: default skipped',
};

/** Path `pathNumber` of a function as the decisions it takes (entry and plain sequencing left out). */
export function decodeDecisions(fn: FunctionPaths, pathNumber: number, source: SourceText): DecodedDecisions {
  const decoded = decodePath(fn.numbering, pathNumber);
  const decisions: Decision[] = [];
  for (const e of decoded.edges) {
    const decision = edgeDecision(fn.meta, e, source);
    if (decision) decisions.push(decision);
  }
  const start =
    decoded.start.kind === 'entry'
      ? 'entry'
      : decoded.start.candidates.some((c) => c.kind === 'backedge')
        ? 'loop-head'
        : 'after-cut';
  return { ...shape(start, fn.ends.kindOf(decoded)), decisions };
}

/**
 * Where taking edge `e` decides, `[line, column, endLine, endColumn]`: the construct that owns it (the
 * condition, the `case`, the `return`), or its block for an exception (it leaves from somewhere in there) and
 * for a `default` edge (it belongs to the switch's last test; the default's code is where it goes); null when
 * there is none.
 */
export function decisionExtent(meta: FunctionMetadata, e: number): number[] | null {
  const kind = meta.edges[3 * e + 2] as EdgeKind;
  const blockSide = kind === EdgeKind.Default ? meta.edges[3 * e + 1] : meta.edges[3 * e];
  const own = meta.edgeRanges[e];
  const range = kind === EdgeKind.Default || own < 0 ? meta.blockRanges[blockSide] : own;
  return range < 0 ? null : meta.ranges.slice(4 * range, 4 * range + 4);
}

/** Taking edge `e` of a function as a decision in source terms; null for edges that decide nothing. */
export function edgeDecision(meta: FunctionMetadata, e: number, source: SourceText): Decision | null {
  const kind = meta.edges[3 * e + 2] as EdgeKind;
  const outcome = outcomes[kind];
  if (!outcome) return null;
  const own = meta.edgeRanges[e];
  const [line, column, endLine, endColumn] = decisionExtent(meta, e) ?? [0, 0, 0, 0];
  // A return edge owned by the function itself is the implicit return at its end.
  const implicitReturn = kind === EdgeKind.Return && rangeKey(meta.ranges, own) === meta.range.join(':');
  const quoted = own >= 0 && kind !== EdgeKind.Default && !implicitReturn;
  return {
    line: implicitReturn ? endLine : line,
    column,
    kind: edgeKindName(kind),
    code: quoted ? source.head(line, column, endLine, endColumn) : '',
    outcome: implicitReturn ? 'reaches the end of the function' : outcome,
  };
}

function shape(start: PathShape['start'], end: PathShape['end']): PathShape {
  const from = { entry: 'entry', 'loop-head': 'loop head', 'after-cut': 'a cut edge' }[start];
  const to = {
    return: 'return',
    throw: 'a throw',
    exception: 'an exception',
    backedge: 'the loop head (one more iteration)',
    cut: 'a cut edge (path budget)',
  }[end];
  const what =
    start === 'entry' && end === 'backedge'
      ? 'entering the loop: '
      : start === 'loop-head' && end === 'backedge'
        ? 'one loop iteration: '
        : start === 'loop-head'
          ? 'leaving the loop: '
          : '';
  return { start, end, description: `${what}${from} → ${to}` };
}

const jumps = new Set(['return', 'break', 'continue', 'throw']);

function rangeKey(ranges: readonly number[], index: number): string {
  return index < 0 ? '' : ranges.slice(4 * index, 4 * index + 4).join(':');
}

/** `L12 x > 0 → true`. */
export function formatDecision(d: Decision): string {
  const where = d.line > 0 ? `L${d.line} ` : '';
  // A jump (`return x;`, `break;`) says what it does itself.
  if (jumps.has(d.kind) && d.code.startsWith(d.kind)) return `${where}${d.code}`;
  return d.code ? `${where}${d.code} → ${d.outcome}` : `${where}${d.outcome}`;
}
