import { buildCsr, type Csr } from './csr';
import { codelessEdges, type FlowGraph } from './flow-graph';
import { KEPT } from './path-budget';

/** Kinds of DAG edge: an original edge, a dummy `ENTRY→w` (a path starting after a removed edge into `w`), or a
 * dummy `v→EXIT` (a path ending on one removed edge out of `v`). */
export const REAL_EDGE = 0;
export const ENTRY_DUMMY = 1;
export const EXIT_DUMMY = 2;

/**
 * The acyclic graph whose ENTRY→EXIT paths are numbered (Ball-Larus §4): the original edges minus the removed
 * ones (backedges and cuts), plus dummy edges. DAG edge ids are: kept original edges in original order, then one
 * `ENTRY→w` per block that removed edges enter (in block order), then one `v→EXIT` per removed edge (in edge
 * order). That last choice departs from the paper, which shares one `v→EXIT` among all removed edges out of `v`:
 * a dummy per removed edge lets a path profile tell which of several backedges of one block was taken, so edge
 * counts derived from paths are exact. `ENTRY→w` stays shared: the previous path already names the edge.
 */
export interface Dag {
  readonly nodeCount: number;
  readonly entry: number;
  readonly exit: number;
  readonly edgeCount: number;
  readonly src: Int32Array;
  readonly dst: Int32Array;
  readonly kind: Uint8Array;
  /** The original edge a real edge is, or the removed original edge an exit dummy stands for; -1 for entry dummies. */
  readonly origin: Int32Array;
  readonly exceptional: Uint8Array;
  /** 1 for real edges no code can run on: exceptional and silent ones (see `FlowGraph.edgeSilent`). */
  readonly codeless: Uint8Array;
  /** Per original edge: its DAG edge when kept, else -1. */
  readonly realEdgeOf: Int32Array;
  /** Per original edge: its dummy `v→EXIT` when removed, else -1. */
  readonly exitDummyOf: Int32Array;
  /** Per block: its dummy `ENTRY→w`, or -1. */
  readonly entryDummyOf: Int32Array;
  readonly out: Csr;
  readonly in: Csr;
}

export function buildDag(graph: FlowGraph, removed: Uint8Array): Dag {
  const { blockCount, edgeCount, edgeSrc, edgeDst, edgeExceptional, entry, exit } = graph;
  let removedCount = 0;
  const isEntryTarget = new Uint8Array(blockCount);
  for (let e = 0; e < edgeCount; e++) {
    if (removed[e] !== KEPT) {
      removedCount++;
      isEntryTarget[edgeDst[e]] = 1;
    }
  }
  let entryDummyCount = 0;
  for (let w = 0; w < blockCount; w++) entryDummyCount += isEntryTarget[w];
  const dagEdgeCount = edgeCount - removedCount + entryDummyCount + removedCount;
  const src = new Int32Array(dagEdgeCount);
  const dst = new Int32Array(dagEdgeCount);
  const kind = new Uint8Array(dagEdgeCount);
  const origin = new Int32Array(dagEdgeCount);
  const exceptional = new Uint8Array(dagEdgeCount);
  const codeless = new Uint8Array(dagEdgeCount);
  const originalCodeless = codelessEdges(graph);
  const realEdgeOf = new Int32Array(edgeCount).fill(-1);
  const exitDummyOf = new Int32Array(edgeCount).fill(-1);
  const entryDummyOf = new Int32Array(blockCount).fill(-1);
  let d = 0;
  for (let e = 0; e < edgeCount; e++) {
    if (removed[e] !== KEPT) continue;
    src[d] = edgeSrc[e];
    dst[d] = edgeDst[e];
    kind[d] = REAL_EDGE;
    origin[d] = e;
    exceptional[d] = edgeExceptional[e];
    codeless[d] = originalCodeless[e];
    realEdgeOf[e] = d++;
  }
  for (let w = 0; w < blockCount; w++) {
    if (isEntryTarget[w] === 0) continue;
    src[d] = entry;
    dst[d] = w;
    kind[d] = ENTRY_DUMMY;
    origin[d] = -1;
    entryDummyOf[w] = d++;
  }
  for (let e = 0; e < edgeCount; e++) {
    if (removed[e] === KEPT) continue;
    src[d] = edgeSrc[e];
    dst[d] = exit;
    kind[d] = EXIT_DUMMY;
    origin[d] = e;
    exitDummyOf[e] = d++;
  }
  return {
    nodeCount: blockCount,
    entry,
    exit,
    edgeCount: dagEdgeCount,
    src,
    dst,
    kind,
    origin,
    exceptional,
    codeless,
    realEdgeOf,
    exitDummyOf,
    entryDummyOf,
    out: buildCsr(blockCount, dagEdgeCount, src),
    in: buildCsr(blockCount, dagEdgeCount, dst),
  };
}
