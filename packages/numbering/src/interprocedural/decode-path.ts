import type { InterproceduralNumbering } from './number-program';
import { PathCursor } from './path-cursor';
import type { PathStep, SupergraphPath, SupergraphVertex } from './supergraph-path';

export interface DecodedInterproceduralPath {
  readonly pathNumber: bigint;
  readonly path: SupergraphPath;
  /** The vertices after `Entry_global`, in order: the entry point's, then one per step (`Exit_global` implied). */
  readonly vertices: readonly SupergraphVertex[];
  /**
   * How many leading steps form the context prefix: up to and including the last restart surrogate, which
   * summarises how the active suffix was reached (0 when no restart: the whole path ran in one go). For a
   * piecewise path started at `GEntry_P` the prefix is its first step.
   */
  readonly contextLength: number;
}

/**
 * The path with number `pathNumber` (Algorithm 5.2, and its piecewise counterpart the paper leaves to the
 * reader): from the entry point whose range holds the number, at each vertex take the successor with the
 * largest value not above what remains; calls have one successor and returns one target while a call is open.
 */
export function decodeInterproceduralPath(
  numbering: InterproceduralNumbering,
  pathNumber: bigint,
): DecodedInterproceduralPath {
  if (pathNumber < 0n || pathNumber >= numbering.pathCount) {
    throw new RangeError(`path number ${pathNumber} is not in [0, ${numbering.pathCount})`);
  }
  const entryPoint = numbering.entryPoints.findIndex(
    (point) => point.start <= pathNumber && pathNumber < point.start + point.count,
  );
  const cursor = new PathCursor(numbering, entryPoint);
  const steps: PathStep[] = [];
  const vertices: SupergraphVertex[] = [{ procedure: cursor.procedure, vertex: cursor.vertex }];
  let contextLength = 0;
  while (!cursor.finished) {
    const step = nextStep(cursor, pathNumber - cursor.pathNumber);
    cursor.take(step);
    steps.push(step);
    if (step.kind === 'edge' && numbering.procedures[step.procedure].dag.kind[step.edge] === 'restart') {
      contextLength = steps.length;
    }
    if (!(step.kind === 'return' && step.to === null)) {
      vertices.push({ procedure: cursor.procedure, vertex: cursor.vertex });
    }
  }
  if (cursor.pathNumber !== pathNumber) {
    throw new Error(`internal: path ${pathNumber} decodes to ${cursor.pathNumber}`);
  }
  return { pathNumber, path: { entryPoint, steps }, vertices, contextLength };
}

function nextStep(cursor: PathCursor, remaining: bigint): PathStep {
  const procedure = cursor.numbering.procedures[cursor.procedure];
  const { dag } = procedure;
  if (cursor.atExit) {
    if (cursor.hasOpenCall) return { kind: 'return', procedure: cursor.procedure, to: cursor.matchingReturn };
    let chosen = procedure.exitSuccessors[0];
    for (const successor of procedure.exitSuccessors) if (successor.value <= remaining) chosen = successor;
    return { kind: 'return', procedure: cursor.procedure, to: chosen.caller };
  }
  const first = dag.out.edges[dag.out.start[cursor.vertex]];
  if (dag.kind[first] === 'call')
    return { kind: 'call', procedure: cursor.procedure, site: dag.callSite[first] };
  let chosen = first;
  for (let i = dag.out.start[cursor.vertex]; i < dag.out.start[cursor.vertex + 1]; i++) {
    const e = dag.out.edges[i];
    if (cursor.edgeValue(e) <= remaining) chosen = e;
  }
  return { kind: 'edge', procedure: cursor.procedure, edge: chosen };
}
