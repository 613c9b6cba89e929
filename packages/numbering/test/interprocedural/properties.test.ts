// Property tests on seeded random programs (recursion, unknown callees, exceptions, hybrid cuts). A failure names
// its base seed and case; reproduce with PATHPROF_SEED=<base seed>, soak with PATHPROF_SOAK=<multiplier>.
import {
  decodeInterproceduralPath,
  encodeInterproceduralPath,
  numberInterproceduralPaths,
  planInterproceduralInstrumentation,
  procedureCountsFromPaths,
  referenceProfile,
  type InterproceduralScheme,
} from '@pathprof/numbering';
import { baseSeed, caseCount, type Random } from '@pathprof/testkit';
import { expectSame } from '../support/fast-expect';
import { forEachSeededCase } from '../support/seeded-cases';
import { enumerateObservablePaths } from './support/enumerate-paths';
import { randomPolicy, randomProgram } from './support/random-programs';
import { ProgramRunner } from './support/random-executions';
import { runPlan } from './support/run-plan';
import { traceCounts } from './support/trace-counts';

const SEED = baseSeed(0x1e75);
const ENUMERATION_LIMIT = 600;
const RUNS_PER_PROGRAM = 4;

const forEachCase = (count: number, salt: number, check: (rng: Random) => void): void =>
  forEachSeededCase(SEED, count, salt, check);

describe.each<[InterproceduralScheme, number]>([
  ['context', 0],
  ['piecewise', 1_000_003],
])('%s scheme on random programs', (scheme, salt) => {
  it('numbers every observable path one-to-one onto [0, N), and decodes each back to itself', () => {
    let enumerated = 0;
    forEachCase(caseCount(300), salt, (rng) => {
      const program = randomProgram(rng);
      const numbering = numberInterproceduralPaths(program, { scheme, hybrid: randomPolicy(rng, program) });
      if (numbering.pathCount > BigInt(ENUMERATION_LIMIT)) return;
      enumerated++;
      const paths = enumerateObservablePaths(numbering, ENUMERATION_LIMIT + 1);
      expectSame(String(paths.length), String(numbering.pathCount));
      const numbers = paths.map((path) => encodeInterproceduralPath(numbering, path));
      const sorted = [...numbers].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      expectSame(
        sorted.map(String),
        sorted.map((_, i) => String(i)),
      );
      paths.forEach((path, i) => expectSame(decodeInterproceduralPath(numbering, numbers[i]).path, path));
    });
    expect(enumerated).toBeGreaterThan(caseCount(300) / 3);
  });

  it("profiles executions exactly: instrumentation records the reference paths, which decode back into each procedure's edge and block counts", () => {
    let records = 0;
    let crossedThrows = 0;
    let handlerRestarts = 0;
    let withSplitEdges = 0;
    forEachCase(caseCount(300), salt + 1, (rng) => {
      const program = randomProgram(rng);
      const numbering = numberInterproceduralPaths(program, { scheme, hybrid: randomPolicy(rng, program) });
      const plan = planInterproceduralInstrumentation(numbering);
      const crossed = numbering.procedures.map((p) => p.callSites.map((s) => s.cut === null));
      const runner = new ProgramRunner(program, crossed);
      if (program.procedures.some((p) => p.splitEdges)) withSplitEdges++;
      for (let k = 0; k < RUNS_PER_PROGRAM; k++) {
        const trace = runner.run(rng);
        const paths = referenceProfile(numbering, trace);
        const numbers = paths.map((path) => encodeInterproceduralPath(numbering, path));
        for (let i = 0; i < paths.length; i++) {
          if (numbers[i] < 0n || numbers[i] >= numbering.pathCount)
            throw new Error(`path number ${numbers[i]} out of range`);
          expectSame(decodeInterproceduralPath(numbering, numbers[i]).path, paths[i]);
        }
        expectSame(runPlan(numbering, plan, trace).map(String), numbers.map(String));
        records += numbers.length;
        // The paths give each procedure's edge and block counts: what the report's istanbul export reads.
        const counts = new Map<number, number>();
        for (const n of numbers) counts.set(Number(n), (counts.get(Number(n)) ?? 0) + 1);
        expectSame(procedureCountsFromPaths(numbering, counts), traceCounts(program, crossed, trace));
      }
      crossedThrows += runner.crossedThrows;
      handlerRestarts += runner.handlerRestarts;
    });
    expect(records).toBeGreaterThan(caseCount(300) * RUNS_PER_PROGRAM);
    // Exceptions out of crossed callees, the handler restarts they cause, and split edges really occur.
    expect(crossedThrows).toBeGreaterThan(caseCount(300) / 20);
    expect(handlerRestarts).toBeGreaterThan(0);
    expect(withSplitEdges).toBeGreaterThan(caseCount(300) / 10);
  });
});
