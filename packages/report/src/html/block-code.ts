import { EdgeKind } from '@pathprof/cfg';
import type { FunctionMetadata } from 'babel-plugin-pathprof';
import { decisionExtent } from '../decisions';
import type { SourceText } from '../source-text';

/** A source extent as the page's script reads it: `[line, column, endLine, endColumn]` (Babel's positions). */
export type Extent = readonly [number, number, number, number];

const jumps: ReadonlySet<EdgeKind> = new Set([
  EdgeKind.Return,
  EdgeKind.Throw,
  EdgeKind.Break,
  EdgeKind.Continue,
]);

/** A stretch of source (offsets into the text). */
interface Piece {
  readonly from: number;
  readonly to: number;
}

/**
 * Which block runs each stretch of a function's source, so a path's code can be shown to the column: two
 * paths through one line (`return a > 100 ? 'large' : 'small'`) run different code there. A block's extent
 * spans all the code run in it, so it may hold other blocks' code (the `return` holds both arms); each
 * stretch is therefore the code of the innermost block extents that hold it.
 */
export class BlockCode {
  private readonly lineStarts: number[];
  private readonly pieces: Piece[];
  /** Per block, the indices of the pieces that are its code, in source order. */
  private readonly piecesOf = new Map<number, number[]>();
  private readonly lines: readonly string[];

  constructor(meta: FunctionMetadata, source: SourceText) {
    this.lines = source.lines;
    this.lineStarts = [0];
    for (const line of source.lines)
      this.lineStarts.push(this.lineStarts[this.lineStarts.length - 1] + line.length + 1);
    const extents: { from: number; to: number; block: number }[] = [];
    const add = (r: number, block: number) => {
      const from = this.offset(meta.ranges[4 * r], meta.ranges[4 * r + 1]);
      const to = this.offset(meta.ranges[4 * r + 2], meta.ranges[4 * r + 3]);
      if (to > from) extents.push({ from, to, block });
    };
    meta.blockRanges.forEach((r, block) => r >= 0 && add(r, block));
    // A jump statement runs in the block it leaves, though that block's extent may hold only its argument
    // (`return 'americas'` in a `case` whose test's block spans the clause); the implicit return at the
    // function's end is no statement.
    const whole = meta.range.join(':');
    for (let e = 0; e < meta.edgeRanges.length; e++) {
      const r = meta.edgeRanges[e];
      if (r < 0 || !jumps.has(meta.edges[3 * e + 2] as EdgeKind)) continue;
      if (meta.ranges.slice(4 * r, 4 * r + 4).join(':') !== whole) add(r, meta.edges[3 * e]);
    }
    extents.sort((a, b) => a.from - b.from);
    const cuts = [...new Set(extents.flatMap((x) => [x.from, x.to]))].sort((a, b) => a - b);
    this.pieces = [];
    // A sweep over the cuts: `open` holds the extents that start at or before the current cut and end after it.
    let open: typeof extents = [];
    let next = 0;
    for (let i = 0; i + 1 < cuts.length; i++) {
      const from = cuts[i];
      const to = cuts[i + 1];
      while (next < extents.length && extents[next].from <= from) open.push(extents[next++]);
      open = open.filter((x) => x.to > from);
      if (open.length === 0) continue;
      // The extent that ends first, then the one that starts last: the innermost of nested ones, and of two
      // that overlap, the one whose code runs first (`items.push(f(a ?? b))`: the block reading `a` spans from
      // earlier lines to `a`; the block that calls spans the whole statement).
      const end = Math.min(...open.map((x) => x.to));
      const start = Math.max(...open.filter((x) => x.to === end).map((x) => x.from));
      for (const { block } of open.filter((x) => x.to === end && x.from === start)) {
        const list = this.piecesOf.get(block);
        if (list) list.push(this.pieces.length);
        else this.piecesOf.set(block, [this.pieces.length]);
      }
      this.pieces.push({ from, to });
    }
  }

  /** The code that runs the blocks `blocks` (within `within`, if given), as few extents as cover it. */
  extents(blocks: readonly number[], within?: readonly number[]): Extent[] {
    const [low, high] = within
      ? [this.offset(within[0], within[1]), this.offset(within[2], within[3])]
      : [0, Infinity];
    // The blocks' pieces in source order (a piece of several blocks once).
    const indices = [...new Set(blocks.flatMap((b) => this.piecesOf.get(b) ?? []))].sort((a, b) => a - b);
    const out: [number, number][] = [];
    for (const index of indices) {
      const piece = this.pieces[index];
      const from = Math.max(piece.from, low);
      const to = Math.min(piece.to, high);
      if (from >= to) continue;
      const last = out[out.length - 1];
      if (last && last[1] === from) last[1] = to;
      else out.push([from, to]);
    }
    return out.map(([from, to]) => [...this.position(from), ...this.position(to)] as const);
  }

  /**
   * Where taking edge `e` decides, to the column: the code of its construct (`decisionExtent`) that runs in
   * the block it leaves, so that the operands and arms that run in blocks of their own are left to the paths
   * (`quantity`, not the `1` of `quantity ?? 1`; the `case`'s test, not its body); when none of it runs there
   * (a `default` edge, a loop's back edge from a block of no code), the extent's first line, as `show` quotes
   * it. Empty when the edge has no extent.
   */
  decision(meta: FunctionMetadata, e: number): Extent[] {
    const extent = decisionExtent(meta, e);
    if (!extent || extent[0] <= 0) return [];
    const own = this.extents([meta.edges[3 * e]], extent);
    if (own.length) return own;
    const [line, column, endLine, endColumn] = extent;
    const text = (this.lines[line - 1] ?? '')
      .slice(column, endLine === line ? endColumn : undefined)
      .trimEnd();
    const head = endLine > line ? text.replace(/\s*\{$/, '') : text;
    return [[line, column, line, column + head.length]];
  }

  private offset(line: number, column: number): number {
    return (this.lineStarts[line - 1] ?? this.lineStarts[this.lineStarts.length - 1]) + column;
  }

  private position(offset: number): [number, number] {
    // The last line starting at or before `offset`.
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.lineStarts[mid] <= offset) low = mid;
      else high = mid - 1;
    }
    return [low + 1, offset - this.lineStarts[low]];
  }
}
