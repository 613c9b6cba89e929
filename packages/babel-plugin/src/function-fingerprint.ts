import { fingerprint } from './fingerprint';

/** Babel's line terminators: its `loc` lines count these. */
const LINE_END = /\r\n?|[\n\u2028\u2029]/g;

/**
 * What the Ball-Larus path ids of a file's functions mean, as fingerprints: a function's numbering checksum
 * (which fixes every id) and its own source text, the functions nested in it left out (their code is not
 * part of its paths). An interesting set names paths by id with this fingerprint; the ids stay valid, and
 * mean the same decisions, exactly as long as both are unchanged. Positions are left out, so that editing one
 * function leaves the set valid for every other, the ones below it and the one around it included.
 */
export class FunctionFingerprints {
  private readonly lineStarts: number[] = [0];

  /**
   * `ranges`: every instrumented function's `[startLine, startColumn, endLine, endColumn]` in the file (its
   * metadata's `range`; lines from 1, columns from 0, as Babel reports them).
   */
  constructor(
    private readonly source: string,
    private readonly ranges: readonly (readonly number[])[],
  ) {
    for (const match of source.matchAll(LINE_END)) this.lineStarts.push(match.index + match[0].length);
  }

  /** The fingerprint of the function with numbering `checksum` at `range`. */
  of(checksum: string, range: readonly number[]): string {
    return fingerprint(`${checksum}|${this.ownText(range)}`);
  }

  /** A function's text with each outermost function nested in it cut out; empty without a location. */
  ownText(range: readonly number[]): string {
    if (range[0] < 1) return '';
    const [start, end] = this.offsets(range);
    const nested = this.ranges
      .filter((r) => r[0] >= 1)
      .map((r) => this.offsets(r))
      .filter(([s, e]) => s >= start && e <= end && e - s < end - start)
      .sort((a, b) => a[0] - b[0] || b[1] - a[1]);
    let text = '';
    let at = start;
    for (const [s, e] of nested) {
      if (s < at) continue; // inside a function already cut out
      text += `${this.source.slice(at, s)}\u2026`;
      at = e;
    }
    return text + this.source.slice(at, end);
  }

  private offsets(range: readonly number[]): [number, number] {
    const offset = (line: number, column: number) =>
      (this.lineStarts[line - 1] ?? this.source.length) + column;
    return [offset(range[0], range[1]), offset(range[2], range[3])];
  }
}
