import type { ProfiledFile } from '../profiled-file';
import type { GraphCounts } from './graph-counts';

/**
 * How often each line ran, from block counts, the way istanbul counts a line (the most any code on it ran:
 * `if (a) return b;` ran as often as its test), among the blocks of the innermost function with code on
 * that line, so a function's lines count its own activations, not the program's. Blank and comment-only
 * lines are left out.
 */
export function countLines(file: ProfiledFile, graph: GraphCounts): Map<number, number> {
  const size = (r: readonly number[]) => (r[2] - r[0]) * 1e6 + (r[3] - r[1]);
  const innermostFirst = file.functions.map((fn, i) => ({ range: fn.meta.range, blocks: graph.blocks[i] }));
  innermostFirst.sort((a, b) => size(a.range) - size(b.range));
  const lines = new Map<number, number>();
  file.source.lines.forEach((text, i) => {
    const line = i + 1;
    const trimmed = text.trim();
    if (trimmed === '' || /^(\/\/|\/\*|\*)/.test(trimmed)) return;
    for (const fn of innermostFirst) {
      if (line < fn.range[0] || line > fn.range[2]) continue;
      const counts = fn.blocks.filter((b) => b.range[0] <= line && line <= b.range[2]).map((b) => b.count);
      if (counts.length === 0) continue;
      lines.set(line, Math.max(...counts));
      return;
    }
  });
  return lines;
}
