import type { CallGraphAnalysis } from './call-graph';
import { evaluate } from './linear-function';
import type { PathFunctions } from './path-functions';
import type { InterproceduralScheme, ProcedureDag } from './procedure-dag';
import type { Procedure } from './program';

/**
 * A successor of `Entry_global`: `Entry_P` (a root entry: the path starts with P's activation, nvc = 1) or, in
 * the piecewise scheme, `GEntry_P` (the path starts in the middle of P after a backedge or a caught exception).
 * Its paths are numbered `[start, start + count)`.
 */
export interface EntryPoint {
  readonly kind: 'entry' | 'global-entry';
  readonly procedure: number;
  readonly start: bigint;
  readonly count: bigint;
}

/** A successor of `Exit_P` in the piecewise scheme: a return site of a crossed call of P, or `Exit_global`. */
export interface ExitSuccessor {
  /** The caller and the index of its call site, or null for `Exit_global`. */
  readonly caller: { readonly procedure: number; readonly site: number } | null;
  /** `edgeValue` of `Exit_P → successor` (eq. 35), added when the path has no open call. */
  readonly value: bigint;
}

/**
 * Procedures joined by crossed calls, and the path numbers `[start, start + count)` of their entry points.
 * A path never leaves the component it starts in, so where it ends tells which range its number is in: each
 * component can be counted apart (an array of its own size where a file's one would be too large).
 */
export interface PathComponent {
  readonly procedures: readonly number[];
  readonly start: bigint;
  readonly count: bigint;
}

export interface GlobalValues {
  readonly entryPoints: readonly EntryPoint[];
  /** The components in order of their first procedure; their entry points are consecutive. */
  readonly components: readonly PathComponent[];
  /** Per procedure, the index of its component. */
  readonly componentOf: readonly number[];
  readonly pathCount: bigint;
  /** Per procedure, piecewise: `numUnbalRLPaths[Exit_P]`, the nvc of a path with no open call; 1 in context. */
  readonly unbalancedExitPaths: readonly bigint[];
  /** Per procedure, piecewise: the successors of `Exit_P` in order; empty in the context scheme. */
  readonly exitSuccessors: readonly (readonly ExitSuccessor[])[];
}

/**
 * The values around `Entry_global` and `Exit_global` (§5.3, §6.1): `START` of each entry point and the total N,
 * and for the piecewise scheme `numUnbalRLPaths` of every exit (callers before callees, eqs. 33-34) and the
 * return-edge values. Exit successors are the return sites of crossed calls (callers in procedure order, sites
 * in listing order), then `Exit_global` last, as in the paper's examples; a root-entered activation that ends
 * with no open call adds the value of `Exit_P → Exit_global`, which fixes erratum B of Algorithm 6.1.
 */
export function computeGlobalValues(
  procedures: readonly Procedure[],
  dags: readonly ProcedureDag[],
  functions: PathFunctions,
  analysis: CallGraphAnalysis,
  scheme: InterproceduralScheme,
): GlobalValues {
  const { psi } = functions;
  const isEntry = new Set(analysis.entryProcedures);
  const exitSuccessors: ExitSuccessor[][] = procedures.map(() => []);
  const unbalancedExitPaths = procedures.map(() => 1n);
  if (scheme === 'piecewise') {
    const callers: { procedure: number; site: number }[][] = procedures.map(() => []);
    procedures.forEach((caller, p) =>
      caller.callSites.forEach(({ callee }, k) => {
        if (callee !== null && analysis.cut[p][k] === null) callers[callee].push({ procedure: p, site: k });
      }),
    );
    for (let i = analysis.calleesFirst.length - 1; i >= 0; i--) {
      const q = analysis.calleesFirst[i];
      let sum = 0n;
      for (const caller of callers[q]) {
        const returnSite = procedures[caller.procedure].callSites[caller.site].returnSite;
        exitSuccessors[q].push({ caller, value: sum });
        sum += evaluate(psi[caller.procedure][returnSite], unbalancedExitPaths[caller.procedure]);
      }
      if (isEntry.has(q)) exitSuccessors[q].push({ caller: null, value: sum++ });
      unbalancedExitPaths[q] = sum;
    }
  }
  const entryPoints: EntryPoint[] = [];
  let start = 0n;
  const addEntry = (kind: EntryPoint['kind'], procedure: number, count: bigint): void => {
    entryPoints.push({ kind, procedure, start, count });
    start += count;
  };
  // Component by component (one component keeps the paper's order: the root entries, then the global ones).
  const componentOf = crossedComponents(procedures, analysis);
  const components: PathComponent[] = [];
  for (let c = 0, p = 0; p < procedures.length; p++) {
    if (componentOf[p] !== c) continue;
    const members = procedures.map((_, q) => q).filter((q) => componentOf[q] === c);
    const first = start;
    for (const q of analysis.entryProcedures) {
      if (componentOf[q] === c) addEntry('entry', q, evaluate(psi[q][dags[q].entry], 1n));
    }
    if (scheme === 'piecewise') {
      for (const q of members) {
        addEntry('global-entry', q, evaluate(psi[q][dags[q].globalEntry], unbalancedExitPaths[q]));
      }
    }
    components.push({ procedures: members, start: first, count: start - first });
    c++;
  }
  return { entryPoints, components, componentOf, pathCount: start, unbalancedExitPaths, exitSuccessors };
}

/** Per procedure, its component of the crossed call graph (undirected), numbered by first procedure. */
function crossedComponents(procedures: readonly Procedure[], analysis: CallGraphAnalysis): number[] {
  const parent = procedures.map((_, p) => p);
  const find = (p: number): number => {
    while (parent[p] !== p) p = parent[p] = parent[parent[p]];
    return p;
  };
  procedures.forEach((caller, p) =>
    caller.callSites.forEach(({ callee }, k) => {
      if (callee === null || analysis.cut[p][k] !== null) return;
      const [a, b] = [find(p), find(callee)];
      if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
    }),
  );
  const index = new Map<number, number>();
  return procedures.map((_, p) => {
    const root = find(p);
    let c = index.get(root);
    if (c === undefined) index.set(root, (c = index.size));
    return c;
  });
}
