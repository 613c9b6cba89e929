import { blockCountsFromPaths, edgeCountsFromPaths } from '@pathprof/numbering';
import type { EdgeKind } from '@pathprof/cfg';
import type { FunctionPaths, ProfiledFile } from '../profiled-file';

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
 * A file's edge and block counts (derived exactly from its path counts), indexed by source extent, which is
 * how AST nodes find the edges and blocks that belong to them.
 */
export class GraphCounts {
  private readonly edgesByRange = new Map<string, CountedEdge[]>();
  private readonly blocksByRange = new Map<string, number>();
  /** Per function (same order as `file.functions`), its blocks with an extent: the extent and the count. */
  readonly blocks: { readonly range: readonly number[]; readonly count: number }[][] = [];
  /** Per function (same order as `file.functions`): activations, the number of times it was entered. */
  readonly activations: number[] = [];

  constructor(file: ProfiledFile) {
    file.functions.forEach((fn, index) => this.add(fn, index));
  }

  /** The counted edges whose owning construct has exactly this extent. */
  edgesAt(key: string): readonly CountedEdge[] {
    return this.edgesByRange.get(key) ?? [];
  }

  /** The count of the block whose code has exactly this extent, if there is one. */
  blockAt(key: string): number | undefined {
    return this.blocksByRange.get(key);
  }

  private add(fn: FunctionPaths, index: number): void {
    const { meta, numbering, counts } = fn;
    const edgeCounts = edgeCountsFromPaths(numbering, counts);
    const blockCounts = blockCountsFromPaths(numbering, counts);
    this.activations.push(blockCounts[numbering.entry]);
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
    const blocks: { range: number[]; count: number }[] = [];
    this.blocks.push(blocks);
    meta.blockRanges.forEach((r, b) => {
      if (r < 0) return;
      blocks.push({ range: extent(r), count: blockCounts[b] });
      const key = rangeKey(extent(r));
      this.blocksByRange.set(key, (this.blocksByRange.get(key) ?? 0) + blockCounts[b]);
    });
  }
}

/** `line:column:line:column`, the same for a metadata extent and a Babel node's `loc`. */
export function rangeKey(range: readonly number[]): string {
  return range.join(':');
}
