import type * as Dagre from '@dagrejs/dagre' with { 'resolution-mode': 'import' };
import { edgeKindName, type EdgeKind } from '@pathprof/cfg';
import { edgeCountsFromPaths } from '@pathprof/numbering';
import type { FunctionPaths } from '../profiled-file';
import type { SourceText } from '../source-text';
import { escapeHtml } from './escape-html';

// dagre is an ES module package with a CommonJS build for `require`, which is what this CommonJS file loads.
const { Graph, layout }: typeof Dagre = require('@dagrejs/dagre');

/** Graphs with more blocks are drawn folded away (opened on demand); with more than `MOST`, not at all. */
export const FOLDED = 40;
export const MOST = 200;

const size = 30;

/**
 * A function's control-flow graph as SVG, laid out by dagre (layered, with crossings reduced): blocks labelled
 * with their first line (the line's code as a tooltip), edges with arrowheads, as thick as their count, red
 * when hot (at least half the hottest edge's count), grey and dashed when never taken, dashed when
 * exceptional; back edges are drawn like the others, dagre routes them. A straight-line function gets none. Each edge carries `data-edge` so the
 * page can highlight a selected path's edges; `id` makes the arrowhead's id unique on the page. A graph of more than `FOLDED` blocks is folded in a `<details>`;
 * one of more than `MOST` is not drawn (its layout would take seconds and its picture say little).
 */
export function graphSvg(fn: FunctionPaths, source: SourceText, id: string): string {
  const { meta, numbering } = fn;
  // Entry, one block of code and exit: a straight line, which its single path says all about (most functions
  // of a library are such: 1,658 of luxon's 2,064).
  if (meta.blockCount <= 3) return '';
  if (meta.blockCount > MOST)
    return `<p class="graph-note">Graph of ${meta.blockCount} blocks: too large to draw; the paths below give its decisions.</p>`;
  const counts = edgeCountsFromPaths(numbering, fn.counts);
  const exceptional = new Set(meta.exceptional);
  const g = new Graph({ multigraph: true });
  g.setGraph({ rankdir: 'TB', nodesep: 14, ranksep: 26, edgesep: 6, marginx: 4, marginy: 4 });
  g.setDefaultEdgeLabel(() => ({}));
  const reached = new Set<number>();
  for (let e = 0; e < meta.edges.length / 3; e++) reached.add(meta.edges[3 * e]).add(meta.edges[3 * e + 1]);
  for (const b of reached) g.setNode(String(b), { width: size, height: size });
  for (let e = 0; e < meta.edges.length / 3; e++)
    g.setEdge(String(meta.edges[3 * e]), String(meta.edges[3 * e + 1]), { e }, String(e));
  layout(g);
  const hottest = Math.max(1, ...counts);
  const parts: string[] = [];
  for (const edge of g.edges()) {
    const e = Number(edge.name);
    const points = g.edge(edge).points ?? [];
    if (points.length === 0) continue;
    const count = counts[e];
    const width = 1 + (3 * Math.log1p(count)) / Math.log1p(hottest);
    const heat = count === 0 ? 'cold' : count * 2 >= hottest ? 'hot' : 'warm';
    const d = `M${points.map((p: { x: number; y: number }) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' L')}`;
    const kind = edgeKindName(meta.edges[3 * e + 2] as EdgeKind);
    parts.push(
      `<path class="edge ${heat}${exceptional.has(e) ? ' exceptional' : ''}" data-edge="${e}" d="${d}" stroke-width="${width.toFixed(1)}" marker-end="url(#${id}-arrow)">` +
        `<title>${escapeHtml(`${kind}: ×${count}`)}</title></path>`,
    );
  }
  for (const node of g.nodes()) {
    const b = Number(node);
    const { x, y } = g.node(node);
    const r = meta.blockRanges[b];
    const label =
      b === numbering.entry ? 'in' : b === numbering.exit ? 'out' : r >= 0 ? `${meta.ranges[4 * r]}` : '';
    const code =
      r >= 0
        ? source.head(
            meta.ranges[4 * r],
            meta.ranges[4 * r + 1],
            meta.ranges[4 * r + 2],
            meta.ranges[4 * r + 3],
          )
        : label;
    parts.push(
      `<g class="block" data-block="${b}"><title>${escapeHtml(code)}</title><circle cx="${x}" cy="${y}" r="${size / 2 - 1}"/>` +
        `<text x="${x}" y="${y + 4}">${label}</text></g>`,
    );
  }
  const { width = 0, height = 0 } = g.graph();
  const arrow =
    `<defs><marker id="${id}-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="7" markerHeight="7" orient="auto-start-reverse">` +
    '<path d="M0,0 L10,5 L0,10 z" class="arrowhead"/></marker></defs>';
  const svg = `<svg class="graph" xmlns="http://www.w3.org/2000/svg" width="${Math.ceil(width)}" height="${Math.ceil(height)}" viewBox="0 0 ${Math.ceil(width)} ${Math.ceil(height)}">${arrow}${parts.join('')}</svg>`;
  return meta.blockCount > FOLDED
    ? `<details class="graph-fold"><summary>Graph of ${meta.blockCount} blocks</summary>${svg}</details>`
    : svg;
}
