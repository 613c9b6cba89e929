import type * as Dagre from '@dagrejs/dagre' with { 'resolution-mode': 'import' };
import { edgeKindName, type EdgeKind } from '@pathprof/cfg';
import { edgeCountsFromPaths } from '@pathprof/numbering';
import type { FunctionPaths } from '../profiled-file';
import type { SourceText } from '../source-text';
import { escapeHtml } from './escape-html';
import { collapseGraph } from './graph-collapse';

// dagre is an ES module package with a CommonJS build for `require`, which is what this CommonJS file loads.
const { Graph, layout }: typeof Dagre = require('@dagrejs/dagre');

/**
 * Graphs with more blocks are drawn folded away (opened on demand); with more than `MOST`, collapsed to at most
 * `COLLAPSED` nodes first (`collapseGraph`).
 */
export const FOLDED = 40;
export const MOST = 200;
export const COLLAPSED = 60;

const size = 30;
const groupWidth = 64;

/** What is drawn as one edge: a graph edge, or, in a collapsed graph, all the edges from a node to another. */
interface DrawnEdge {
  readonly from: number;
  readonly to: number;
  readonly ids: number[];
  count: number;
  exceptional: boolean;
}

/**
 * A function's control-flow graph as SVG, laid out by dagre (layered, with crossings reduced): blocks labelled
 * with their first line (the line's code as a tooltip), edges with arrowheads, as thick as their count, red
 * when hot (at least half the hottest edge's count), grey and dashed when never taken, dashed when
 * exceptional; back edges are drawn like the others, dagre routes them. A straight-line function gets none.
 * Each edge carries `data-edge` (the ids of the graph edges it draws) so the page can highlight a selected
 * path's edges; `id` makes the arrowhead's id unique on the page. A graph of more than `FOLDED` blocks is folded
 * in a `<details>`; one of more than `MOST` is collapsed (regions drawn as one box labelled with their lines),
 * or not drawn when it cannot be collapsed enough.
 */
export function graphSvg(fn: FunctionPaths, source: SourceText, id: string): string {
  const { meta, numbering } = fn;
  // Entry, one block of code and exit: a straight line, which its single path says all about (most functions
  // of a library are such: 1,658 of luxon's 2,064).
  if (meta.blockCount <= 3) return '';
  const collapsed =
    meta.blockCount > MOST ? collapseGraph(meta, numbering.entry, numbering.exit, COLLAPSED) : null;
  if (meta.blockCount > MOST && !collapsed)
    return `<p class="graph-note">Graph of ${meta.blockCount} blocks: too large to draw; the paths below give its decisions.</p>`;
  const groupOf = (b: number) => (collapsed ? collapsed.groupOf[b] : b);
  const counts = edgeCountsFromPaths(numbering, fn.counts);
  const exceptional = new Set(meta.exceptional);
  const edges = new Map<string, DrawnEdge>();
  const touched = new Uint8Array(meta.blockCount);
  for (let e = 0; e < meta.edges.length / 3; e++) {
    touched[meta.edges[3 * e]] = touched[meta.edges[3 * e + 1]] = 1;
    const [from, to] = [groupOf(meta.edges[3 * e]), groupOf(meta.edges[3 * e + 1])];
    if (collapsed && from === to) continue;
    const key = collapsed ? `${from}>${to}` : String(e);
    const drawn = edges.get(key) ?? { from, to, ids: [], count: 0, exceptional: true };
    drawn.ids.push(e);
    drawn.count += counts[e];
    drawn.exceptional &&= exceptional.has(e);
    edges.set(key, drawn);
  }
  // The blocks drawn as each node (several: a collapsed region, labelled by their lines).
  const members = new Map<number, number[]>();
  for (let b = 0; b < meta.blockCount; b++) {
    if (!touched[b]) continue;
    const list = members.get(groupOf(b));
    if (list) list.push(b);
    else members.set(groupOf(b), [b]);
  }
  const g = new Graph({ multigraph: true });
  g.setGraph({ rankdir: 'TB', nodesep: 14, ranksep: 26, edgesep: 6, marginx: 4, marginy: 4 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const [node, blocks] of members)
    g.setNode(String(node), { width: blocks.length > 1 ? groupWidth : size, height: size });
  for (const [key, edge] of edges) g.setEdge(String(edge.from), String(edge.to), {}, key);
  layout(g);
  const hottest = Math.max(1, ...[...edges.values()].map((edge) => edge.count));
  const parts: string[] = [];
  for (const edge of g.edges()) {
    const drawn = edges.get(edge.name!)!;
    const points = g.edge(edge).points ?? [];
    if (points.length === 0) continue;
    const { count } = drawn;
    const width = 1 + (3 * Math.log1p(count)) / Math.log1p(hottest);
    const heat = count === 0 ? 'cold' : count * 2 >= hottest ? 'hot' : 'warm';
    const d = `M${points.map((p: { x: number; y: number }) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' L')}`;
    const title =
      drawn.ids.length === 1
        ? `${edgeKindName(meta.edges[3 * drawn.ids[0] + 2] as EdgeKind)}: ×${count}`
        : `${drawn.ids.length} edges: ×${count}`;
    parts.push(
      `<path class="edge ${heat}${drawn.exceptional ? ' exceptional' : ''}" data-edge="${drawn.ids.join(' ')}" d="${d}" stroke-width="${width.toFixed(1)}" marker-end="url(#${id}-arrow)">` +
        `<title>${escapeHtml(title)}</title></path>`,
    );
  }
  const firstLine = (b: number) => {
    const r = meta.blockRanges[b];
    return r >= 0 ? meta.ranges[4 * r] : null;
  };
  for (const node of g.nodes()) {
    const b = Number(node);
    const { x, y } = g.node(node);
    const blocks = members.get(b)!;
    if (blocks.length > 1) {
      const lines = blocks.flatMap((m) => firstLine(m) ?? []);
      const span = lines.length ? `${Math.min(...lines)}–${Math.max(...lines)}` : '';
      parts.push(
        `<g class="block group" data-block="${blocks.join(' ')}"><title>${escapeHtml(`${blocks.length} blocks collapsed${span ? `: lines ${span}` : ''}`)}</title>` +
          `<rect x="${x - groupWidth / 2}" y="${y - size / 2 + 1}" width="${groupWidth}" height="${size - 2}" rx="8"/>` +
          `<text x="${x}" y="${y + 4}">${span}</text></g>`,
      );
      continue;
    }
    const r = meta.blockRanges[b];
    const label = b === numbering.entry ? 'in' : b === numbering.exit ? 'out' : `${firstLine(b) ?? ''}`;
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
  const summary = collapsed
    ? `Graph of ${meta.blockCount} blocks, collapsed to ${collapsed.groups} nodes (a box: a region, its lines)`
    : `Graph of ${meta.blockCount} blocks`;
  return meta.blockCount > FOLDED
    ? `<details class="graph-fold"><summary>${summary}</summary>${svg}</details>`
    : svg;
}
