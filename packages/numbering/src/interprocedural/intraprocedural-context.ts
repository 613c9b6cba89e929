import { depthFirstSearch } from '../backedges';
import { buildCsr } from '../csr';
import { decodePath } from '../decode';
import type { FlowGraph } from '../flow-graph';
import { numberPaths, type PathNumbering } from '../number-paths';
import { NumberingError } from '../numbering-error';
import { validateFlowGraph } from '../validate';

/**
 * One instruction of intraprocedural context profiling, over the path register `r` and one saved value per
 * loop header:
 * - `add`:     `r += value`;
 * - `save`:    `saved[header] = r` (the loop is entered from outside: `r` is the context of its iterations);
 * - `record`:  `count[r + value]++`;
 * - `restart`: `r = saved[header] + value` (a backedge: the next iteration keeps the context of the loop).
 */
export type ContextPathOp =
  | { readonly kind: 'add'; readonly value: number }
  | { readonly kind: 'save'; readonly header: number }
  | { readonly kind: 'record'; readonly value: number }
  | { readonly kind: 'restart'; readonly header: number; readonly value: number };

/** A step of a decoded path: an original edge, or a restart at a loop header after its backedge. */
export type ContextPathStep =
  { readonly kind: 'edge'; readonly edge: number } | { readonly kind: 'restart'; readonly header: number };

/** How an edge of the transformed graph relates to the original one. */
type SplitRole = 'edge' | 'header-entry' | 'header-restart' | 'loop-end';

export interface IntraproceduralContextNumbering {
  readonly format: 'pathprof-intraprocedural-context/1';
  readonly pathCount: number;
  /** The loop headers (backedge targets), in block order. */
  readonly headers: readonly number[];
  /** `r = 0` runs at entry; then per original edge, these ops in order. */
  readonly edgeOps: readonly (readonly ContextPathOp[])[];
  /** Ball-Larus numbering of the transformed graph, which decoding walks. */
  readonly transformed: PathNumbering;
  /** Per transformed edge: its role, and the original edge it is or ends (or the header it splits). */
  readonly role: readonly SplitRole[];
  readonly origin: readonly number[];
}

export interface DecodedContextPath {
  readonly pathNumber: number;
  readonly steps: readonly ContextPathStep[];
  /** The leading steps that form the context prefix: up to and including the last restart (0 if none). */
  readonly contextLength: number;
}

/**
 * Melski & Reps §7: within one procedure, every loop iteration's path carries the path that led into the
 * loop, which plain Ball-Larus forgets after the first iteration. T1 splits each backedge target `v` into
 * `v_a` (all in-edges) and `v_b` (all out-edges) joined by an edge; T2 adds a second, surrogate `v_a → v_b`,
 * a surrogate `w → Exit` per backedge `w → v`, and deletes the backedges; the result is numbered by Ball-Larus
 * with successors in edge order (exceptional edges first, so they carry 0; the surrogate after the plain
 * `v_a → v_b`). Needs a reducible graph: `saved[v]` must have been set on the way to every backedge into `v`.
 */
export function numberIntraproceduralContext(graph: FlowGraph): IntraproceduralContextNumbering {
  const adjacency = validateFlowGraph(graph);
  const { blockCount, edgeCount, edgeSrc, edgeDst, edgeExceptional, entry, exit } = graph;
  const { isBackedge } = depthFirstSearch(graph, adjacency.out);
  const headerIndex = new Int32Array(blockCount).fill(-1);
  const headers: number[] = [];
  for (let e = 0; e < edgeCount; e++) {
    if (isBackedge[e] === 0) continue;
    if (edgeExceptional[e] === 1) {
      throw new NumberingError(
        'exceptional-backedge',
        `exceptional edge ${e} closes a loop; no code can run on it`,
      );
    }
    if (headerIndex[edgeDst[e]] < 0) headerIndex[edgeDst[e]] = 0;
  }
  for (let v = 0; v < blockCount; v++) if (headerIndex[v] >= 0) headerIndex[v] = headers.push(v) - 1;
  checkReducible(graph, isBackedge);

  const outPart = (v: number): number => (headerIndex[v] >= 0 ? blockCount + headerIndex[v] : v);
  const src: number[] = [];
  const dst: number[] = [];
  const exceptional: number[] = [];
  const role: SplitRole[] = [];
  const origin: number[] = [];
  const push = (
    from: number,
    to: number,
    edgeRole: SplitRole,
    original: number,
    isExceptional = 0,
  ): number => {
    src.push(from);
    dst.push(to);
    exceptional.push(isExceptional);
    role.push(edgeRole);
    origin.push(original);
    return src.length - 1;
  };
  const splitOf = new Int32Array(edgeCount).fill(-1);
  for (const wanted of [1, 0]) {
    for (let e = 0; e < edgeCount; e++) {
      if (edgeExceptional[e] !== wanted || isBackedge[e] === 1) continue;
      if (wanted === 1 && headerIndex[edgeDst[e]] >= 0) {
        throw new NumberingError('invalid-graph', `exceptional edge ${e} enters loop header ${edgeDst[e]}`);
      }
      splitOf[e] = push(outPart(edgeSrc[e]), edgeDst[e], 'edge', e, wanted);
    }
  }
  const entrySplit = headers.map((v) => push(v, outPart(v), 'header-entry', v));
  const restartSplit = headers.map((v) => push(v, outPart(v), 'header-restart', v));
  for (let e = 0; e < edgeCount; e++)
    if (isBackedge[e] === 1) splitOf[e] = push(outPart(edgeSrc[e]), exit, 'loop-end', e);

  const transformed = numberPaths(
    {
      blockCount: blockCount + headers.length,
      entry,
      exit,
      edgeCount: src.length,
      edgeSrc: Int32Array.from(src),
      edgeDst: Int32Array.from(dst),
      edgeExceptional: Uint8Array.from(exceptional),
    },
    { successorOrder: 'edge-id', maxPaths: Number.MAX_SAFE_INTEGER },
  );
  const val = new Array<number>(src.length);
  transformed.dag.origin.forEach((t, d) => {
    if (transformed.dag.kind[d] === 0) val[t] = transformed.dag.val[d];
  });
  const edgeOps = Array.from({ length: edgeCount }, (_, e): ContextPathOp[] => {
    const ops: ContextPathOp[] = [];
    const header = headerIndex[edgeDst[e]];
    if (isBackedge[e] === 1) {
      ops.push({ kind: 'record', value: val[splitOf[e]] });
      ops.push({ kind: 'restart', header: edgeDst[e], value: val[restartSplit[header]] });
      return ops;
    }
    if (val[splitOf[e]] !== 0) ops.push({ kind: 'add', value: val[splitOf[e]] });
    if (header >= 0) {
      ops.push({ kind: 'save', header: edgeDst[e] });
      if (val[entrySplit[header]] !== 0) ops.push({ kind: 'add', value: val[entrySplit[header]] });
    }
    if (edgeDst[e] === exit) ops.push({ kind: 'record', value: 0 });
    return ops;
  });
  return {
    format: 'pathprof-intraprocedural-context/1',
    pathCount: transformed.pathCount,
    headers,
    edgeOps,
    transformed,
    role,
    origin,
  };
}

/** The path with number `pathNumber`, in original edges and restarts, with its context prefix marked. */
export function decodeContextPath(
  numbering: IntraproceduralContextNumbering,
  pathNumber: number,
): DecodedContextPath {
  const steps: ContextPathStep[] = [];
  let contextLength = 0;
  for (const t of decodePath(numbering.transformed, pathNumber).edges) {
    const role = numbering.role[t];
    if (role === 'header-restart') {
      steps.push({ kind: 'restart', header: numbering.origin[t] });
      contextLength = steps.length;
    } else if (role !== 'header-entry') steps.push({ kind: 'edge', edge: numbering.origin[t] });
  }
  return { pathNumber, steps, contextLength };
}

/** Each backedge `w → v` needs `v` to dominate `w`: no route from the entry reaches `w` while avoiding `v`. */
function checkReducible(graph: FlowGraph, isBackedge: Uint8Array): void {
  const out = buildCsr(graph.blockCount, graph.edgeCount, graph.edgeSrc);
  for (let e = 0; e < graph.edgeCount; e++) {
    if (isBackedge[e] === 0) continue;
    const header = graph.edgeDst[e];
    const seen = new Uint8Array(graph.blockCount);
    seen[header] = 1;
    seen[graph.entry] = 1;
    const stack = [graph.entry];
    while (stack.length > 0) {
      const v = stack.pop() as number;
      if (v === graph.edgeSrc[e]) {
        throw new NumberingError(
          'invalid-graph',
          `the loop of backedge ${e} into ${header} is irreducible (entered around its header); split nodes first`,
        );
      }
      for (let i = out.start[v]; i < out.start[v + 1]; i++) {
        const w = graph.edgeDst[out.edges[i]];
        if (seen[w] === 0) {
          seen[w] = 1;
          stack.push(w);
        }
      }
    }
  }
}
