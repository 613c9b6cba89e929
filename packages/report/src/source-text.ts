/**
 * A source file's current text, sliced by the `[startLine, startColumn, endLine, endColumn]` extents of the
 * plugin's metadata (lines from 1, columns from 0, as Babel reports them).
 */
export class SourceText {
  readonly lines: readonly string[];

  constructor(readonly text: string) {
    this.lines = text.split(/\r?\n/);
  }

  /** The text of an extent, whole lines joined with newlines. */
  slice(startLine: number, startColumn: number, endLine: number, endColumn: number): string {
    if (startLine === endLine) return (this.lines[startLine - 1] ?? '').slice(startColumn, endColumn);
    return [
      (this.lines[startLine - 1] ?? '').slice(startColumn),
      ...this.lines.slice(startLine, endLine - 1),
      (this.lines[endLine - 1] ?? '').slice(0, endColumn),
    ].join('\n');
  }

  /** The first line of an extent, trimmed and cut to `width` characters: how a decision quotes its code. */
  head(startLine: number, startColumn: number, endLine: number, endColumn: number, width = 60): string {
    const first = this.slice(startLine, startColumn, endLine, endColumn).split('\n')[0].trim();
    const text = endLine > startLine ? first.replace(/\s*\{$/, '') : first;
    return text.length > width ? `${text.slice(0, width - 1)}…` : text;
  }
}
