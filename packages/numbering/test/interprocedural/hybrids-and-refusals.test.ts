// Hybrid intra/interprocedural numbering (Melski & Reps §8) and the refusals of malformed programs.
import {
  decodeInterproceduralPath,
  encodeInterproceduralPath,
  numberInterproceduralPaths,
  numberPaths,
  planInterproceduralInstrumentation,
  referenceProfile,
  type Program,
} from '@pathprof/numbering';
import { baseSeed, caseCount, Random } from '@pathprof/testkit';
import { expectSame } from '../support/fast-expect';
import { formatDecoded } from './support/format-path';
import { namedProgram } from './support/named-program';
import { powProgram } from './support/paper-programs';
import { powTrace } from './support/pow-trace';
import { randomProgram } from './support/random-programs';
import { runPlan } from './support/run-plan';

describe('Example 8.1: pow cut at call site #1 only', () => {
  const named = powProgram();
  const cut = [named.site('main', 'v6')];
  const numbering = numberInterproceduralPaths(named.program, { hybrid: { sites: cut } });
  const pow = named.procedure('pow');

  it('numbers the calls from site #1 as plain intraprocedural paths of pow, in [START, START + ψ(Entry)(1))', () => {
    const entry = numbering.entryPoints[numbering.procedures[pow].rootEntryPoint];
    expect(entry.count).toBe(4n);
    const rows = [0n, 1n, 2n, 3n].map((k) =>
      formatDecoded(named, decodeInterproceduralPath(numbering, entry.start + k)),
    );
    expect(rows).toEqual([
      'EG u1 u2 u3 u4 u5 u6 XG',
      'EG u1 u2 u3 u7 u8 XG',
      'EG u1 u3 u4 u5 u6 XG',
      'EG u1 u3 u7 u8 XG',
    ]);
    expect(numbering.procedures[named.procedure('main')].callSites.map((s) => s.cut)).toEqual([
      'hybrid',
      null,
    ]);
  });

  it('still crosses site #2, and the run of Fig. 4 is profiled alike by definition and by instrumentation', () => {
    const trace = powTrace(named, cut);
    const paths = referenceProfile(numbering, trace);
    const numbers = paths.map((p) => encodeInterproceduralPath(numbering, p));
    expect(runPlan(numbering, planInterproceduralInstrumentation(numbering), trace)).toEqual(numbers);
    const crossing = paths.filter((p) => p.steps.some((s) => s.kind === 'call'));
    expect(crossing.length).toBeGreaterThan(0);
    expect(numbering.pathCount).toBeLessThan(36n);
  });
});

describe('hybrid strategies', () => {
  const files = (calleeFile: string, leaf: boolean): Program =>
    namedProgram(
      [
        { name: 'main', entry: 'e', exit: 'x', edges: ['e->c', 'c->r', 'r->x'], calls: { c: 'f' } },
        {
          name: 'f',
          file: calleeFile,
          entry: 'e',
          exit: 'x',
          edges: leaf ? ['e->x'] : ['e->c', 'c->r', 'r->x'],
          calls: leaf ? {} : { c: null },
        },
      ],
      ['main'],
    ).program;
  const cutOf = (program: Program, crossFile: boolean, leavesOnly: boolean): unknown =>
    numberInterproceduralPaths(program, { hybrid: { crossFile, leavesOnly } }).procedures[0].callSites[0].cut;

  it('cuts calls into other files (strategy 2) and into non-leaf procedures (strategy 3)', () => {
    expect(cutOf(files('main.js', true), true, false)).toBeNull();
    expect(cutOf(files('lib.js', true), true, false)).toBe('hybrid');
    expect(cutOf(files('main.js', true), false, true)).toBeNull();
    expect(cutOf(files('main.js', false), false, true)).toBe('hybrid');
    expect(numberInterproceduralPaths(files('main.js', false)).procedures[1].callSites[0].cut).toBe(
      'unknown-callee',
    );
  });

  it('with every site cut, each procedure has exactly its Ball-Larus paths (random programs)', () => {
    const seed = baseSeed(0xb1);
    for (let i = 0; i < caseCount(200); i++) {
      const random = randomProgram(new Random((seed + i * 7919) >>> 0));
      // Split edges would add paths of their own: this compares with plain Ball-Larus numbering.
      const program = {
        ...random,
        procedures: random.procedures.map((p) => ({ ...p, splitEdges: undefined })),
      };
      const sites = program.procedures.flatMap((p) => p.callSites.map((s) => s.site));
      const numbering = numberInterproceduralPaths(program, { hybrid: { sites } });
      for (const point of numbering.entryPoints) {
        const { graph } = program.procedures[point.procedure];
        expectSame(Number(point.count), numberPaths(graph, { maxPaths: Number.MAX_SAFE_INTEGER }).pathCount);
      }
    }
  });
});

describe('refusals name the procedure and the problem', () => {
  const program = (edges: string[], calls: Record<string, string | null>, roots = ['main']): Program =>
    namedProgram([{ name: 'main', entry: 'e', exit: 'x', edges, calls }], roots).program;

  it.each<[string, () => Program, RegExp]>([
    [
      'a call vertex with a second normal out-edge',
      () => program(['e->c', 'c->r', 'c->x', 'r->x'], { c: 'main' }),
      /only normal out-edge/,
    ],
    [
      'a return site entered twice',
      () => program(['e->c', 'e->r', 'c->r', 'r->x'], { c: 'main' }),
      /one in-edge/,
    ],
    ['no roots', () => program(['e->c', 'c->r', 'r->x'], { c: null }, []), /at least one root/],
    [
      'a site id used twice',
      () => {
        const p = program(['e->c', 'c->r', 'r->d', 'd->s', 's->x'], { c: null, d: null });
        return {
          ...p,
          procedures: [
            { ...p.procedures[0], callSites: p.procedures[0].callSites.map((s) => ({ ...s, site: 7 })) },
          ],
        };
      },
      /also used/,
    ],
    [
      'a callee that is no procedure',
      () => {
        const p = program(['e->c', 'c->r', 'r->x'], { c: null });
        return {
          ...p,
          procedures: [{ ...p.procedures[0], callSites: [{ ...p.procedures[0].callSites[0], callee: 3 }] }],
        };
      },
      /not a procedure/,
    ],
  ])('%s', (_, build, message) => {
    expect(() => numberInterproceduralPaths(build())).toThrow(message);
    expect(() => numberInterproceduralPaths(build())).toThrow(/main|root/);
  });
});
