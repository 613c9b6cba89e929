import { add, compose, IDENTITY, ONE, ZERO, type LinearFunction } from './linear-function';
import type { ProcedureDag } from './procedure-dag';
import type { Procedure } from './program';

/** ψ per vertex and ρ per DAG edge of every procedure. */
export interface PathFunctions {
  readonly psi: readonly (readonly LinearFunction[])[];
  readonly rho: readonly (readonly LinearFunction[])[];
}

/**
 * Melski & Reps equations 19-24 in one pass: G*_fn is acyclic inside each procedure and over the crossed call
 * sites, so visiting callees before callers, and each DAG in reverse topological order, solves the system
 * exactly. `ψ(Exit_P) = <1,0>`, `ψ(GExit_P) = <0,1>`; at a crossed call vertex `ψ(c) = ψ(Entry_Q) ∘ ψ(r)`
 * (eq. 21); elsewhere ψ sums the successors, parallel edges counted apart (eq. 22); `ρ` of the i-th out-edge
 * sums ψ of the earlier successors (eq. 24), so the first out-edge of every vertex costs nothing.
 */
export function solvePathFunctions(
  procedures: readonly Procedure[],
  dags: readonly ProcedureDag[],
  calleesFirst: readonly number[],
): PathFunctions {
  const psi: LinearFunction[][] = dags.map((dag) => new Array<LinearFunction>(dag.vertexCount).fill(ZERO));
  const rho: LinearFunction[][] = dags.map((dag) => new Array<LinearFunction>(dag.edgeCount).fill(ZERO));
  for (const p of calleesFirst) {
    const dag = dags[p];
    const own = psi[p];
    own[dag.exit] = IDENTITY;
    own[dag.globalExit] = ONE;
    const { start, edges } = dag.out;
    for (let i = dag.topologicalOrder.length - 1; i >= 0; i--) {
      const v = dag.topologicalOrder[i];
      if (v === dag.exit || v === dag.globalExit) continue;
      let sum = ZERO;
      for (let j = start[v]; j < start[v + 1]; j++) {
        const e = edges[j];
        rho[p][e] = sum;
        // A crossed call vertex has one successor, its return site, reached through the callee.
        const callee = dag.kind[e] === 'call' ? procedures[p].callSites[dag.callSite[e]].callee : null;
        const successor =
          callee === null ? own[dag.dst[e]] : compose(psi[callee][dags[callee].entry], own[dag.dst[e]]);
        sum = add(sum, successor);
      }
      own[v] = sum;
    }
  }
  return { psi, rho };
}
