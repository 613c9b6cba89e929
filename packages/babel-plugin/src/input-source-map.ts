import * as t from '@babel/types';
import {
  decodedMappings,
  GREATEST_LOWER_BOUND,
  LEAST_UPPER_BOUND,
  originalPositionFor,
  TraceMap,
} from '@jridgewell/trace-mapping';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { forEachChild } from './child-nodes';

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
 * Whether the code Babel was given for `filename`, which came with no usable source map, is not the file:
 * compiled from it before Babel (ts-jest or tsc with `sourceMap: false`). Its paths cannot be placed in the
 * file, which the report reads: the metadata says so, and the report says why it skips the file.
 */
export function compiledWithoutMap(filename: string, code: string): boolean {
  try {
    return readFileSync(filename, 'utf8') !== code;
  } catch {
    // No file there (code named after nothing on disk): nothing to compare with.
    return false;
  }
}

let warnedWithoutMap = false;

/** Says once per process that files came compiled without a source map, and what to change. */
export function warnCompiledWithoutMap(key: string): void {
  if (warnedWithoutMap) return;
  warnedWithoutMap = true;
  console.warn(
    `pathprof: ${key} (and any other file like it) came to Babel compiled, with no source map, so its paths cannot be placed in it and the report will skip it: turn the compiler's source maps on (ts-jest: sourceMap in the tsconfig it uses)`,
  );
}

/**
 * Runs `work` with every node's location in the original source, then puts the compiled code's locations
 * back (Babel's own output source map is made from them, and merged with the input map). A node that starts
 * (ends) on a line with no mapping starts (ends) at its first (last) mapped position: TypeScript's generator
 * holding an async function's body starts on such a line (`return __awaiter(this, …, function* () {`), its
 * body on the next. A node the map makes empty takes the place of the nearest node around it that it does
 * not: TypeScript compiles `a ?? b` below ES2020 to `a !== null && a !== void 0 ? a : b`, whose comparisons it
 * maps to one point (their decisions quoted no code; now they quote `a ?? b`). A node with no mapping at all
 * (helpers the compiler added) keeps its place in the compiled code.
 */
export function withOriginalLocations<T>(program: t.Program, map: TraceMap, work: () => T): T {
  const saved = new Map<t.SourceLocation, Pick<t.SourceLocation, 'start' | 'end'>>();
  const lines = decodedMappings(map);
  type Place = Pick<t.SourceLocation, 'start' | 'end'>;
  const visit = (node: t.Node, around: Place | null): void => {
    const loc = node.loc;
    let place = around;
    if (loc && !saved.has(loc)) {
      saved.set(loc, { start: loc.start, end: loc.end });
      const mapped = originalPlace(node, loc, map, lines);
      if (mapped) {
        const empty = isEmpty(mapped);
        const at = empty && around && node.start !== node.end ? around : mapped;
        loc.start = { ...loc.start, line: at.start.line, column: at.start.column };
        loc.end = { ...loc.end, line: at.end.line, column: at.end.column };
        if (!empty) place = loc;
      }
    }
    forEachChild(node, (child) => visit(child, place));
  };
  visit(program, null);
  try {
    return work();
  } finally {
    for (const [loc, { start, end }] of saved) {
      loc.start = start;
      loc.end = end;
    }
  }
}

type Position = { line: number; column: number };

/** Where `loc` (of `node`) is in the original source; null when the map places it nowhere or backwards. */
function originalPlace(
  node: t.Node,
  loc: t.SourceLocation,
  map: TraceMap,
  lines: ReturnType<typeof decodedMappings>,
): { start: Position; end: Position } | null {
  // The program starts where its file does, whatever the compiler put first.
  const within = (which: 'first' | 'last') => (t.isProgram(node) ? null : mappedWithin(lines, loc, which));
  const start =
    original(map, loc.start, GREATEST_LOWER_BOUND) ??
    original(map, loc.start, LEAST_UPPER_BOUND) ??
    within('first');
  const end =
    original(map, loc.end, LEAST_UPPER_BOUND) ??
    original(map, loc.end, GREATEST_LOWER_BOUND) ??
    within('last');
  if (!start || !end || end.line < start.line || (end.line === start.line && end.column < start.column))
    return null;
  return { start, end };
}

function isEmpty({ start, end }: { start: Position; end: Position }): boolean {
  return start.line === end.line && start.column === end.column;
}

/**
 * The original position of the first (last) mapping inside `loc`, on the lines after its start (before its
 * end); null when there is none.
 */
function mappedWithin(
  lines: ReturnType<typeof decodedMappings>,
  loc: t.SourceLocation,
  which: 'first' | 'last',
): { line: number; column: number } | null {
  const inside = (line: number, column: number) =>
    (line > loc.start.line || column >= loc.start.column) && (line < loc.end.line || column < loc.end.column);
  for (let i = 0; i <= loc.end.line - loc.start.line; i++) {
    const line = which === 'first' ? loc.start.line + i : loc.end.line - i;
    const segments = lines[line - 1] ?? [];
    for (let j = 0; j < segments.length; j++) {
      const segment = segments[which === 'first' ? j : segments.length - 1 - j];
      if (segment.length >= 4 && inside(line, segment[0]))
        return { line: segment[2]! + 1, column: segment[3]! };
    }
  }
  return null;
}

function original(
  map: TraceMap,
  at: { line: number; column: number },
  bias: typeof GREATEST_LOWER_BOUND | typeof LEAST_UPPER_BOUND,
): { line: number; column: number } | null {
  const found = originalPositionFor(map, { line: at.line, column: at.column, bias });
  return found.line === null ? null : { line: found.line, column: found.column };
}
