import * as t from '@babel/types';
import {
  GREATEST_LOWER_BOUND,
  LEAST_UPPER_BOUND,
  originalPositionFor,
  TraceMap,
} from '@jridgewell/trace-mapping';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

/** Babel's input source map of a file (`file.inputMap`, from convert-source-map). */
export interface InputMap {
  toObject(): unknown;
}

/** The source a file was compiled from (ts-jest's or tsc's output, with its source map), as on disk. */
export interface OriginalSource {
  /** Absolute path of the original file. */
  readonly file: string;
  readonly text: string;
  readonly map: TraceMap;
}

/**
 * The original source behind `code` when Babel found an input source map for it (inline, as ts-jest leaves
 * it, or a `.map` file, as tsc writes it) that comes from one source file: where that file is (the map's
 * source, or the compiled file itself when the map names it by another path, as ts-jest does) and its text
 * (the map's `sourcesContent`, else the file). Null when there is no such map, or its source is nowhere.
 */
export function originalSource(filename: string, inputMap: InputMap | null): OriginalSource | null {
  if (!inputMap) return null;
  const raw = inputMap.toObject() as {
    sources?: (string | null)[];
    sourceRoot?: string;
    sourcesContent?: (string | null)[];
  };
  if (!raw.sources || raw.sources.length !== 1 || !raw.sources[0]) return null;
  const content = raw.sourcesContent?.[0] ?? null;
  const named = path.resolve(path.dirname(filename), raw.sourceRoot ?? '', raw.sources[0]);
  const file = [named, filename].find(
    (candidate) => existsSync(candidate) && (content === null || readFileSync(candidate, 'utf8') === content),
  );
  if (!file) return null;
  return { file, text: content ?? readFileSync(file, 'utf8'), map: new TraceMap(raw as never) };
}

/**
 * Runs `work` with every node's location in the original source, then puts the compiled code's locations
 * back (Babel's own output source map is made from them, and merged with the input map). Positions with no
 * mapping (helpers the compiler added) keep their place in the compiled code.
 */
export function withOriginalLocations<T>(program: t.Program, map: TraceMap, work: () => T): T {
  const saved = new Map<t.SourceLocation, Pick<t.SourceLocation, 'start' | 'end'>>();
  t.traverseFast(program, (node) => {
    const loc = node.loc;
    if (!loc || saved.has(loc)) return;
    saved.set(loc, { start: loc.start, end: loc.end });
    const start =
      original(map, loc.start, GREATEST_LOWER_BOUND) ?? original(map, loc.start, LEAST_UPPER_BOUND);
    const end = original(map, loc.end, LEAST_UPPER_BOUND) ?? original(map, loc.end, GREATEST_LOWER_BOUND);
    if (!start || !end || end.line < start.line || (end.line === start.line && end.column < start.column))
      return;
    loc.start = { ...loc.start, ...start };
    loc.end = { ...loc.end, ...end };
  });
  try {
    return work();
  } finally {
    for (const [loc, { start, end }] of saved) {
      loc.start = start;
      loc.end = end;
    }
  }
}

/**
 * The functions the compiler added that the map does not cover (TypeScript's `__importStar`, `__createBinding`
 * and the functions inside them): their starts have no mapping, so no place in the source. They are left
 * uninstrumented, as code under an ignore comment is: profiled, they would be reported at lines the source
 * does not have (ts-pattern's 6-line index.ts had functions at lines 9 to 27).
 */
export function unmappedFunctions(program: t.Program, map: TraceMap): [number, number][] {
  const ranges: [number, number][] = [];
  t.traverseFast(program, (node) => {
    if (!t.isFunction(node) || !node.loc || node.start == null || node.end == null) return;
    const at = node.loc.start;
    if (!original(map, at, GREATEST_LOWER_BOUND) && !original(map, at, LEAST_UPPER_BOUND))
      ranges.push([node.start, node.end]);
  });
  return ranges;
}

function original(
  map: TraceMap,
  at: { line: number; column: number },
  bias: typeof GREATEST_LOWER_BOUND | typeof LEAST_UPPER_BOUND,
): { line: number; column: number } | null {
  const found = originalPositionFor(map, { line: at.line, column: at.column, bias });
  return found.line === null ? null : { line: found.line, column: found.column };
}
