import { buildCsr, type Csr } from './csr';
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
  const index = decodeIndex(numbering);
  const dagEdges = pathDagEdges(numbering, pathNumber);
  const { dag, entry, exit } = numbering;
  const edges: number[] = [];
  const blocks: number[] = [];
  const first = dagEdges[0];
  const start: PathStart =
    dag.kind[first] === ENTRY_DUMMY
      ? {
          kind: 'after-removed-edge',
          block: dag.dst[first],
          candidates: index.removedInto.get(dag.dst[first]) ?? [],
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
      end = { kind: index.removedKind.get(dag.origin[d]) ?? 'backedge', edge: dag.origin[d] };
    }
  }
  if (end === undefined) throw new Error(`internal: path ${pathNumber} does not reach EXIT`);
  return { pathNumber, dagEdges, edges, blocks, start, end };
}

/** The DAG edges of path `pathNumber`, for callers that only need to walk them. */
export function pathDagEdges(numbering: PathNumbering, pathNumber: number): number[] {
  if (!Number.isInteger(pathNumber) || pathNumber < 0 || pathNumber >= numbering.pathCount) {
    throw new RangeError(`path number ${pathNumber} is not in [0, ${numbering.pathCount})`);
  }
  const { bySource } = decodeIndex(numbering);
  const { dag, exit } = numbering;
  const path: number[] = [];
  let remaining = pathNumber;
  let v = numbering.entry;
  while (v !== exit) {
    // The out-edges of `v` are sorted by `Val`, which strictly increases (every successor has a path).
    let lo = bySource.start[v];
    let hi = bySource.start[v + 1] - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (dag.val[bySource.edges[mid]] <= remaining) lo = mid;
      else hi = mid - 1;
    }
    const e = bySource.edges[lo];
    remaining -= dag.val[e];
    path.push(e);
    v = dag.dst[e];
  }
  if (remaining !== 0) throw new Error(`internal: path ${pathNumber} decodes with ${remaining} left over`);
  return path;
}

interface DecodeIndex {
  readonly bySource: Csr;
  readonly removedInto: ReadonlyMap<number, RemovedEdge[]>;
  readonly removedKind: ReadonlyMap<number, RemovedEdge['kind']>;
}

const indexes = new WeakMap<PathNumbering, DecodeIndex>();

/** Built once per numbering (the numbering is plain data, possibly just parsed from JSON) and cached. */
function decodeIndex(numbering: PathNumbering): DecodeIndex {
  const cached = indexes.get(numbering);
  if (cached !== undefined) return cached;
  const { dag } = numbering;
  const bySource = buildCsr(numbering.blockCount, dag.edgeCount, dag.src);
  for (let v = 0; v < numbering.blockCount; v++) {
    bySource.edges.subarray(bySource.start[v], bySource.start[v + 1]).sort((a, b) => dag.val[a] - dag.val[b]);
  }
  const removedInto = new Map<number, RemovedEdge[]>();
  const removedKind = new Map<number, RemovedEdge['kind']>();
  for (const removed of numbering.removedEdges) {
    const w = numbering.edgeDst[removed.edge];
    const into = removedInto.get(w);
    if (into === undefined) removedInto.set(w, [removed]);
    else into.push(removed);
    removedKind.set(removed.edge, removed.kind);
  }
  const index = { bySource, removedInto, removedKind };
  indexes.set(numbering, index);
  return index;
}
