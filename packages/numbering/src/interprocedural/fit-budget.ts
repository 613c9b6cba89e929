import { depthFirstSearch } from '../backedges';
import { NumberingError } from '../numbering-error';
import { CUT, removeEdgesForBudget } from '../path-budget';
import { validateFlowGraph } from '../validate';
import { evaluate } from './linear-function';
import { numberInterproceduralPaths, type InterproceduralNumbering } from './number-program';
import type { InterproceduralPlan } from './instrumentation-plan';
import { planInterproceduralInstrumentation } from './placement';
import type { InterproceduralScheme } from './procedure-dag';
import type { Procedure, Program } from './program';

export interface FittedInterproceduralNumbering {
  /** The program as numbered: its procedures carry the edges split to fit (`splitEdges`). */
  readonly program: Program;
  readonly numbering: InterproceduralNumbering;
  readonly plan: InterproceduralPlan;
  /** The crossed sites that were cut to fit (site ids, ascending): pass them as `hybrid.sites` to renumber. */
  readonly cutSites: readonly number[];
}

/** The first per-procedure budget, as a fraction of the file's: room for crossings and for many roots. */
const FIRST_PROCEDURE_SHARE = 64;

/**
 * Numbers a program so that every value its instrumentation computes stays within `limit` (the plan's
 * `valueBound`: values relative to their component's first path number, so each component of the crossed
 * call graph has the whole budget). Two levers, in this order:
 * 1. Each procedure's own paths are kept within a per-procedure budget by splitting edges as Ball & Larus cut
 *    them (§5.3, `removeEdgesForBudget`): a split edge ends a path and starts the next, like a backedge.
 * 2. Crossed call sites are cut greedily in the components over the limit: each round cuts the crossed sites
 *    whose callees complete the most paths from their entry (the factor a crossing multiplies N by), an
 *    eighth of those left at a time.
 * When cutting every site is not enough (many roots), the per-procedure budget halves and the sites are tried
 * again; a budget no procedure can be cut down to is skipped. Null when no budget fits.
 */
export function fitInterproceduralNumbering(
  program: Program,
  scheme: InterproceduralScheme,
  limit: bigint,
): FittedInterproceduralNumbering | null {
  const cap = limit > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(limit);
  for (const budget of procedureBudgets(cap)) {
    const procedures = program.procedures.map((p) => withinBudget(p, budget));
    if (procedures.includes(null)) continue;
    const fitted = cutSitesToFit(
      { procedures: procedures as Procedure[], roots: program.roots },
      scheme,
      limit,
    );
    if (fitted) return fitted;
  }
  return null;
}

/**
 * The per-procedure budgets to try: from a share of the file's down to 1 (smaller ones leave room for more
 * crossings and roots), then larger ones up to the whole budget, for a budget too small to share.
 */
function procedureBudgets(cap: number): number[] {
  const first = Math.max(1, Math.floor(cap / FIRST_PROCEDURE_SHARE));
  const budgets: number[] = [];
  for (let b = first; b >= 1; b = Math.floor(b / 2)) budgets.push(b);
  for (let b = first * 2; b <= cap; b *= 2) budgets.push(b);
  if (budgets.at(-1) !== cap && cap > first) budgets.push(cap);
  return budgets;
}

function cutSitesToFit(
  program: Program,
  scheme: InterproceduralScheme,
  limit: bigint,
): FittedInterproceduralNumbering | null {
  const cut = new Set<number>();
  for (;;) {
    const numbering = numberInterproceduralPaths(program, { scheme, hybrid: { sites: cut } });
    const plan = planInterproceduralInstrumentation(numbering);
    if (plan.valueBound <= limit) {
      // Path numbers are reported as numbers: the file's components together stay exact too.
      if (numbering.pathCount > BigInt(Number.MAX_SAFE_INTEGER)) return null;
      return { program, numbering, plan, cutSites: [...cut].sort((a, b) => a - b) };
    }
    // Only the components over the limit lose crossings.
    const crossed: { site: number; weight: bigint }[] = [];
    for (const procedure of numbering.procedures) {
      if (plan.componentBounds[procedure.component] <= limit) continue;
      for (const site of procedure.callSites) {
        if (site.cut !== null || site.callee === null) continue;
        const callee = numbering.procedures[site.callee];
        crossed.push({ site: site.site, weight: evaluate(callee.psi[callee.dag.entry], 1n) });
      }
    }
    if (crossed.length === 0) return null;
    crossed.sort((x, y) => (x.weight === y.weight ? x.site - y.site : x.weight > y.weight ? -1 : 1));
    const batch = Math.max(1, Math.ceil(crossed.length / 8));
    for (const { site } of crossed.slice(0, batch)) cut.add(site);
  }
}

/**
 * The procedure with the edges Ball-Larus numbering would cut to keep its own paths (calls counted as one
 * edge) within `budget`, edges into and out of call vertices kept; null when no cutting fits.
 */
function withinBudget(procedure: Procedure, budget: number): Procedure | null {
  const { graph } = procedure;
  const calls = new Set(procedure.callSites.map((s) => s.call));
  // Edges into and out of a call vertex carry the hand-off and the return: they are protected like codeless edges.
  const protectedEdges = Uint8Array.from(graph.edgeSilent ?? new Uint8Array(graph.edgeCount));
  for (let e = 0; e < graph.edgeCount; e++) {
    const touchesCall = calls.has(graph.edgeSrc[e]) || calls.has(graph.edgeDst[e]);
    if (touchesCall && graph.edgeExceptional[e] === 0) protectedEdges[e] = 1;
  }
  const guarded = { ...graph, edgeSilent: protectedEdges };
  const adjacency = validateFlowGraph(guarded);
  let removed: Uint8Array;
  try {
    removed = removeEdgesForBudget(
      guarded,
      adjacency.out,
      depthFirstSearch(guarded, adjacency.out),
      budget,
    ).removed;
  } catch (error) {
    if (error instanceof NumberingError) return null;
    throw error;
  }
  const splitEdges: number[] = [];
  for (let e = 0; e < graph.edgeCount; e++) if (removed[e] === CUT) splitEdges.push(e);
  return splitEdges.length === 0 ? procedure : { ...procedure, splitEdges };
}
