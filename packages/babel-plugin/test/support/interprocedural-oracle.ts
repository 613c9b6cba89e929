import { expandMetadata, flushCounts, getStore } from '@pathprof/runtime';
import { canInstrument, TraceReplay, type ControlFlowGraph, type TraceEvent } from '@pathprof/cfg';
import {
  countsByPathNumber,
  encodeInterproceduralPath,
  referenceProfile,
  type ExecutionEvent,
  type InterproceduralNumbering,
} from '@pathprof/numbering';
import { interproceduralNumberingOf, type FileMetadata } from '../../src';
import { graphMetadata } from '../../src/metadata';
import { tally } from './paths-from-trace';

/** What happened across calls in a traced run, so tests can assert the hard cases really occurred. */
export interface CrossingStats {
  /** Activations entered through a crossed call. */
  crossedEntries: number;
  /** Exceptions that left a crossed callee's activation. */
  crossedThrows: number;
  /** Handlers entered by an exception out of a crossed call (the caller's path restarts there). */
  handlerRestarts: number;
}

/**
 * The interprocedural oracle: a traced run (graphs built with the same calls split) turned into the
 * numbering's execution events, one stream per root activation (a root and the crossed activations nested in
 * it run as one stack; anything else, a callback, a cut call's callee, a generator resumed later, starts a
 * stream of its own), then profiled by `referenceProfile`, from the definitions of Melski & Reps alone.
 * Returns the expected `[path number, count]` pairs, sorted.
 */
export function expectedInterproceduralCounts(
  numbering: InterproceduralNumbering,
  tracedGraphs: readonly ControlFlowGraph[],
  procedureOf: readonly number[],
  events: readonly TraceEvent[],
  stats?: CrossingStats,
): [number, number][] {
  const streams = executionStreams(numbering, tracedGraphs, procedureOf, events, stats);
  const paths = streams.flatMap((stream) =>
    referenceProfile(numbering, stream).map((path) => Number(encodeInterproceduralPath(numbering, path))),
  );
  return tally(paths);
}

function executionStreams(
  numbering: InterproceduralNumbering,
  graphs: readonly ControlFlowGraph[],
  procedureOf: readonly number[],
  events: readonly TraceEvent[],
  stats?: CrossingStats,
): ExecutionEvent[][] {
  // Per traced graph, per call vertex: the site's program-wide id, whether it is crossed, and the callee.
  const sitesAt = graphs.map((_g, i) => {
    const at = new Map<number, { site: number; crossed: boolean; callee: number }>();
    const p = procedureOf[i];
    if (p < 0) return at;
    numbering.procedures[p].callSites.forEach((site) =>
      at.set(site.call, { site: site.site, crossed: site.cut === null, callee: site.callee ?? -1 }),
    );
    return at;
  });
  const replay = new TraceReplay(graphs);
  const streams: ExecutionEvent[][] = [];
  const streamOf = new Map<number, ExecutionEvent[]>();
  const crossedActivations = new Set<number>();
  let pending: { stream: ExecutionEvent[]; callee: number } | null = null;
  for (const ev of events) {
    if (ev.type === 'enter') {
      replay.step(ev);
      const procedure = procedureOf[ev.graph];
      if (pending) {
        if (pending.callee !== procedure)
          throw new Error(`a crossed call entered ${graphs[ev.graph].name}, not its callee`);
        streamOf.set(ev.activation, pending.stream);
        crossedActivations.add(ev.activation);
        if (stats) stats.crossedEntries++;
        pending = null;
      } else {
        const stream: ExecutionEvent[] = [{ kind: 'enter', procedure }];
        streams.push(stream);
        streamOf.set(ev.activation, stream);
      }
      continue;
    }
    if (pending) throw new Error(`a crossed call ran ${ev.type} code before its callee started`);
    const a = replay.activation(ev.activation)!;
    const g = graphs[a.graph];
    const stream = streamOf.get(ev.activation)!;
    for (const edge of replay.step(ev)) {
      stream.push({ kind: 'edge', edge });
      if (stats && g.edgeExceptional[edge]) {
        if (g.edgeDst[edge] === g.exit && crossedActivations.has(ev.activation)) stats.crossedThrows++;
        const from = sitesAt[a.graph].get(g.edgeSrc[edge]);
        if (from?.crossed && g.edgeDst[edge] !== g.exit) stats.handlerRestarts++;
      }
      const site = g.edgeExceptional[edge] ? undefined : sitesAt[a.graph].get(g.edgeDst[edge]);
      if (!site) continue;
      stream.push({ kind: 'call', site: site.site });
      if (site.crossed) pending = { stream, callee: site.callee };
    }
  }
  return streams;
}

/**
 * The file's counted interprocedural paths as sorted `[path number, count]` pairs, and its numbering
 * (recomputed from the metadata unless `known`).
 */
export function countedInterproceduralPaths(
  key: string,
  known?: InterproceduralNumbering,
): {
  meta: FileMetadata;
  numbering: InterproceduralNumbering;
  paths: [number, number][];
} {
  const record = getStore().files[key];
  if (!record) throw new Error(`nothing registered for ${key}`);
  // Counts at constant indexes wait in the file's module variables until a reader adds them in.
  flushCounts(record);
  const meta = expandMetadata(JSON.parse(record.meta)) as FileMetadata;
  const numbering = known ?? interproceduralNumberingOf(meta);
  const array = Array.from(record.counts, (n, slot): [number, number] => [slot, n]);
  const paths = countsByPathNumber(numbering, meta.interprocedural!.storage, array, (k) =>
    record.hashed[k].entries(),
  );
  return { meta, numbering, paths };
}

/**
 * Which procedure each traced graph is (-1: not instrumented), checking that the traced graphs are the ones
 * the plugin numbered: the oracle must speak of the same edges.
 */
export function procedureIndex(meta: FileMetadata, tracedGraphs: readonly ControlFlowGraph[]): number[] {
  let next = 0;
  const index = tracedGraphs.map((g) => (canInstrument(g) ? next++ : -1));
  index.forEach((p, i) => {
    if (p >= 0 && meta.functions[p]?.fingerprint !== graphMetadata(tracedGraphs[i]).fingerprint)
      throw new Error(`the traced graph of ${tracedGraphs[i].name} is not the one the plugin numbered`);
  });
  if (next !== meta.functions.length) throw new Error('the plugin numbered other functions than were traced');
  return index;
}
