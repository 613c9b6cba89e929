import {
  checkTrace,
  instrumentForTrace,
  TraceRecorder,
  TRACE_GLOBAL,
  validateCfg,
  type TracedActivation,
  type TracedSource,
  type TraceEvent,
} from '@pathprof/cfg';
import { runPlain, TIMEOUT, type RunResult } from '@pathprof/testkit';

/** One input's traced run: what it returned or threw, its events, and its activations as paths of their graphs. */
export interface TracedRun {
  readonly args: unknown[];
  readonly result: RunResult;
  readonly events: readonly TraceEvent[];
  readonly activations: TracedActivation[];
}

/** A source traced on its inputs: what every mode's property check compares its own runs with. */
export interface TracedProgram {
  readonly source: string;
  readonly name: string;
  /** Names the case in failures (the seed, say). */
  readonly label: string;
  readonly traced: TracedSource;
  readonly runs: readonly TracedRun[];
}

/**
 * The tracing oracle on one CommonJS source: it is instrumented in trace mode and run on each input; the
 * traced run must return or throw exactly what the plain run does, every activation's traced edges must form
 * a path of its graph, and every graph must keep the invariants. Returns the traced runs (inputs that ran out
 * of time are left out), which the plugin's property tests compare their modes with, so that one trace of
 * each generated program serves them all. `label` names the case in failures.
 */
export function tracedRuns(
  source: string,
  name: string,
  inputs: readonly unknown[][],
  label: string,
): TracedProgram {
  const where = () => `${label}\n${source}`;
  const traced = instrumentForTrace(source, name);
  for (const g of traced.graphs) {
    const problems = validateCfg(g);
    if (problems.length) throw new Error(`${g.name}: ${problems.join('; ')}\n${where()}`);
  }
  const runs: TracedRun[] = [];
  for (const args of inputs) {
    const plain = runPlain(source, args);
    if ('error' in plain && plain.error.startsWith(TIMEOUT)) continue;
    const recorder = new TraceRecorder();
    const result = runPlain(traced.code, args, { globals: { [TRACE_GLOBAL]: recorder } });
    if ('error' in result && result.error.startsWith(TIMEOUT)) continue;
    if (JSON.stringify(result) !== JSON.stringify(plain)) {
      throw new Error(
        `behaviour differs on ${JSON.stringify(args)}:\nplain ${JSON.stringify(plain)}\ntraced ${JSON.stringify(result)}\n${where()}`,
      );
    }
    let activations: TracedActivation[];
    try {
      activations = checkTrace(traced.graphs, recorder.events, false);
    } catch (error) {
      throw new Error(`${(error as Error).message} on ${JSON.stringify(args)}\n${where()}`);
    }
    runs.push({ args, result, events: recorder.events, activations });
  }
  return { source, name, label, traced, runs };
}
