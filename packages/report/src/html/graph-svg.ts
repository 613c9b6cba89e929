import { edgeKindName, type EdgeKind } from '@pathprof/cfg';
import { edgeCountsFromPaths } from '@pathprof/numbering';
import type { FunctionPaths } from '../profiled-file';
import { escapeHtml } from './escape-html';

const layerHeight = 56;
const columnWidth = 64;
const radius = 14;

/**
 * A function's control-flow graph as SVG: blocks in layers by their longest distance from entry (back edges
 * left out of the layering and drawn as arcs), each labelled with its first line; edges as thick as their
 * count and red when hot (at least half the hottest edge's count), grey when never taken. Each edge carries
 * `data-edge` so the page can highlight a selected path's edges.
 */
export function graphSvg(fn: FunctionPaths): string {
  const { meta, numbering } = fn;
  const counts = edgeCountsFromPaths(numbering, fn.counts);
  const removed = new Set(numbering.removedEdges.map((r) => r.edge));
  const exceptional = new Set(meta.exceptional);
  const edges = Array.from({ length: meta.edges.length / 3 }, (_, e) => ({
    e,
    src: meta.edges[3 * e],
    dst: meta.edges[3 * e + 1],
    kind: edgeKindName(meta.edges[3 * e + 2] as EdgeKind),
    count: counts[e],
    back: removed.has(e),
    exceptional: exceptional.has(e),
  }));
  const layer = layers(meta.blockCount, numbering.entry, edges);
  layer[numbering.exit] = Math.max(...layer) + 1;
  const byLayer = new Map<number, number[]>();
  layer.forEach((l, b) => byLayer.set(l, [...(byLayer.get(l) ?? []), b]));
  const position: { x: number; y: number }[] = [];
  const widest = Math.max(...[...byLayer.values()].map((bs) => bs.length));
  for (const [l, blocks] of byLayer) {
    blocks.forEach((b, i) => {
      position[b] = {
        x: columnWidth / 2 + ((widest - blocks.length) * columnWidth) / 2 + i * columnWidth,
        y: layerHeight / 2 + l * layerHeight,
      };
    });
  }
  const hottest = Math.max(1, ...counts);
  const parts: string[] = [];
  for (const edge of edges) {
    const a = position[edge.src];
    const b = position[edge.dst];
    if (!a || !b) continue;
    const width = 1 + (4 * Math.log1p(edge.count)) / Math.log1p(hottest);
    const heat = edge.count === 0 ? 'cold' : edge.count * 2 >= hottest ? 'hot' : 'warm';
    const bend = edge.back
      ? columnWidth
      : a.x === b.x && Math.abs(a.y - b.y) > layerHeight
        ? columnWidth / 2
        : 0;
    const d = `M${a.x},${a.y} Q${(a.x + b.x) / 2 + bend},${(a.y + b.y) / 2} ${b.x},${b.y}`;
    parts.push(
      `<path class="edge ${heat}${edge.back ? ' back' : ''}${edge.exceptional ? ' exceptional' : ''}" data-edge="${edge.e}" d="${d}" stroke-width="${width.toFixed(1)}">` +
        `<title>${escapeHtml(`${edge.kind}: ×${edge.count}`)}</title></path>`,
    );
  }
  position.forEach((p, b) => {
    if (!p) return;
    const r = meta.blockRanges[b];
    const label =
      b === numbering.entry ? 'in' : b === numbering.exit ? 'out' : r >= 0 ? `${meta.ranges[4 * r]}` : '';
    parts.push(
      `<g class="block" data-block="${b}"><circle cx="${p.x}" cy="${p.y}" r="${radius}"/>` +
        `<text x="${p.x}" y="${p.y + 4}">${label}</text></g>`,
    );
  });
  const width = widest * columnWidth + columnWidth;
  const height = (Math.max(...layer) + 1) * layerHeight;
  return `<svg class="graph" xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${parts.join('')}</svg>`;
}

/** Longest distance from entry over the graph without its back edges (a DAG), per block; -1 if unreachable. */
function layers(
  blockCount: number,
  entry: number,
  edges: readonly { src: number; dst: number; back: boolean }[],
): number[] {
  const out: number[][] = Array.from({ length: blockCount }, () => []);
  const indegree = new Array<number>(blockCount).fill(0);
  for (const e of edges) {
    if (e.back) continue;
    out[e.src].push(e.dst);
    indegree[e.dst]++;
  }
  const layer = new Array<number>(blockCount).fill(0);
  const ready = [
    entry,
    ...Array.from({ length: blockCount }, (_, b) => b).filter((b) => b !== entry && indegree[b] === 0),
  ];
  while (ready.length) {
    const b = ready.pop()!;
    for (const d of out[b]) {
      layer[d] = Math.max(layer[d], layer[b] + 1);
      if (--indegree[d] === 0) ready.push(d);
    }
  }
  return layer;
}
