import { depthFirstSearch } from '../backedges';
import { buildCsr } from '../csr';
import { pathDagEdges } from '../decode';
import type { PathNumbering } from '../number-paths';
import type { PathOp } from '../path-op';
import { InterestingPathsError, type InterestingPaths } from './interesting-paths';
import { numberingGraph } from './numbering-graph';
import { preferentialOps } from './preferential-ops';
import { preferentialWeights } from './preferential-weights';

/** The function a set of interesting paths is applied to: its name, its CFG fingerprint, its BL numbering. */
export interface PreferentialTarget {
  readonly functionName: string;
  readonly fingerprint: string;
  readonly numbering: PathNumbering;
}

export interface PreferentialOptions {
  /**
   * The largest counter array to allocate (residual mode never falls back to a hash table): interesting paths
   * whose id lands beyond it count as uninteresting, and are listed in `droppedPathIds`. Default: no cap.
   */
  readonly maxArraySize?: number;
}

/** Preferential path numbering of one function: plain data, JSON-serialisable. */
export interface PreferentialNumbering {
  readonly format: 'pathprof-ppp/1';
  readonly functionName: string;
  readonly fingerprint: string;
  /** How many interesting paths were given. */
  readonly interestingCount: number;
  /** Per DAG edge of the Ball-Larus numbering: the PPP weight, or null when no interesting path takes it. */
  readonly weight: readonly (number | null)[];
  /** The counter array's length: `cis` of the entry, capped by `maxArraySize`. */
  readonly arraySize: number;
  /** Per slot: the Ball-Larus id of the interesting path it counts, or -1 for a hole no interesting path has. */
  readonly slotPathId: readonly number[];
  /** Array size over interesting paths (before any cap): 1 is perfect; null when none is interesting. */
  readonly compactness: number | null;
  /** Interesting paths whose slot fell beyond `maxArraySize`: they will be reported as residual. */
  readonly droppedPathIds: readonly number[];
  /**
   * The PPP register's ops, beside the Ball-Larus register's: same spanning tree, so both change on the same
   * chords; `prologue` and, per original edge, `edgeOps` have `PathOp` meaning with the PPP register, and each
   * count is where Ball-Larus counts: there the pair (PPP id, BL id) goes to `classifyPreferentialPath`.
   */
  readonly prologue: readonly PathOp[];
  readonly edgeOps: readonly (readonly PathOp[])[];
}

/**
 * Preferential path profiling (Vaswani, Nori & Chilimbi, POPL 2007) over a function's Ball-Larus numbering:
 * the interesting paths get compact ids `[0, arraySize)`, so counts fit an array; any other path is told
 * apart by the Ball-Larus id stored per slot (Lemma 2: no weighting can keep every other path out of range).
 * The interesting set is checked first: it must name this function and its current graph, and hold distinct
 * valid path ids; otherwise an `InterestingPathsError` says what is wrong.
 */
export function numberPreferentialPaths(
  target: PreferentialTarget,
  interesting: InterestingPaths,
  options: PreferentialOptions = {},
): PreferentialNumbering {
  const { functionName, numbering } = target;
  checkInteresting(target, interesting);
  const order = topologicalOrder(numbering);
  const paths = interesting.pathIds.map((id) => pathDagEdges(numbering, id));
  const { weight, ids, arraySize } = preferentialWeights(numbering, order, paths);
  const cap = options.maxArraySize ?? Infinity;
  const size = Math.min(arraySize, cap);
  const slotPathId = new Array<number>(size).fill(-1);
  const droppedPathIds: number[] = [];
  ids.forEach((slot, i) => {
    if (slot < size) slotPathId[slot] = interesting.pathIds[i];
    else droppedPathIds.push(interesting.pathIds[i]);
  });
  const { prologue, edgeOps } = preferentialOps(numbering, weight);
  return {
    format: 'pathprof-ppp/1',
    functionName,
    fingerprint: target.fingerprint,
    interestingCount: ids.length,
    weight,
    arraySize: size,
    slotPathId,
    compactness: ids.length === 0 ? null : arraySize / ids.length,
    droppedPathIds: droppedPathIds.sort((a, b) => a - b),
    prologue,
    edgeOps,
  };
}

function checkInteresting(target: PreferentialTarget, interesting: InterestingPaths): void {
  const { functionName, numbering } = target;
  const fail = (problem: ConstructorParameters<typeof InterestingPathsError>[1], message: string): never => {
    throw new InterestingPathsError(functionName, problem, message);
  };
  if (interesting.functionName !== functionName) {
    fail('wrong-function', `the interesting paths are those of ${interesting.functionName}`);
  }
  if (interesting.fingerprint !== target.fingerprint) {
    fail(
      'stale-fingerprint',
      `the interesting paths were numbered on graph ${interesting.fingerprint}, the function is now ${target.fingerprint}; profile it again`,
    );
  }
  const seen = new Set<number>();
  for (const id of interesting.pathIds) {
    if (!Number.isInteger(id) || id < 0 || id >= numbering.pathCount) {
      fail('invalid-path-id', `path id ${id} is not in [0, ${numbering.pathCount})`);
    }
    if (seen.has(id)) fail('duplicate-path-id', `path id ${id} is listed twice`);
    seen.add(id);
  }
}

/** The DAG's vertices in topological order: the DFS order Ball-Larus numbered with, which stays valid. */
function topologicalOrder(numbering: PathNumbering): Int32Array {
  const graph = numberingGraph(numbering);
  return depthFirstSearch(graph, buildCsr(graph.blockCount, graph.edgeCount, graph.edgeSrc)).topologicalOrder;
}
