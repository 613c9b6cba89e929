import { checkTrace, instrumentForTrace, TraceRecorder, TRACE_GLOBAL, validateCfg } from '@pathprof/cfg';
import {
  generateProgram,
  propertyInputs,
  Random,
  runPlain,
  TIMEOUT,
  type ProgramOptions,
} from '@pathprof/testkit';

/**
 * The tracing oracle on random programs: each is instrumented in trace mode and run on its inputs; the
 * instrumented run must return or throw exactly what the plain run does, every activation's traced edges
 * must form a path of its graph, and every graph must keep the invariants. A failure names the seed:
 * `PATHPROF_SEED=<seed> npx jest trace-random` reproduces it. `options` bias the generator.
 */
export function checkTraceOnProgram(seed: number, options: ProgramOptions = {}): void {
  const program = generateProgram(new Random(seed), options);
  const filename = `generated-${seed}.js`;
  const where = () => `seed ${seed}\n${program.source}`;
  const traced = instrumentForTrace(program.source, filename);
  for (const g of traced.graphs) {
    const problems = validateCfg(g);
    if (problems.length) throw new Error(`${g.name}: ${problems.join('; ')}\n${where()}`);
  }
  for (const args of propertyInputs(program.inputs)) {
    const plain = runPlain(program.source, args);
    if ('error' in plain && plain.error.startsWith(TIMEOUT)) continue;
    const recorder = new TraceRecorder();
    const instrumented = runPlain(traced.code, args, { globals: { [TRACE_GLOBAL]: recorder } });
    if (JSON.stringify(instrumented) !== JSON.stringify(plain)) {
      throw new Error(
        `behaviour differs on ${JSON.stringify(args)}:\nplain ${JSON.stringify(plain)}\ntraced ${JSON.stringify(instrumented)}\n${where()}`,
      );
    }
    try {
      checkTrace(traced.graphs, recorder.events, false);
    } catch (error) {
      throw new Error(`${(error as Error).message} on ${JSON.stringify(args)}\n${where()}`);
    }
  }
}
