import { blockCountsFromPaths, edgeCountsFromPaths, procedureCountsFromPaths } from '@pathprof/numbering';
import type { EdgeKind } from '@pathprof/cfg';
import type { FunctionMetadata } from 'babel-plugin-pathprof';
import type { ProfiledFile } from '../profiled-file';

/** An edge of one of the file's functions, with how often it ran. */
export interface CountedEdge {
  readonly fn: number;
  readonly edge: number;
  readonly src: number;
  readonly dst: number;
  readonly kind: EdgeKind;
  readonly count: number;
}

/**
 * A file's edge and block counts (derived exactly from its path counts: per function, or in interprocedural
 * mode from the walks of its paths through each function): edges indexed by the source extent of the construct
 * that owns them (how AST nodes find their decisions), blocks by function and block id.
 */
export class GraphCounts {
  /** The counted functions, in the order of the graphs the plugin built. */
  readonly functions: readonly FunctionMetadata[];
  private readonly edgesByRange = new Map<string, CountedEdge[]>();
  /** Per function (same order as `file.functions`), per block: how often it was entered. */
  readonly blockEntries: number[][] = [];
  /** Per function (same order as `file.functions`), per block: how often an exception left it. */
  readonly blockExceptions: number[][] = [];

  constructor(file: ProfiledFile) {
    const counted = functionCounts(file);
    this.functions = counted.map((c) => c.meta);
    counted.forEach(({ meta, edgeCounts, blockCounts }, index) =>
      this.add(meta, edgeCounts, blockCounts, index),
    );
  }

  /** The counted edges whose owning construct has exactly this extent. */
  edgesAt(key: string): readonly CountedEdge[] {
    return this.edgesByRange.get(key) ?? [];
  }

  private add(meta: FunctionMetadata, edgeCounts: number[], blockCounts: number[], index: number): void {
    this.blockEntries.push(blockCounts);
    const exceptions = new Array<number>(blockCounts.length).fill(0);
    for (const e of meta.exceptional) exceptions[meta.edges[3 * e]] += edgeCounts[e];
    this.blockExceptions.push(exceptions);
    const extent = (r: number) => meta.ranges.slice(4 * r, 4 * r + 4);
    for (let e = 0; e < edgeCounts.length; e++) {
      const r = meta.edgeRanges[e];
      if (r < 0) continue;
      const key = rangeKey(extent(r));
      const list = this.edgesByRange.get(key) ?? [];
      const [src, dst, kind] = meta.edges.slice(3 * e, 3 * e + 3);
      list.push({ fn: index, edge: e, src, dst, kind: kind as EdgeKind, count: edgeCounts[e] });
      this.edgesByRange.set(key, list);
    }
  }
}

/** One counted function's graph (its metadata) and how often each of its edges and blocks ran. */
export interface FunctionCounts {
  readonly meta: FunctionMetadata;
  readonly edgeCounts: number[];
  readonly blockCounts: number[];
}

/**
 * Each counted function's edge and block counts, in the order of the graphs the plugin built: from its own
 * path counts, or in interprocedural mode from the walks the file's paths take through it.
 */
export function functionCounts(file: ProfiledFile): FunctionCounts[] {
  if (file.interprocedural) {
    const { numbering, counts } = file.interprocedural;
    return procedureCountsFromPaths(numbering, counts).map((c, index) => ({
      meta: file.meta.functions[index],
      ...c,
    }));
  }
  return file.functions.map(({ meta, numbering, counts }) => ({
    meta,
    edgeCounts: edgeCountsFromPaths(numbering, counts),
    blockCounts: blockCountsFromPaths(numbering, counts),
  }));
}

/** `line:column:line:column`, the same for a metadata extent and a Babel node's `loc`. */
export function rangeKey(range: readonly number[]): string {
  return range.join(':');
}
