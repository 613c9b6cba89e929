import { buildCsr } from './csr';
import { ENTRY_DUMMY, EXIT_DUMMY, REAL_EDGE } from './dag';
import type { PathNumbering, RemovedEdge } from './number-paths';

/** Where a decoded path began: at function entry, or right after one of the removed edges into `block`. */
export type PathStart =
  | { readonly kind: 'entry' }
  | {
      readonly kind: 'after-removed-edge';
      readonly block: number;
      readonly candidates: readonly RemovedEdge[];
    };

/**
 * How a decoded path ended: a normal edge into EXIT (`return`), an exceptional one (`exception`), or a removed
 * edge (`backedge`, `cut`), which also starts the next path. `edge` is the original edge.
 */
export interface PathEnd {
  readonly kind: 'return' | 'exception' | 'backedge' | 'cut';
  readonly edge: number;
}

export interface DecodedPath {
  readonly pathNumber: number;
  /** The DAG edges of the path, dummies included. */
  readonly dagEdges: readonly number[];
  /** The original edges taken, in order; the last is the removed edge when the path ends on one. */
  readonly edges: readonly number[];
  /** The blocks executed in this path, in order: EXIT only when the path returns or throws out. */
  readonly blocks: readonly number[];
  readonly start: PathStart;
  readonly end: PathEnd;
}

/** Ball-Larus §3.5: from ENTRY, repeatedly take the out-edge with the largest `Val` not above what remains. */
export function decodePath(numbering: PathNumbering, pathNumber: number): DecodedPath {
  const decoder = PathDecoder.of(numbering);
  const dagEdges = Array.from(decoder.dagEdges.subarray(0, decoder.decode(pathNumber)));
  const { dag, entry, exit } = numbering;
  const edges: number[] = [];
  const blocks: number[] = [];
  const first = dagEdges[0];
  const start: PathStart =
    dag.kind[first] === ENTRY_DUMMY
      ? {
          kind: 'after-removed-edge',
          block: dag.dst[first],
          candidates: decoder.removedInto.get(dag.dst[first]) ?? [],
        }
      : { kind: 'entry' };
  blocks.push(start.kind === 'entry' ? entry : dag.dst[first]);
  let end: PathEnd | undefined;
  for (const d of dagEdges) {
    const kind = dag.kind[d];
    if (kind === REAL_EDGE) {
      edges.push(dag.origin[d]);
      blocks.push(dag.dst[d]);
      if (dag.dst[d] === exit) {
        const exceptional = numbering.edgeExceptional[dag.origin[d]] === 1;
        end = { kind: exceptional ? 'exception' : 'return', edge: dag.origin[d] };
      }
    } else if (kind === EXIT_DUMMY) {
      edges.push(dag.origin[d]);
      end = { kind: decoder.removedKind.get(dag.origin[d]) ?? 'backedge', edge: dag.origin[d] };
    }
  }
  if (end === undefined) throw new Error(`internal: path ${pathNumber} does not reach EXIT`);
  return { pathNumber, dagEdges, edges, blocks, start, end };
}

/** The DAG edges of path `pathNumber`, for callers that only need to walk them. */
export function pathDagEdges(numbering: PathNumbering, pathNumber: number): number[] {
  const decoder = PathDecoder.of(numbering);
  return Array.from(decoder.dagEdges.subarray(0, decoder.decode(pathNumber)));
}

const decoders = new WeakMap<PathNumbering, PathDecoder>();

/**
 * Decodes path numbers of one numbering into DAG edges, in a buffer it reuses: nothing is allocated per path.
 * A path shares its first edges with the previous one decoded as long as its number falls in the ranges those
 * edges lead to (paths in increasing order share all but their last decisions), and only the rest is walked:
 * a report decoding every counted path of a function in order walks each decision once per change.
 */
export class PathDecoder {
  /** The DAG edges of the path last decoded, `dagEdges[0 .. length)`. */
  readonly dagEdges: Int32Array;
  /** Per block, the removed edges into it (a path starting at it began after one of them). */
  readonly removedInto: ReadonlyMap<number, RemovedEdge[]>;
  /** Per removed original edge, why it was removed. */
  readonly removedKind: ReadonlyMap<number, RemovedEdge['kind']>;
  private length = 0;
  /** DAG out-edges per block by increasing `Val`, with their `Val`s and targets beside them. */
  private readonly outStart: Int32Array;
  private readonly outVal: Float64Array;
  private readonly outEdge: Int32Array;
  private readonly outDst: Int32Array;
  /**
   * Per depth of the last path: the position of its edge in `outEdge`, and the numbers of the paths that begin
   * with its first `depth + 1` edges, `[low, high)`.
   */
  private readonly position: Int32Array;
  private readonly low: Float64Array;
  private readonly high: Float64Array;

  /** The decoder of `numbering`, built once (the numbering is plain data, possibly just parsed from JSON). */
  static of(numbering: PathNumbering): PathDecoder {
    let decoder = decoders.get(numbering);
    if (decoder === undefined) decoders.set(numbering, (decoder = new PathDecoder(numbering)));
    return decoder;
  }

  constructor(private readonly numbering: PathNumbering) {
    const { dag, blockCount } = numbering;
    const bySource = buildCsr(blockCount, dag.edgeCount, dag.src);
    this.outStart = bySource.start;
    this.outEdge = bySource.edges;
    for (let v = 0; v < blockCount; v++) {
      this.outEdge.subarray(this.outStart[v], this.outStart[v + 1]).sort((a, b) => dag.val[a] - dag.val[b]);
    }
    this.outVal = Float64Array.from(this.outEdge, (d) => dag.val[d]);
    this.outDst = Int32Array.from(this.outEdge, (d) => dag.dst[d]);
    // A path of the DAG runs each block at most once.
    this.dagEdges = new Int32Array(blockCount);
    this.position = new Int32Array(blockCount);
    this.low = new Float64Array(blockCount);
    this.high = new Float64Array(blockCount);
    const removedInto = new Map<number, RemovedEdge[]>();
    const removedKind = new Map<number, RemovedEdge['kind']>();
    for (const removed of numbering.removedEdges) {
      const w = numbering.edgeDst[removed.edge];
      const into = removedInto.get(w);
      if (into === undefined) removedInto.set(w, [removed]);
      else into.push(removed);
      removedKind.set(removed.edge, removed.kind);
    }
    this.removedInto = removedInto;
    this.removedKind = removedKind;
  }

  /** Decodes `pathNumber` into `dagEdges`; returns how many edges it has. */
  decode(pathNumber: number): number {
    const { numbering, outStart, outVal, outEdge, outDst, position, low, high, dagEdges } = this;
    if (!Number.isInteger(pathNumber) || pathNumber < 0 || pathNumber >= numbering.pathCount) {
      throw new RangeError(`path number ${pathNumber} is not in [0, ${numbering.pathCount})`);
    }
    // Keep the edges whose ranges hold the number; go on from the end of the last one kept.
    let depth = this.length;
    while (depth > 0 && !(pathNumber >= low[depth - 1] && pathNumber < high[depth - 1])) depth--;
    let v = depth === 0 ? numbering.entry : outDst[position[depth - 1]];
    let reached = depth === 0 ? 0 : low[depth - 1];
    let end = depth === 0 ? numbering.pathCount : high[depth - 1];
    const exit = numbering.exit;
    while (v !== exit) {
      // The out-edges of `v` by `Val`, which strictly increases (every successor has a path): the last one not
      // above what remains.
      const remaining = pathNumber - reached;
      let lo = outStart[v];
      let hi = outStart[v + 1] - 1;
      const last = hi;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (outVal[mid] <= remaining) lo = mid;
        else hi = mid - 1;
      }
      if (lo < last) end = reached + outVal[lo + 1];
      reached += outVal[lo];
      position[depth] = lo;
      low[depth] = reached;
      high[depth] = end;
      dagEdges[depth++] = outEdge[lo];
      v = outDst[lo];
    }
    if (reached !== pathNumber) {
      this.length = 0;
      throw new Error(`internal: path ${pathNumber} decodes with ${pathNumber - reached} left over`);
    }
    this.length = depth;
    return depth;
  }
}
