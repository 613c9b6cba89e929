import type { FlowGraph } from '../flow-graph';
import { analyseCallGraph, type CutReason, type HybridPolicy } from './call-graph';
import {
  computeGlobalValues,
  type EntryPoint,
  type ExitSuccessor,
  type PathComponent,
} from './global-values';
import type { LinearFunction } from './linear-function';
import { solvePathFunctions } from './path-functions';
import { buildProcedureDag, type InterproceduralScheme, type ProcedureDag } from './procedure-dag';
import type { CallSite, Program } from './program';
import { validateProgram } from './validate-program';

export interface InterproceduralOptions {
  readonly scheme?: InterproceduralScheme;
  readonly hybrid?: HybridPolicy;
}

/** A call site with what the numbering decided about it. */
export interface NumberedCallSite extends CallSite {
  /** null when paths cross the site, else why the site is cut. */
  readonly cut: CutReason | null;
}

/** One procedure's part of the numbering. */
export interface NumberedProcedure {
  readonly name: string;
  /** The procedure's original graph: original edge ids are what instrumentation and traces speak of. */
  readonly graph: FlowGraph;
  readonly dag: ProcedureDag;
  /** ψ per DAG vertex. */
  readonly psi: readonly LinearFunction[];
  /** ρ per DAG edge. */
  readonly rho: readonly LinearFunction[];
  readonly callSites: readonly NumberedCallSite[];
  /** The index in `entryPoints` of `Entry_global → Entry_P`, or -1 when P is only entered by crossed calls. */
  readonly rootEntryPoint: number;
  /** Piecewise: the index in `entryPoints` of `Entry_global → GEntry_P`; -1 in the context scheme. */
  readonly globalEntryPoint: number;
  /** Piecewise: `numUnbalRLPaths[Exit_P]`; 1 in the context scheme. */
  readonly unbalancedExitPaths: bigint;
  /** Piecewise: the successors of `Exit_P` with their values; empty in the context scheme. */
  readonly exitSuccessors: readonly ExitSuccessor[];
  /** The index in `components` of the procedures crossed calls join it with. */
  readonly component: number;
}

/**
 * Interprocedural path numbering of a whole program (or of one file, its other calls unknown): every
 * observable path of the scheme gets a unique number in `[0, pathCount)`. All arithmetic is exact (BigInt):
 * N is exponential in the program's size in the worst case.
 */
export interface InterproceduralNumbering {
  readonly scheme: InterproceduralScheme;
  readonly procedures: readonly NumberedProcedure[];
  readonly entryPoints: readonly EntryPoint[];
  /** The entry points grouped by component of the crossed call graph, each a consecutive range of numbers. */
  readonly components: readonly PathComponent[];
  readonly pathCount: bigint;
}

/** Melski & Reps: T0-T3, ψ and ρ, the entry values and N, for the context or the piecewise scheme. */
export function numberInterproceduralPaths(
  program: Program,
  options: InterproceduralOptions = {},
): InterproceduralNumbering {
  const scheme = options.scheme ?? 'context';
  const validated = validateProgram(program);
  const analysis = analyseCallGraph(program, options.hybrid ?? {});
  const { procedures } = program;
  const dags = procedures.map((procedure, p) =>
    buildProcedureDag(procedure, validated[p], analysis.cut[p], scheme),
  );
  const functions = solvePathFunctions(procedures, dags, analysis.calleesFirst);
  const values = computeGlobalValues(procedures, dags, functions, analysis, scheme);
  const entryIndexes = new Map<string, number>();
  values.entryPoints.forEach((point, i) => entryIndexes.set(`${point.kind}:${point.procedure}`, i));
  const entryIndex = (kind: EntryPoint['kind'], p: number): number => entryIndexes.get(`${kind}:${p}`) ?? -1;
  return {
    scheme,
    procedures: procedures.map((procedure, p) => ({
      name: procedure.name,
      graph: procedure.graph,
      dag: dags[p],
      psi: functions.psi[p],
      rho: functions.rho[p],
      callSites: procedure.callSites.map((callSite, k) => ({ ...callSite, cut: analysis.cut[p][k] })),
      rootEntryPoint: entryIndex('entry', p),
      globalEntryPoint: entryIndex('global-entry', p),
      unbalancedExitPaths: values.unbalancedExitPaths[p],
      exitSuccessors: values.exitSuccessors[p],
      component: values.componentOf[p],
    })),
    entryPoints: values.entryPoints,
    components: values.components,
    pathCount: values.pathCount,
  };
}
