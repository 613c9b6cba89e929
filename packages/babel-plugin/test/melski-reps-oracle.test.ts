import { EdgeKind } from '@pathprof/cfg';
import {
  decodeInterproceduralPath,
  encodeInterproceduralPath,
  numberInterproceduralPaths,
  type FlowGraph,
  type PathStep,
  type InterproceduralNumbering,
  type InterproceduralScheme,
} from '@pathprof/numbering';
import { listFixtures, runScript } from '@pathprof/testkit';
import { powProgram } from '../../numbering/test/interprocedural/support/paper-programs';
import { callSitesOf, flowGraphOf, type FileMetadata } from '../src';
import { resetCounts, runtimeGlobals } from './support/counted-paths';
import { instrument } from './support/instrument';
import { countedInterproceduralPaths } from './support/interprocedural-oracle';

// Instrumenting a large fixture takes seconds alone, far longer beside the rest of the suite on two cores.
jest.setTimeout(60_000);

/**
 * Melski & Reps' running example (digest §9) as JavaScript (the `melski-reps-pow.js` fixture), instrumented
 * and run: its executed interprocedural paths, with their counts, are the paper's printed profiles. The JS
 * graphs have more blocks than Fig. 4, exceptional edges the paper has not and a program body that is a root
 * too, so path numbers differ; what must agree is each path's meaning (the decisions, calls, returns,
 * restarts and ends it takes, in order, which both sides are reduced to below), and, numbered without the
 * program body and the implicit exceptional edges, the paper's slots.
 */
const PAPER_PROFILES: Record<InterproceduralScheme, string> = {
  context: '16:1 18:9 24:9 25:3 27:3 28:3 29:6 30:3 32:3 33:3 34:5 35:1',
  piecewise: '6:1 8:9 12:3 14:5 15:1 16:15 17:3 19:6 20:6',
};

/** Fig. 4's edges that mean something, by vertex names; every other edge is sequencing. */
const PAPER_EVENTS: Record<string, string> = {
  'v4>v5': 'main loop true',
  'v4>v15': 'main loop false',
  'v5>v6': 'main even true',
  'v5>v9': 'main even false',
  'v9>v10': 'main three true',
  'v9>v13': 'main three false',
  'u3>u4': 'pow loop true',
  'u3>u7': 'pow loop false',
  'v6>u1': 'call 1',
  'v10>u1': 'call 2',
  'u8>v7': 'return 1',
  'u8>v11': 'return 2',
  'v1>v4': 'restart main',
  'v17>v4': 'restart main',
  'u1>u3': 'restart pow',
  'u9>u3': 'restart pow',
  'v13>v14': 'end main backedge',
  'u5>u6': 'end pow backedge',
  'v16>XG': 'end main return',
};

function paperPaths(scheme: InterproceduralScheme): string[] {
  const named = powProgram();
  const numbering = numberInterproceduralPaths(named.program, { scheme });
  return PAPER_PROFILES[scheme].split(' ').map((slot) => {
    const [number, count] = slot.split(':').map(Number);
    const names = decodeInterproceduralPath(numbering, BigInt(number)).vertices.map((v) =>
      named.vertexName(v),
    );
    const events = [...names, 'XG']
      .slice(1)
      .map((name, i) => PAPER_EVENTS[`${names[i]}>${name}`])
      .filter((e) => e !== undefined);
    return `${events.join(', ')} ×${count}`;
  });
}

/** The same reduction of a path counted by the instrumented fixture, from the source's own constructs. */
function jsPath(meta: FileMetadata, numbering: InterproceduralNumbering, number: number): string {
  const decoded = decodeInterproceduralPath(numbering, BigInt(number));
  const name = (p: number) => meta.functions[p].name;
  const tests: Record<number, string> = { 6: 'main loop', 7: 'main even', 11: 'main three', 21: 'pow loop' };
  const events: string[] = [];
  for (const step of decoded.path.steps) {
    const procedure = numbering.procedures[step.procedure];
    if (step.kind === 'call') events.push(`call ${step.site + 1}`);
    else if (step.kind === 'return')
      events.push(step.to === null ? `end ${name(step.procedure)} return` : `return ${step.to.site + 1}`);
    else {
      const kind = procedure.dag.kind[step.edge];
      if (kind === 'restart') events.push(`restart ${name(step.procedure)}`);
      else if (kind === 'loop-end') events.push(`end ${name(step.procedure)} backedge`);
      else if (kind === 'flow') {
        const fn = meta.functions[step.procedure];
        const e = procedure.dag.origin[step.edge];
        const edgeKind = fn.edges[3 * e + 2];
        const range = fn.edgeRanges[e];
        const test = range < 0 ? undefined : tests[fn.ranges[4 * range]];
        if (test && (edgeKind === EdgeKind.True || edgeKind === EdgeKind.False))
          events.push(`${test} ${edgeKind === EdgeKind.True}`);
      } else throw new Error(`unexpected ${kind} step in ${name(step.procedure)}`);
    }
  }
  return events.join(', ');
}

/**
 * The paper's numbering proper: main and pow alone, main the only root, and the implicit exceptional edges
 * into EXIT (the paper's C has none) left unnumbered. Each counted path is carried over step by step (same
 * blocks, same original edges, same call sites) and numbered there: the paper's slots.
 */
function paperSlots(
  meta: FileMetadata,
  numbering: InterproceduralNumbering,
  counts: [number, number][],
): string {
  const names = ['main', 'pow'];
  const index = names.map((n) => meta.functions.findIndex((f) => f.name === n));
  const renumber = new Map(index.map((p, i) => [p, i]));
  const keptIds: number[][] = [];
  const procedures = index.map((p, i) => {
    const graph = flowGraphOf(meta.functions[p]);
    const kept = Array.from({ length: graph.edgeCount }, (_, e) => e).filter(
      (e) => graph.edgeExceptional[e] === 0,
    );
    keptIds[i] = kept;
    const reduced: FlowGraph = {
      ...graph,
      edgeCount: kept.length,
      edgeSrc: Int32Array.from(kept, (e) => graph.edgeSrc[e]),
      edgeDst: Int32Array.from(kept, (e) => graph.edgeDst[e]),
      edgeExceptional: new Uint8Array(kept.length),
      edgeSilent: undefined,
    };
    const callSites = callSitesOf(meta.functions[p]).map((s) => ({ ...s, callee: renumber.get(s.callee!)! }));
    return { name: names[i], file: 'pow.js', graph: reduced, callSites };
  });
  const paper = numberInterproceduralPaths({ procedures, roots: [0] }, { scheme: numbering.scheme });
  expect(paper.pathCount).toBe(numbering.scheme === 'context' ? 36n : 21n);
  const slots = counts.map(([number, count]) => {
    const { path } = decodeInterproceduralPath(numbering, BigInt(number));
    const point = numbering.entryPoints[path.entryPoint];
    const entryPoint = paper.entryPoints.findIndex(
      (e) => e.kind === point.kind && e.procedure === renumber.get(point.procedure),
    );
    const steps = path.steps.map((step): PathStep => {
      const procedure = renumber.get(step.procedure)!;
      if (step.kind === 'call') return { ...step, procedure };
      if (step.kind === 'return')
        return {
          ...step,
          procedure,
          to: step.to && { ...step.to, procedure: renumber.get(step.to.procedure)! },
        };
      const from = numbering.procedures[step.procedure].dag;
      const to = paper.procedures[procedure].dag;
      const kind = from.kind[step.edge];
      if (kind === 'restart') return { ...step, procedure, edge: to.restartInto[from.dst[step.edge]] };
      const original = keptIds[procedure].indexOf(from.origin[step.edge]);
      return { ...step, procedure, edge: kind === 'loop-end' ? to.endedBy[original] : to.keptAs[original] };
    });
    return [Number(encodeInterproceduralPath(paper, { entryPoint, steps })), count];
  });
  return slots
    .sort((a, b) => a[0] - b[0])
    .map(([slot, count]) => `${slot}:${count}`)
    .join(' ');
}

describe.each(['context', 'piecewise'] as const)('%s scheme', (scheme) => {
  test("the paper's example runs the paper's paths, as often as the paper prints", async () => {
    const fixture = listFixtures().find((f) => f.name === 'melski-reps-pow.js')!;
    resetCounts();
    const run = await runScript(
      instrument(fixture.source, fixture.name, { mode: 'interprocedural', scheme }),
      fixture.name,
      runtimeGlobals(),
    );
    expect(run).toEqual({ output: ['1959'], error: null });
    const { meta, numbering, paths } = countedInterproceduralPaths(`virtual/${fixture.name}`);
    // The program body is a root of its own (it calls main through another name): one path, left out.
    const mainPaths = paths.filter(([number]) => {
      const entry = numbering.entryPoints.find((p) => p.start <= number && number < p.start + p.count)!;
      return meta.functions[entry.procedure].name !== '<program>';
    });
    expect(paths.length - mainPaths.length).toBe(1);
    const ours = mainPaths.map(([number, count]) => `${jsPath(meta, numbering, number)} ×${count}`);
    expect(ours.sort()).toEqual(paperPaths(scheme).sort());
    // 49 records: 19 from main's activation (18 iterations and the exit), 30 from pow's 15 calls.
    expect(mainPaths.reduce((n, [, count]) => n + count, 0)).toBe(49);
    // Numbered as the paper numbers them, the counted paths are the paper's printed profile, slot for slot.
    expect(paperSlots(meta, numbering, mainPaths)).toBe(PAPER_PROFILES[scheme]);
  });
});
