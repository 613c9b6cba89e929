// The numeric oracles of Melski & Reps as rebuilt in the digest (§9): the pow example in both schemes (36 and
// 21 paths, every ψ, the non-zero ρ, START values, full decode tables) and the recursive example (169 / 77).
import {
  decodeInterproceduralPath,
  encodeInterproceduralPath,
  formatLinear,
  numberInterproceduralPaths,
  planInterproceduralInstrumentation,
  referenceProfile,
  type InterproceduralNumbering,
  type InterproceduralScheme,
} from '@pathprof/numbering';
import { CONTEXT_DECODE_TABLE, PIECEWISE_DECODE_TABLE } from './support/decode-tables';
import { enumerateObservablePaths } from './support/enumerate-paths';
import { formatDecoded } from './support/format-path';
import type { NamedProgram } from './support/named-program';
import { powProgram, recursiveProgram } from './support/paper-programs';
import { powTrace } from './support/pow-trace';
import { runPlan } from './support/run-plan';

/** ψ of every vertex, by name. */
function psiTable(named: NamedProgram, numbering: InterproceduralNumbering): Record<string, string> {
  const table: Record<string, string> = {};
  numbering.procedures.forEach((p, procedure) =>
    p.psi.forEach((f, vertex) => {
      table[named.vertexName({ procedure, vertex })] = formatLinear(f);
    }),
  );
  return table;
}

/** The non-zero ρ, keyed `src→dst` (a `*` marks a surrogate). */
function nonZeroRho(named: NamedProgram, numbering: InterproceduralNumbering): Record<string, string> {
  const table: Record<string, string> = {};
  numbering.procedures.forEach((p, procedure) =>
    p.rho.forEach((f, e) => {
      if (f.a === 0n && f.b === 0n) return;
      const surrogate = ['restart', 'loop-end', 'throw-end'].includes(p.dag.kind[e]) ? '*' : '';
      const name = (v: number): string => named.vertexName({ procedure, vertex: v });
      table[`${name(p.dag.src[e])}→${name(p.dag.dst[e])}${surrogate}`] = formatLinear(f);
    }),
  );
  return table;
}

function entryTable(named: NamedProgram, numbering: InterproceduralNumbering): string[] {
  return numbering.entryPoints.map(
    (point) =>
      `${point.kind === 'entry' ? 'Entry' : 'GEntry'}_${named.program.procedures[point.procedure].name} ` +
      `${point.start} (${point.count})`,
  );
}

/** `n:count` for every recorded path, by number, as the paper prints a profile. */
function profile(numbers: readonly bigint[]): string {
  const counts = new Map<bigint, number>();
  for (const n of numbers) counts.set(n, (counts.get(n) ?? 0) + 1);
  return [...counts.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([n, count]) => `${n}:${count}`)
    .join(' ');
}

/** The run of Fig. 4, profiled by the definitions (reference) and by executing the placed instrumentation. */
function runProfiles(named: NamedProgram, numbering: InterproceduralNumbering): [string, string] {
  const trace = powTrace(named);
  const reference = referenceProfile(numbering, trace).map((path) =>
    encodeInterproceduralPath(numbering, path),
  );
  const instrumented = runPlan(numbering, planInterproceduralInstrumentation(numbering), trace);
  expect(instrumented).toEqual(reference);
  return [profile(reference), profile(instrumented)];
}

/** Every enumerated path encodes to a distinct number of [0, N) and decodes back to itself. */
function expectBijection(numbering: InterproceduralNumbering): void {
  const paths = enumerateObservablePaths(numbering, 10_000);
  expect(BigInt(paths.length)).toBe(numbering.pathCount);
  const numbers = paths.map((path) => encodeInterproceduralPath(numbering, path));
  expect([...numbers].sort((a, b) => (a < b ? -1 : 1))).toEqual(numbers.map((_, i) => BigInt(i)));
  paths.forEach((path, i) => expect(decodeInterproceduralPath(numbering, numbers[i]).path).toEqual(path));
}

describe('Melski & Reps, the pow example (§9.2, context scheme)', () => {
  const named = powProgram();
  const numbering = numberInterproceduralPaths(named.program, { scheme: 'context' });

  it('has 36 paths, and the ψ and ρ of the paper (Fig. 7)', () => {
    expect(numbering.pathCount).toBe(36n);
    expect(psiTable(named, numbering)).toEqual({
      u1: '<2,2>',
      u2: '<1,1>',
      u3: '<1,1>',
      u4: '<0,1>',
      u5: '<0,1>',
      u6: '<0,1>',
      u7: '<1,0>',
      u8: '<1,0>',
      v1: '<2,34>',
      v2: '<1,17>',
      v3: '<1,17>',
      v4: '<1,17>',
      v5: '<0,17>',
      v6: '<0,12>',
      v7: '<0,5>',
      v8: '<0,5>',
      v9: '<0,5>',
      v10: '<0,4>',
      v11: '<0,1>',
      v12: '<0,1>',
      v13: '<0,1>',
      v14: '<0,1>',
      v15: '<1,0>',
      v16: '<1,0>',
    });
    expect(nonZeroRho(named, numbering)).toEqual({
      'v1→v4*': '<1,17>',
      'v4→v15': '<0,17>',
      'v5→v9': '<0,12>',
      'v9→v13': '<0,4>',
      'u1→u3*': '<1,1>',
      'u3→u7': '<0,1>',
    });
    expect(entryTable(named, numbering)).toEqual(['Entry_main 0 (36)']);
  });

  it('decodes every number to the row of the decode table, context prefix and active suffix apart', () => {
    const rows = CONTEXT_DECODE_TABLE.map((_, n) =>
      formatDecoded(named, decodeInterproceduralPath(numbering, BigInt(n))),
    );
    expect(rows).toEqual(CONTEXT_DECODE_TABLE);
    // Path 24: a later iteration of main's loop, call #1, pow's loop restarted; then one more pow iteration.
    const path24 = decodeInterproceduralPath(numbering, 24n);
    const suffix = path24.vertices.slice(path24.contextLength).map((v) => named.vertexName(v));
    expect(suffix).toEqual(['u3', 'u4', 'u5', 'u6']);
    expect(decodeInterproceduralPath(numbering, 16n).contextLength).toBe(0);
  });

  it('numbers the 36 unbalanced-left paths one-to-one onto [0, 36)', () => expectBijection(numbering));

  it('profiles the run of Fig. 4 as the paper prints it (49 records), by definition and by instrumentation', () => {
    const printed = '16:1 18:9 24:9 25:3 27:3 28:3 29:6 30:3 32:3 33:3 34:5 35:1';
    expect(runProfiles(named, numbering)).toEqual([printed, printed]);
  });
});

describe('Melski & Reps, the pow example (§9.3, piecewise scheme)', () => {
  const named = powProgram();
  const numbering = numberInterproceduralPaths(named.program, { scheme: 'piecewise' });

  it('has 21 paths, with the ψ, ρ, numUnbalRLPaths, return-edge values and START of the paper', () => {
    expect(numbering.pathCount).toBe(21n);
    const psi = psiTable(named, numbering);
    for (const [v, f] of Object.entries({
      u1: '<1,1>',
      u2: '<1,1>',
      u3: '<1,1>',
      u9: '<1,1>',
      v10: '<0,2>',
      v9: '<0,3>',
      v8: '<0,3>',
      v7: '<0,3>',
      v6: '<0,4>',
      v5: '<0,7>',
      v4: '<1,7>',
      v1: '<1,7>',
      v17: '<1,7>',
    })) {
      expect(`${v} ${psi[v]}`).toBe(`${v} ${f}`);
    }
    expect(nonZeroRho(named, numbering)).toEqual({
      'u3→u7': '<0,1>',
      'v4→v15': '<0,7>',
      'v5→v9': '<0,4>',
      'v9→v13': '<0,2>',
    });
    const [main, pow] = numbering.procedures;
    expect([main.unbalancedExitPaths, pow.unbalancedExitPaths]).toEqual([1n, 4n]);
    expect(pow.exitSuccessors.map((s) => s.value)).toEqual([0n, 3n]);
    expect(entryTable(named, numbering)).toEqual([
      'Entry_main 0 (8)',
      'GEntry_main 8 (8)',
      'GEntry_pow 16 (5)',
    ]);
  });

  it('decodes every number to the row of the decode table', () => {
    const rows = PIECEWISE_DECODE_TABLE.map((_, n) =>
      formatDecoded(named, decodeInterproceduralPath(numbering, BigInt(n))),
    );
    expect(rows).toEqual(PIECEWISE_DECODE_TABLE);
  });

  it('numbers the 21 unbalanced-right-left paths one-to-one onto [0, 21)', () => expectBijection(numbering));

  it('profiles the run of Fig. 4 as the paper prints it (49 records), by definition and by instrumentation', () => {
    const printed = '6:1 8:9 12:3 14:5 15:1 16:15 17:3 19:6 20:6';
    expect(runProfiles(named, numbering)).toEqual([printed, printed]);
  });
});

describe('the recursive oracle (digest §9.4)', () => {
  const named = recursiveProgram();

  it('context: ψ(m_e) = <54,110>, ψ(A_e) = <8,10>, ψ(B_e) = <3,2>; START main 0, B 164; N = 169', () => {
    const numbering = numberInterproceduralPaths(named.program, { scheme: 'context' });
    const psi = psiTable(named, numbering);
    expect([psi.m_e, psi.A_e, psi.B_e]).toEqual(['<54,110>', '<8,10>', '<3,2>']);
    expect(numbering.procedures[named.procedure('B')].callSites[0].cut).toBe('recursive');
    expect(entryTable(named, numbering)).toEqual(['Entry_main 0 (164)', 'Entry_B 164 (5)']);
    expect(numbering.pathCount).toBe(169n);
    expectBijection(numbering);
  });

  it('piecewise: numUnbalRLPaths {1, 5, 9}, Exit_B values 0, 2, 8, the five START values; N = 77', () => {
    const numbering = numberInterproceduralPaths(named.program, { scheme: 'piecewise' });
    expect(numbering.procedures.map((p) => p.unbalancedExitPaths)).toEqual([1n, 5n, 9n]);
    const exitB = numbering.procedures[named.procedure('B')].exitSuccessors;
    expect(
      exitB.map((s) => [
        s.caller === null ? 'XG' : named.program.procedures[s.caller.procedure].name,
        s.value,
      ]),
    ).toEqual([
      ['main', 0n],
      ['A', 2n],
      ['XG', 8n],
    ]);
    expect(entryTable(named, numbering)).toEqual([
      'Entry_main 0 (23)',
      'Entry_B 23 (3)',
      'GEntry_main 26 (23)',
      'GEntry_A 49 (18)',
      'GEntry_B 67 (10)',
    ]);
    expect(numbering.pathCount).toBe(77n);
    expectBijection(numbering);
  });
});

describe.each<InterproceduralScheme>(['context', 'piecewise'])('%s scheme: refusals', (scheme) => {
  it('refuses numbers outside [0, N) and malformed paths', () => {
    const numbering = numberInterproceduralPaths(powProgram().program, { scheme });
    expect(() => decodeInterproceduralPath(numbering, numbering.pathCount)).toThrow(RangeError);
    expect(() => decodeInterproceduralPath(numbering, -1n)).toThrow(RangeError);
    const path = decodeInterproceduralPath(numbering, 0n).path;
    expect(() => encodeInterproceduralPath(numbering, { ...path, steps: path.steps.slice(0, -1) })).toThrow(
      'stops before Exit_global',
    );
    expect(() => encodeInterproceduralPath(numbering, { ...path, steps: path.steps.slice(1) })).toThrow(
      RangeError,
    );
  });
});
