import { canInstrument } from '@pathprof/cfg';
import { tracedRuns, type TracedProgram } from '../../../cfg/test/support/random-programs';
import { countedPaths, derivedEdgeCounts, runCounted } from './counted-paths';
import { instrument } from './instrument';
import { pathsFromTrace, tally } from './paths-from-trace';
import { CorrelatedDecisions, decodePath, PathEnds, type PathNumbering } from '@pathprof/numbering';
import type { PluginOptions } from '../../src';

/** The functions (`label:index`) checked for infeasible paths a run took: how often the check had work. */
export const correlatedFunctions = new Set<string>();
/** Of those, the functions whose decisions included different tests of one value (`implied`). */
export const impliedFunctions = new Set<string>();

/**
 * Path mode on any CommonJS source whose `module.exports` is the entry: the tracing oracle holds (the traced
 * run behaves like the plain one, its activations are paths of their graphs); for each input, the
 * path-instrumented run returns or throws what the traced run does, and every function's path counts equal
 * the paths of the traced edge sequences, numbered from `Val` alone. With the plugin's options (a small
 * `maxPaths`, say), and in edge mode when asked; `label` names the case in failures. Returns the numbering of
 * every function, so callers can also check how it was numbered (cuts, hash storage).
 */
export function checkPathModeOnSource(
  source: string,
  name: string,
  inputs: readonly unknown[][],
  label: string,
  pluginOptions: PluginOptions = {},
  { edgeMode = false } = {},
): PathNumbering[] {
  return checkPathModeOnTraced(tracedRuns(source, name, inputs, label), pluginOptions, { edgeMode });
}

/**
 * The same check on a program already traced. Edge mode too when asked: every edge count derived from its
 * counters equals the traced count.
 */
export function checkPathModeOnTraced(
  { source, name, label, traced, runs }: TracedProgram,
  pluginOptions: PluginOptions = {},
  { edgeMode = false } = {},
): PathNumbering[] {
  const where = (args: unknown[]) => `${label}, input ${JSON.stringify(args)}\n${source}`;
  const instrumented = instrument(source, name, pluginOptions);
  const edgeInstrumented = edgeMode ? instrument(source, name, { mode: 'edge' }) : null;
  const graphs = traced.graphs.map((g, i) => ({ g, i })).filter(({ g }) => canInstrument(g));
  let numberingsSeen: PathNumbering[] = [];
  for (const { args, result: tracedRun, activations } of runs) {
    const pathRun = runCounted(instrumented, args);
    if (JSON.stringify(pathRun) !== JSON.stringify(tracedRun)) {
      throw new Error(
        `behaviour differs: traced ${JSON.stringify(tracedRun)}, path ${JSON.stringify(pathRun)}\n${where(args)}`,
      );
    }
    const { meta, numberings, paths } = countedPaths(`virtual/${name}`);
    numberingsSeen = numberings;
    meta.functions.forEach((fn, k) => {
      const expected = tally(
        activations
          .filter((a) => a.graph === graphs[k].i)
          .flatMap((a) => pathsFromTrace(numberings[k], a.edges)),
      );
      if (JSON.stringify(paths[k]) !== JSON.stringify(expected)) {
        throw new Error(
          `${fn.name}: counted ${JSON.stringify(paths[k])}, traced ${JSON.stringify(expected)}\n${where(args)}`,
        );
      }
      // No path a run takes is one the build calls infeasible (the report would refuse the profile).
      if (!fn.correlated && !fn.implied) return;
      const decisions = new CorrelatedDecisions(numberings[k].edgeCount, fn.correlated, fn.implied);
      if (!correlatedFunctions.has(`${label}:${k}`)) {
        correlatedFunctions.add(`${label}:${k}`);
        if (fn.implied) impliedFunctions.add(`${label}:${k}`);
        checkFeasibleCounts(numberings[k], decisions, `${fn.name}\n${source}`);
      }
      for (const [id] of expected) {
        const edges = decisions.contradiction(decodePath(numberings[k], id).edges);
        if (edges)
          throw new Error(
            `${fn.name}: path ${id} ran, but edges ${edges.join(' and ')} contradict\n${where(args)}`,
          );
      }
    });
    if (!edgeInstrumented) continue;
    const edgeRun = runCounted(edgeInstrumented, args);
    if (JSON.stringify(edgeRun) !== JSON.stringify(tracedRun)) {
      throw new Error(
        `behaviour differs: traced ${JSON.stringify(tracedRun)}, edge ${JSON.stringify(edgeRun)}\n${where(args)}`,
      );
    }
    const derived = derivedEdgeCounts(`virtual/${name}`, (k) => {
      const exits = new Array<number>(graphs[k].g.blockCount).fill(0);
      for (const a of activations) if (a.graph === graphs[k].i && a.end === 'open') exits[a.block]++;
      return exits;
    });
    graphs.forEach(({ g, i }, k) => {
      const counts = new Array<number>(g.edgeCount).fill(0);
      for (const a of activations) if (a.graph === i) for (const e of a.edges) counts[e]++;
      if (JSON.stringify(derived[k]) !== JSON.stringify(counts)) {
        throw new Error(
          `${g.name}: edge counts ${JSON.stringify(derived[k])}, traced ${JSON.stringify(counts)}\n${where(args)}`,
        );
      }
    });
  }
  return numberingsSeen;
}

/**
 * The feasible paths counted without enumerating them (`PathEnds.feasibleCounts`) are those a enumeration of
 * every path finds, end by end (functions of up to 4096 paths).
 */
function checkFeasibleCounts(numbering: PathNumbering, decisions: CorrelatedDecisions, where: string): void {
  if (numbering.pathCount > 4096) return;
  const ends = new PathEnds(numbering);
  const enumerated = { return: 0, throw: 0, exception: 0, backedge: 0, cut: 0 };
  for (let id = 0; id < numbering.pathCount; id++)
    if (!decisions.contradiction(decodePath(numbering, id).edges)) enumerated[ends.kindOfNumber(id)]++;
  const counted = ends.feasibleCounts(decisions);
  if (JSON.stringify(counted) !== JSON.stringify(enumerated))
    throw new Error(
      `feasible paths: counted ${JSON.stringify(counted)}, enumerated ${JSON.stringify(enumerated)}\n${where}`,
    );
}
