import type { SourceText } from '../source-text';
import type { GraphCounts } from './graph-counts';

/**
 * How often each line ran, from block counts: a block's count goes to every line of its code, and where
 * blocks overlap (a function inside a statement, a loop header inside the statement before it) the smaller
 * extent wins, so a line belongs to the innermost code on it. Blank and comment-only lines are left out.
 */
export function countLines(graph: GraphCounts, source: SourceText): Map<number, number> {
  const size = (r: readonly number[]) => (r[2] - r[0]) * 1e6 + (r[3] - r[1]);
  const lines = new Map<number, { count: number; size: number }>();
  for (const { range, count } of graph.blocks) {
    for (let line = range[0]; line <= range[2]; line++) {
      const seen = lines.get(line);
      if (!seen || size(range) <= seen.size) lines.set(line, { count, size: size(range) });
    }
  }
  const code = (line: number) => {
    const text = (source.lines[line - 1] ?? '').trim();
    return text !== '' && !/^(\/\/|\/\*|\*)/.test(text);
  };
  return new Map(
    [...lines]
      .filter(([line]) => code(line))
      .sort((a, b) => a[0] - b[0])
      .map(([line, { count }]) => [line, count]),
  );
}
