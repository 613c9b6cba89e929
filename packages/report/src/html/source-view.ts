import type { ProfiledFile } from '../profiled-file';
import { escapeHtml } from './escape-html';
import type { LineCoverage } from './line-coverage';
import { highlightedLines } from './syntax-highlight';

/**
 * The file's source, syntax-highlighted, one element per line (`#L12`) with its number, its count (how often
 * its statements ran, as istanbul counts lines) and a class: `hit`, `miss` (a statement there never ran) or
 * `partial` (it ran, but a decision made there was never taken, listed in its tooltip). The code of a line is
 * in its `.code` element alone, so a column is an offset into that element's text.
 */
export function sourceView(file: ProfiledFile, coverage: LineCoverage | null): string {
  const lines = highlightedLines(file.source.text, file.path) ?? file.source.lines.map(escapeHtml);
  return lines
    .map((code, i) => {
      const n = i + 1;
      const count = coverage?.counts.get(n);
      const untaken = coverage?.untaken.get(n);
      const state = count === undefined ? '' : count === 0 ? ' miss' : untaken ? ' partial' : ' hit';
      const title = untaken && count ? ` title="${escapeHtml(`never taken: ${untaken.join('; ')}`)}"` : '';
      const shown = count === undefined ? '' : `${count}×`;
      return `<div class="line${state}" id="L${n}"${title}><span class="n">${n}</span><span class="c">${shown}</span><span class="code">${code}</span></div>`;
    })
    .join('');
}
