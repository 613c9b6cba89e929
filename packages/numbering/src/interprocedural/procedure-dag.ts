import { depthFirstSearch } from '../backedges';
import { buildCsr, type Csr } from '../csr';
import type { FlowGraph } from '../flow-graph';
import { NumberingError } from '../numbering-error';
import type { CutReason } from './call-graph';
import type { Procedure } from './program';
import type { ValidatedProcedure } from './validate-program';

/**
 * The two interprocedural schemes of Melski & Reps: `context` counts unbalanced-left paths (a context prefix,
 * then an active suffix, §5); `piecewise` counts unbalanced-right-left paths, which partition an execution
 * into fewer, shorter pieces (§6).
 */
export type InterproceduralScheme = 'context' | 'piecewise';

/**
 * The edges of a procedure's acyclic graph in G*_fn:
 * - `flow`: an original normal edge that stays;
 * - `exception`: an original exceptional edge into a handler inside the procedure (the path continues there);
 * - `call`: `call → returnSite` of a crossed site, standing for `call → Entry_Q … Exit_Q → returnSite`;
 * - `summary`: `call → returnSite` of a cut site (T3): the path waits across the call;
 * - `restart`: the surrogate `Entry_P → v` (`GEntry_P → v` when piecewise) where a path starts after a
 *   backedge into `v`, or after an exception out of a crossed call lands in handler `v`;
 * - `loop-end`: the surrogate `w → GExit_P` of a backedge `w → v` (T2);
 * - `throw-end`: `u → GExit_P` for an exceptional edge `u → Exit_P`: the path ends with the exception.
 */
export type DagEdgeKind = 'flow' | 'exception' | 'call' | 'summary' | 'restart' | 'loop-end' | 'throw-end';

/**
 * One procedure of G*_fn (T0-T3). Vertices are the blocks, then `GExit_P`, then `GEntry_P` when piecewise.
 * The order of a vertex's out-edges (its successor order, which fixes every ρ) is the order of their ids:
 * the exceptional edge first (so its ρ is `<0,0>` and no code has to run on it), then the normal edges by
 * original id, then restart surrogates by target, then loop-end surrogates by backedge; surrogates come after
 * real edges as in the paper's examples, parallel edges included.
 */
export interface ProcedureDag {
  readonly vertexCount: number;
  readonly entry: number;
  readonly exit: number;
  readonly globalExit: number;
  /** `GEntry_P`, or -1 in the context scheme. */
  readonly globalEntry: number;
  /** Where restart surrogates start: `Entry_P` (context) or `GEntry_P` (piecewise). */
  readonly restartSource: number;
  readonly edgeCount: number;
  readonly src: Int32Array;
  readonly dst: Int32Array;
  readonly kind: readonly DagEdgeKind[];
  /** The original edge a DAG edge is, or ends (`loop-end`, `throw-end`); -1 for restarts. */
  readonly origin: Int32Array;
  /** The call site index (in the procedure's `callSites`) of a `call` or `summary` edge, else -1. */
  readonly callSite: Int32Array;
  /** Per vertex, its out-edges in successor order. */
  readonly out: Csr;
  readonly topologicalOrder: Int32Array;
  /** Per original edge: the DAG edge it is, or -1 (backedges, exceptions out of crossed calls). */
  readonly keptAs: Int32Array;
  /** Per original edge: its `loop-end` or `throw-end` surrogate, or -1. */
  readonly endedBy: Int32Array;
  /** Per block: the restart surrogate into it, or -1. */
  readonly restartInto: Int32Array;
}

/**
 * Builds one procedure's DAG. Split edges (`Procedure.splitEdges`) are treated as backedges. Backedges come from a DFS (in edge-id order, call edges included, so any graph,
 * reducible or not) over the procedure's edges with exceptions out of crossed calls replaced by their restart
 * surrogates: those exceptions already ended the path in the callee, whose handler recorded it.
 */
export function buildProcedureDag(
  procedure: Procedure,
  validated: ValidatedProcedure,
  cut: readonly (CutReason | null)[],
  scheme: InterproceduralScheme,
): ProcedureDag {
  const { graph } = procedure;
  const { blockCount, edgeCount, edgeSrc, edgeDst, edgeExceptional, entry, exit } = graph;
  const crossedCall = (v: number): boolean =>
    validated.siteAtCall[v] >= 0 && cut[validated.siteAtCall[v]] === null;
  const restartsAfterThrow = new Uint8Array(edgeCount);
  for (let e = 0; e < edgeCount; e++) {
    if (edgeExceptional[e] === 1 && crossedCall(edgeSrc[e])) restartsAfterThrow[e] = 1;
  }
  const isBackedge = findBackedges(graph, restartsAfterThrow, procedure.name);
  for (const e of procedure.splitEdges ?? []) {
    const touchesCall = validated.siteAtCall[edgeSrc[e]] >= 0 || validated.siteAtCall[edgeDst[e]] >= 0;
    if (
      !(e >= 0 && e < edgeCount) ||
      edgeExceptional[e] === 1 ||
      graph.edgeSilent?.[e] === 1 ||
      edgeDst[e] === exit ||
      touchesCall
    ) {
      throw new NumberingError('invalid-graph', `${procedure.name}: edge ${e} cannot be split`);
    }
    isBackedge[e] = 1;
  }

  const globalExit = blockCount;
  const globalEntry = scheme === 'piecewise' ? blockCount + 1 : -1;
  const restartSource = scheme === 'piecewise' ? globalEntry : entry;
  const src: number[] = [];
  const dst: number[] = [];
  const kind: DagEdgeKind[] = [];
  const origin: number[] = [];
  const callSite: number[] = [];
  const keptAs = new Int32Array(edgeCount).fill(-1);
  const endedBy = new Int32Array(edgeCount).fill(-1);
  const restartInto = new Int32Array(blockCount).fill(-1);
  const push = (from: number, to: number, edgeKind: DagEdgeKind, original: number, site = -1): number => {
    src.push(from);
    dst.push(to);
    kind.push(edgeKind);
    origin.push(original);
    callSite.push(site);
    return src.length - 1;
  };

  for (let e = 0; e < edgeCount; e++) {
    if (edgeExceptional[e] === 0 || restartsAfterThrow[e] === 1) continue;
    if (edgeDst[e] === exit) endedBy[e] = push(edgeSrc[e], globalExit, 'throw-end', e);
    else keptAs[e] = push(edgeSrc[e], edgeDst[e], 'exception', e);
  }
  for (let e = 0; e < edgeCount; e++) {
    if (edgeExceptional[e] === 1 || isBackedge[e] === 1) continue;
    const site = validated.siteAtCall[edgeSrc[e]];
    const edgeKind = site < 0 ? 'flow' : cut[site] === null ? 'call' : 'summary';
    keptAs[e] = push(edgeSrc[e], edgeDst[e], edgeKind, e, site);
  }
  const restartTargets = new Uint8Array(blockCount);
  for (let e = 0; e < edgeCount; e++) {
    if (isBackedge[e] === 1 || (restartsAfterThrow[e] === 1 && edgeDst[e] !== exit))
      restartTargets[edgeDst[e]] = 1;
  }
  for (let v = 0; v < blockCount; v++) {
    if (restartTargets[v] === 1) restartInto[v] = push(restartSource, v, 'restart', -1);
  }
  for (let e = 0; e < edgeCount; e++) {
    if (isBackedge[e] === 1) endedBy[e] = push(edgeSrc[e], globalExit, 'loop-end', e);
  }

  const vertexCount = blockCount + (scheme === 'piecewise' ? 2 : 1);
  const out = buildCsr(vertexCount, src.length, src);
  const dstArray = Int32Array.from(dst);
  return {
    vertexCount,
    entry,
    exit,
    globalExit,
    globalEntry,
    restartSource,
    edgeCount: src.length,
    src: Int32Array.from(src),
    dst: dstArray,
    kind,
    origin: Int32Array.from(origin),
    callSite: Int32Array.from(callSite),
    out,
    topologicalOrder: topologicalOrder(vertexCount, out, dstArray),
    keptAs,
    endedBy,
    restartInto,
  };
}

/** DFS backedges over the procedure's edges minus exceptions out of crossed calls, plus `Entry → handler` for those. */
function findBackedges(graph: FlowGraph, restartsAfterThrow: Uint8Array, name: string): Uint8Array {
  const src: number[] = [];
  const dst: number[] = [];
  const original: number[] = [];
  for (let e = 0; e < graph.edgeCount; e++) {
    if (restartsAfterThrow[e] === 1 && graph.edgeDst[e] === graph.exit) continue;
    src.push(restartsAfterThrow[e] === 1 ? graph.entry : graph.edgeSrc[e]);
    dst.push(graph.edgeDst[e]);
    original.push(e);
  }
  const searched: FlowGraph = {
    blockCount: graph.blockCount,
    entry: graph.entry,
    exit: graph.exit,
    edgeCount: src.length,
    edgeSrc: Int32Array.from(src),
    edgeDst: Int32Array.from(dst),
    edgeExceptional: new Uint8Array(src.length),
  };
  const dfs = depthFirstSearch(searched, buildCsr(graph.blockCount, src.length, searched.edgeSrc));
  const isBackedge = new Uint8Array(graph.edgeCount);
  for (let i = 0; i < src.length; i++) {
    if (dfs.isBackedge[i] === 0) continue;
    const e = original[i];
    if (graph.edgeExceptional[e] === 1) {
      throw new NumberingError(
        'exceptional-backedge',
        `${name}: exceptional edge ${e} closes a cycle as a DFS backedge; no code can end a path on it`,
      );
    }
    isBackedge[e] = 1;
  }
  return isBackedge;
}

/** Kahn's algorithm with a first-in first-out queue seeded in vertex order: a function of the DAG alone. */
function topologicalOrder(vertexCount: number, out: Csr, dst: Int32Array): Int32Array {
  const inDegree = new Int32Array(vertexCount);
  for (const d of dst) inDegree[d]++;
  const order = new Int32Array(vertexCount);
  let head = 0;
  let tail = 0;
  for (let v = 0; v < vertexCount; v++) if (inDegree[v] === 0) order[tail++] = v;
  while (head < tail) {
    const v = order[head++];
    for (let i = out.start[v]; i < out.start[v + 1]; i++) {
      const w = dst[out.edges[i]];
      if (--inDegree[w] === 0) order[tail++] = w;
    }
  }
  if (tail !== vertexCount) throw new Error('internal: a procedure DAG has a cycle');
  return order;
}
