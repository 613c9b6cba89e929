import type { Program } from './program';

/**
 * Which call sites a path may cross (Melski & Reps T3 and §8). A cut site keeps a summary edge
 * `call → returnSite` in its procedure: the caller's path waits across the call while the callee, entered as a
 * root from `Entry_global`, numbers its own paths. Every site of an unknown callee is cut; the options cut more.
 */
export interface HybridPolicy {
  /** Cut calls into a procedure of another file (strategy 2): a file's ψ and ρ then depend on that file alone. */
  readonly crossFile?: boolean;
  /** Keep paths interprocedural only into leaf procedures, those without call sites (strategy 3). */
  readonly leavesOnly?: boolean;
  /** Cut these call sites, by site id. */
  readonly sites?: Iterable<number>;
}

/** Why a call site is cut: a call-graph DFS backedge, a callee unknown statically, or the hybrid policy. */
export type CutReason = 'recursive' | 'unknown-callee' | 'hybrid';

export interface CallGraphAnalysis {
  /** Per procedure, per call site index: null when paths cross the site, else why it is cut. */
  readonly cut: readonly (readonly (CutReason | null)[])[];
  /** The procedures in reverse topological order of the crossed sites: callees before their callers. */
  readonly calleesFirst: readonly number[];
  /** The successors of `Entry_global`: the program's roots, then the known callees of cut sites. */
  readonly entryProcedures: readonly number[];
}

/**
 * Applies the hybrid policy, then finds recursive sites as the backedges of a DFS over the call graph (roots
 * first, in order, then any procedure not reached; sites in listing order), so the crossed sites form an
 * acyclic call graph and every procedure has finitely many unbalanced-left paths.
 */
export function analyseCallGraph(program: Program, policy: HybridPolicy): CallGraphAnalysis {
  const { procedures } = program;
  const chosen = new Set(policy.sites ?? []);
  const isLeaf = procedures.map((p) => p.callSites.length === 0);
  const cut: (CutReason | null)[][] = procedures.map((caller) =>
    caller.callSites.map((callSite) => {
      if (callSite.callee === null) return 'unknown-callee';
      if (chosen.has(callSite.site)) return 'hybrid';
      if (policy.crossFile === true && procedures[callSite.callee].file !== caller.file) return 'hybrid';
      if (policy.leavesOnly === true && !isLeaf[callSite.callee]) return 'hybrid';
      return null;
    }),
  );

  const state = new Uint8Array(procedures.length); // 0 unseen, 1 on the DFS stack, 2 finished
  const calleesFirst: number[] = [];
  const visit = (start: number): void => {
    const stack: [number, number][] = [[start, 0]];
    state[start] = 1;
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      const [p, k] = top;
      if (k === procedures[p].callSites.length) {
        state[p] = 2;
        calleesFirst.push(p);
        stack.pop();
        continue;
      }
      top[1]++;
      const callee = procedures[p].callSites[k].callee;
      if (callee === null || cut[p][k] !== null) continue;
      if (state[callee] === 1) cut[p][k] = 'recursive';
      else if (state[callee] === 0) {
        state[callee] = 1;
        stack.push([callee, 0]);
      }
    }
  };
  for (const root of program.roots) if (state[root] === 0) visit(root);
  for (let p = 0; p < procedures.length; p++) if (state[p] === 0) visit(p);

  const entryProcedures = [...program.roots];
  const isEntry = new Set(entryProcedures);
  procedures.forEach((caller, p) =>
    caller.callSites.forEach(({ callee }, k) => {
      if (callee !== null && cut[p][k] !== null && !isEntry.has(callee)) {
        isEntry.add(callee);
        entryProcedures.push(callee);
      }
    }),
  );
  return { cut, calleesFirst, entryProcedures };
}
