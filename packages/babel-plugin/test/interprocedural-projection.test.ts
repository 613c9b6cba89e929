import { EdgeKind, isExceptionalKind } from '@pathprof/cfg';
import { decodeInterproceduralPath, decodePath, type InterproceduralNumbering } from '@pathprof/numbering';
import { listFixtures, runScript } from '@pathprof/testkit';
import type { FileMetadata, FunctionMetadata } from '../src';
import { countedPaths, resetCounts, runtimeGlobals } from './support/counted-paths';
import { instrument } from './support/instrument';
import { countedInterproceduralPaths } from './support/interprocedural-oracle';

// Instrumenting a large fixture takes seconds alone, far longer beside the rest of the suite on two cores.
jest.setTimeout(60_000);

/**
 * Projection (context scheme): every interprocedural path, followed frame by frame, completes Ball-Larus
 * paths of the functions it runs through: those that end in its active suffix (a frame's path ends at its
 * exit or a back edge; its beginning may lie in the context prefix, which repeats how the suffix was reached,
 * so what ends there was counted by an earlier path). Summed over the counted interprocedural paths, those projected
 * paths must be exactly the paths a path-mode run of the same program counts: two instrumentations, two
 * numberings, one execution. Paths are compared by their decisions in source terms (the interprocedural
 * graphs split calls into blocks of their own, so edge ids differ). Paths that involve an exception are left
 * out on both sides: a handler entered by an exception out of a crossed callee starts a new interprocedural
 * path with no context, so the Ball-Larus path through the call and the handler has no projection.
 */
type Segments = Map<string, number>;

/** The deciding edges of a path, by kind and source extent, and where it starts. */
function key(fn: FunctionMetadata, start: string, edges: readonly number[]): string | null {
  const parts: string[] = [];
  for (const e of edges) {
    const kind = fn.edges[3 * e + 2] as EdgeKind;
    if (isExceptionalKind(kind)) return null;
    if (kind === EdgeKind.Normal || kind === EdgeKind.Entry || kind === EdgeKind.ParamsEntry) continue;
    const r = fn.edgeRanges[e];
    parts.push(`${kind}@${r < 0 ? '-' : fn.ranges.slice(4 * r, 4 * r + 4).join(':')}`);
  }
  return `${fn.name}|${start}|${parts.join(' ')}`;
}

function add(segments: Segments, k: string | null, count: number): void {
  if (k !== null) segments.set(k, (segments.get(k) ?? 0) + count);
}

function projected(
  meta: FileMetadata,
  numbering: InterproceduralNumbering,
  counts: [number, number][],
): Segments {
  const segments: Segments = new Map();
  for (const [number, count] of counts) {
    const { path, contextLength } = decodeInterproceduralPath(numbering, BigInt(number));
    const entry = numbering.entryPoints[path.entryPoint];
    type Frame = { procedure: number; start: string; edges: number[]; lost: boolean };
    const frames: Frame[] = [{ procedure: entry.procedure, start: 'entry', edges: [], lost: false }];
    // A frame's path that ends in the context prefix ended in an earlier path, which counted it.
    let active = false;
    const emit = (f: Frame) => {
      if (active && !f.lost) add(segments, key(meta.functions[f.procedure], f.start, f.edges), count);
    };
    for (const [i, step] of path.steps.entries()) {
      active = i >= contextLength;
      const top = frames[frames.length - 1];
      const procedure = numbering.procedures[step.procedure];
      if (step.kind === 'call') {
        frames.push({
          procedure: procedure.callSites[step.site].callee!,
          start: 'entry',
          edges: [],
          lost: false,
        });
      } else if (step.kind === 'return') {
        emit(frames.pop()!);
        if (step.to === null) continue;
        const caller = numbering.procedures[step.to.procedure];
        const site = caller.callSites[step.to.site];
        const { graph } = caller;
        const callEdge = Array.from(graph.edgeSrc).findIndex(
          (s, e) => s === site.call && graph.edgeExceptional[e] === 0,
        );
        frames[frames.length - 1].edges.push(callEdge);
      } else {
        const { dag, graph } = procedure;
        const kind = dag.kind[step.edge];
        if (kind === 'restart') {
          // A restart after a back edge starts a loop path; one into a handler has no Ball-Larus counterpart.
          const target = dag.dst[step.edge];
          const afterBackedge = Array.from(graph.edgeDst).some(
            (d, e) => d === target && dag.endedBy[e] >= 0 && dag.kind[dag.endedBy[e]] === 'loop-end',
          );
          Object.assign(top, { start: 'loop', edges: [], lost: !afterBackedge });
        } else {
          top.edges.push(dag.origin[step.edge]);
          if (kind === 'loop-end' || kind === 'throw-end') emit(top);
        }
      }
    }
  }
  return segments;
}

function pathMode(meta: FileMetadata, counted: ReturnType<typeof countedPaths>): Segments {
  const segments: Segments = new Map();
  meta.functions.forEach((fn, k) => {
    for (const [id, count] of counted.paths[k]) {
      const decoded = decodePath(counted.numberings[k], id);
      add(segments, key(fn, decoded.start.kind === 'entry' ? 'entry' : 'loop', decoded.edges), count);
    }
  });
  return segments;
}

const sorted = (s: Segments) => [...s].sort((a, b) => (a[0] < b[0] ? -1 : 1));

describe.each(
  listFixtures()
    // async.js awaits a promise that never settles after a crossed call returned: that interprocedural
    // path never ends, so the callee's completed Ball-Larus path has no counted projection (README).
    .filter((f) => !f.source.startsWith('// graph-only') && f.name !== 'async.js')
    .map((f) => [f.name, f] as const),
)('projection of %s', (name, fixture) => {
  test('the context paths project onto the Ball-Larus paths a path-mode run counts', async () => {
    resetCounts();
    await runScript(instrument(fixture.source, name), name, runtimeGlobals());
    const byPathMode = pathMode(countedPaths(`virtual/${name}`).meta, countedPaths(`virtual/${name}`));
    resetCounts();
    await runScript(
      instrument(fixture.source, name, { mode: 'interprocedural', scheme: 'context' }),
      name,
      runtimeGlobals(),
    );
    const { meta, numbering, paths } = countedInterproceduralPaths(`virtual/${name}`);
    const byProjection = projected(meta, numbering, paths);
    expect(sorted(byProjection)).toEqual(sorted(byPathMode));
    expect(byProjection.size).toBeGreaterThan(0);
    compared += byProjection.size;
  });
});

let compared = 0;
test('the projections compared many distinct paths', () => expect(compared).toBeGreaterThan(150));
