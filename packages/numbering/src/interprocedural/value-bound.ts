import { evaluate, type LinearFunction } from './linear-function';
import type { InterproceduralNumbering } from './number-program';

/** `|a|·x + |b|`: a bound on `|f(y)|` for every `0 ≤ y ≤ x`. */
export function magnitude(f: LinearFunction, x: bigint): bigint {
  const abs = (v: bigint): bigint => (v < 0n ? -v : v);
  return abs(f.a) * x + abs(f.b);
}

/**
 * Per procedure, the largest nvc any of its activations can have: 1 for a root activation, piecewise
 * `numUnbalRLPaths[Exit_P]` after a restart or a return with no open call, and `ψ_r` of the caller's largest
 * at each crossed call (ψ is monotone: its coefficients are non-negative). The crossed call graph is acyclic,
 * so relaxing every crossed site once per procedure settles it.
 */
export function largestNvc(numbering: InterproceduralNumbering): bigint[] {
  const { procedures } = numbering;
  const largest = procedures.map((p) => {
    const root = p.rootEntryPoint >= 0 ? 1n : 0n;
    const restart = numbering.scheme === 'piecewise' ? p.unbalancedExitPaths : 0n;
    return root > restart ? root : restart;
  });
  // A round settles one more level of the crossed call graph; rounds stop when nothing changes (its depth).
  for (let round = 0, changed = true; changed && round < procedures.length; round++) {
    changed = false;
    procedures.forEach((p, caller) =>
      p.callSites.forEach((site) => {
        if (site.cut !== null || site.callee === null) return;
        const passed = evaluate(p.psi[site.returnSite], largest[caller]);
        if (passed > largest[site.callee]) {
          largest[site.callee] = passed;
          changed = true;
        }
      }),
    );
  }
  return largest;
}
