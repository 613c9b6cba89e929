import { buildCsr } from '../csr';
import { NumberingError } from '../numbering-error';
import { maximumSpanningTree } from '../spanning-tree';
import { staticEdgeWeights } from '../weights';
import type {
  CallSitePlan,
  InterproceduralOp,
  InterproceduralPlan,
  ProcedurePlan,
} from './instrumentation-plan';
import { add, evaluate, isZero, subtract, ZERO, type LinearFunction } from './linear-function';
import type { InterproceduralNumbering, NumberedProcedure } from './number-program';
import { largestNvc, magnitude } from './value-bound';
import type { ExitSuccessor } from './global-values';

export interface InterproceduralPlanOptions {
  /** Per procedure, estimated executions per original edge (heavy edges stay code-free); default Ball's static estimate. */
  readonly weights?: readonly ArrayLike<number>[];
}

/**
 * Chord placement under the placement restriction (digest §12): Ball's event counting only makes the register
 * exact at the end of a path, but here `pathNum` must be exact wherever it is observed: at a crossed call (the
 * callee reads it), at `Exit_P` (the caller resumes from it) and where a path is recorded (`GExit_P`), and it is
 * exact where it is set: at `Entry_P`, `GEntry_P` and after a crossed call returns. Each procedure's DAG (its
 * crossed call edges removed) is therefore cut into segments between those points by joining every one of them
 * to one virtual vertex through a forced tree edge: all their potentials are 0, so the increments of any segment
 * sum to its exact value, for the `a` and the `b` of ρ alike (nvc is constant between those points). Exceptional
 * edges are ρ = <0,0> and preferred in the tree, so they get increment 0 and need no code.
 */
export function planInterproceduralInstrumentation(
  numbering: InterproceduralNumbering,
  options: InterproceduralPlanOptions = {},
): InterproceduralPlan {
  const nvcBound = largestNvc(numbering);
  const planned = numbering.procedures.map((procedure, p) =>
    planProcedure(numbering, p, options.weights?.[p] ?? staticEdgeWeights(procedure.graph), nvcBound[p]),
  );
  const componentBounds = numbering.components.map((c) => c.count);
  planned.forEach(({ bound }, p) => {
    const c = numbering.procedures[p].component;
    if (bound > componentBounds[c]) componentBounds[c] = bound;
  });
  return {
    scheme: numbering.scheme,
    procedures: planned.map(({ plan }) => plan),
    valueBound: componentBounds.reduce((max, bound) => (bound > max ? bound : max), 0n),
    componentBounds,
  };
}

function planProcedure(
  numbering: InterproceduralNumbering,
  p: number,
  weights: ArrayLike<number>,
  nvcBound: bigint,
): { plan: ProcedurePlan; bound: bigint } {
  const procedure = numbering.procedures[p];
  const { dag, graph } = procedure;
  if (weights.length !== graph.edgeCount || !Array.from(weights).every(Number.isFinite)) {
    throw new NumberingError(
      'invalid-option',
      `${procedure.name}: weights must be ${graph.edgeCount} finite numbers`,
    );
  }
  const { increment, potential } = chordIncrements(procedure, weights);
  const piecewise = numbering.scheme === 'piecewise';
  const restartNvc = procedure.unbalancedExitPaths;
  const restartOp = (block: number): InterproceduralOp => {
    const inc = increment[dag.restartInto[block]];
    if (!piecewise) return { kind: 'restart', increment: inc };
    const start = numbering.entryPoints[procedure.globalEntryPoint].start;
    return { kind: 'restart-piecewise', pathNumber: start + evaluate(inc, restartNvc), nvc: restartNvc };
  };
  const edgeOps = Array.from({ length: graph.edgeCount }, (_, e): InterproceduralOp[] => {
    const kept = dag.keptAs[e];
    const ended = dag.endedBy[e];
    if (kept >= 0)
      return dag.kind[kept] === 'call' || isZero(increment[kept])
        ? []
        : [{ kind: 'add', increment: increment[kept] }];
    if (ended >= 0 && dag.kind[ended] === 'loop-end') {
      return [{ kind: 'record', increment: increment[ended] }, restartOp(graph.edgeDst[e])];
    }
    // A throw-end is a tree edge or a zero chord: the function-level handler records `pathNum` as it is.
    if (ended >= 0) return [{ kind: 'record', increment: ZERO }];
    // An exception out of a crossed call: the callee recorded the path; a handler here starts the next one.
    return graph.edgeDst[e] === graph.exit ? [] : [restartOp(graph.edgeDst[e])];
  });
  const callSites = procedure.callSites.map((callSite, k): CallSitePlan => {
    if (callSite.cut !== null || callSite.callee === null) return { kind: 'cut' };
    const callee = numbering.procedures[callSite.callee];
    const back = callee.exitSuccessors.find((s) => s.caller?.procedure === p && s.caller.site === k);
    return {
      kind: 'crossed',
      argument: procedure.psi[callSite.returnSite],
      returnFixup: piecewise ? { value: (back as ExitSuccessor).value, nvc: restartNvc } : null,
    };
  });
  const rootExit = procedure.exitSuccessors.find((s) => s.caller === null);
  // The register at v is its exact prefix (below the component's count, from its start) minus pot(v)(nvc); an
  // op adds at most one increment to it.
  const component = numbering.components[procedure.component];
  const largest = (fs: readonly LinearFunction[]): bigint =>
    fs.reduce((max, f) => (magnitude(f, nvcBound) > max ? magnitude(f, nvcBound) : max), 0n);
  return {
    plan: {
      edgeOps,
      callSites,
      rootStart: procedure.rootEntryPoint < 0 ? null : numbering.entryPoints[procedure.rootEntryPoint].start,
      rootExitValue: rootExit?.value ?? 0n,
      componentStart: component.start,
    },
    bound: component.count + largest(potential) + largest(increment) + nvcBound,
  };
}

/** The increment of every DAG edge (0 on tree edges), exact at every observation point, and the potentials. */
function chordIncrements(
  procedure: NumberedProcedure,
  weights: ArrayLike<number>,
): { increment: LinearFunction[]; potential: LinearFunction[] } {
  const { dag, rho, callSites } = procedure;
  const hub = dag.vertexCount;
  const observed = new Uint8Array(dag.vertexCount);
  observed[dag.entry] = 1;
  observed[dag.exit] = 1;
  observed[dag.globalExit] = 1;
  if (dag.globalEntry >= 0) observed[dag.globalEntry] = 1;
  for (const callSite of callSites) {
    if (callSite.cut !== null || callSite.callee === null) continue;
    observed[callSite.call] = 1;
    observed[callSite.returnSite] = 1;
  }
  // Tree candidates: the DAG edges but crossed calls, then one forced edge hub–v per observation point.
  const src: number[] = [];
  const dst: number[] = [];
  const weight: number[] = [];
  const forced: number[] = [];
  const value: LinearFunction[] = [];
  const dagEdge: number[] = [];
  // A restart surrogate runs as often as the removed edges into its target: backedges, exceptions out of calls.
  const { graph } = procedure;
  const removedWeight = new Float64Array(dag.vertexCount);
  for (let e = 0; e < graph.edgeCount; e++) {
    if (dag.keptAs[e] < 0 && graph.edgeDst[e] !== graph.exit) removedWeight[graph.edgeDst[e]] += weights[e];
  }
  // Silent edges (no code can run on them) are forced into the tree, so their increment is 0.
  const silent = (d: number): boolean => dag.kind[d] === 'flow' && graph.edgeSilent?.[dag.origin[d]] === 1;
  for (let d = 0; d < dag.edgeCount; d++) {
    if (dag.kind[d] === 'call') continue;
    const kind = dag.kind[d];
    src.push(dag.src[d]);
    dst.push(dag.dst[d]);
    weight.push(
      kind === 'exception' || kind === 'throw-end'
        ? Number.MAX_VALUE
        : kind === 'restart'
          ? removedWeight[dag.dst[d]]
          : weights[dag.origin[d]],
    );
    forced.push(silent(d) ? 1 : 0);
    value.push(rho[d]);
    dagEdge.push(d);
  }
  for (let v = 0; v < dag.vertexCount; v++) {
    if (observed[v] === 0) continue;
    src.push(hub);
    dst.push(v);
    weight.push(0);
    forced.push(1);
    value.push(ZERO);
    dagEdge.push(-1);
  }
  const inTree = maximumSpanningTree({
    nodeCount: dag.vertexCount + 1,
    edgeCount: src.length,
    src,
    dst,
    weight,
    forced,
  });
  const potential = treePotentials(dag.vertexCount + 1, hub, src, dst, inTree, value);
  const increment = new Array<LinearFunction>(dag.edgeCount).fill(ZERO);
  for (let i = 0; i < src.length; i++) {
    if (dagEdge[i] < 0 || inTree[i] === 1) continue;
    increment[dagEdge[i]] = subtract(add(value[i], potential[src[i]]), potential[dst[i]]);
  }
  for (let d = 0; d < dag.edgeCount; d++) {
    if ((dag.kind[d] === 'exception' || dag.kind[d] === 'throw-end') && !isZero(increment[d])) {
      throw new Error(`internal: exceptional DAG edge ${d} of ${procedure.name} needs code`);
    }
    if (silent(d) && !isZero(increment[d])) {
      throw new NumberingError(
        'invalid-graph',
        `${procedure.name}: silent edge ${dag.origin[d]} would need code`,
      );
    }
  }
  return { increment, potential };
}

/** `pot(root) = 0` and `pot(w) = pot(u) ± value(e)` across each tree edge, in exact arithmetic. */
function treePotentials(
  nodeCount: number,
  root: number,
  src: readonly number[],
  dst: readonly number[],
  inTree: Uint8Array,
  value: readonly LinearFunction[],
): LinearFunction[] {
  const endpoints = Int32Array.from({ length: 2 * src.length }, (_, i) =>
    i % 2 === 0 ? src[i >> 1] : dst[i >> 1],
  );
  const incident = buildCsr(nodeCount, endpoints.length, endpoints);
  const potential = new Array<LinearFunction | undefined>(nodeCount).fill(undefined);
  potential[root] = ZERO;
  const queue = [root];
  for (let head = 0; head < queue.length; head++) {
    const u = queue[head];
    for (let i = incident.start[u]; i < incident.start[u + 1]; i++) {
      const e = incident.edges[i] >> 1;
      if (inTree[e] !== 1) continue;
      const forward = src[e] === u;
      const w = forward ? dst[e] : src[e];
      if (potential[w] !== undefined) continue;
      const pu = potential[u] as LinearFunction;
      potential[w] = forward ? add(pu, value[e]) : subtract(pu, value[e]);
      queue.push(w);
    }
  }
  if (queue.length !== nodeCount)
    throw new Error(`internal: the tree reaches ${queue.length} of ${nodeCount} vertices`);
  return potential as LinearFunction[];
}
