import { expandMetadata, getStore, snapshot } from '@pathprof/runtime';
import { TraceReplay, type ControlFlowGraph, type TraceEvent } from '@pathprof/cfg';
import type { PathNumbering } from '@pathprof/numbering';
import { ContextDecoder, numberingOf, type FileMetadata } from '../../src';
import { numberingChecksum } from '../../src/metadata';
import { pathsFromTrace } from './paths-from-trace';

/** What happened in a traced run that makes contexts hard, so tests can assert it really occurred. */
export interface ContextStats {
  /** Activations entered while another instrumented activation ran (a context longer than one frame). */
  nestedEntries: number;
  /** Activations that suspended (`await`, `yield`, a generator's parameters bound) and ran again. */
  resumptions: number;
  /** Activations that ended by an exception while an instrumented caller was below them. */
  throwsOut: number;
  /** Entries of a function into a context where it was already on the stack (recursion). */
  recursiveEntries: number;
}

export function emptyContextStats(): ContextStats {
  return { nestedEntries: 0, resumptions: 0, throwsOut: 0, recursiveEntries: 0 };
}

/** One activation of a traced run: its graph, its calling context (traced graphs, root first), its edges. */
export interface ContextActivation {
  readonly graph: number;
  readonly context: readonly number[];
  readonly edges: readonly number[];
}

/**
 * The calling-context oracle: which activation runs at every moment of a traced run, hence each activation's
 * context, the activation that was running when it started (and so on down), from the trace alone. An
 * activation runs from its entry until it ends (EXIT, or an exception out) or suspends (a `suspend` event:
 * `await`, `yield`, a generator's parameters bound), and again when it resumes (a `resume` event, or an
 * event of its own: a `throw()` or rejection landing in a handler, a `return()` at a yield). Only the running
 * activation reports events; anything else fails, naming the event: the trace plan's suspension points would
 * have missed one. A resumed generator or async function keeps the context it started in, so its callees'
 * contexts run through it; for everything else the context is the real stack of instrumented frames.
 */
export function tracedContexts(
  graphs: readonly ControlFlowGraph[],
  events: readonly TraceEvent[],
  stats?: ContextStats,
): ContextActivation[] {
  const replay = new TraceReplay(graphs);
  const running: number[] = [];
  const contextOf = new Map<number, number[]>();
  const state = new Map<number, 'running' | 'suspended' | 'done'>();
  let index = 0;
  const fail = (ev: TraceEvent, problem: string): never => {
    throw new Error(`trace event ${index} ${JSON.stringify(ev)}: ${problem} (running: ${running.join(' ')})`);
  };
  const top = () => running[running.length - 1];
  for (const ev of events) {
    index++;
    if (ev.type === 'enter') {
      const below = top();
      const context = [...(below === undefined ? [] : contextOf.get(below)!), ev.graph];
      contextOf.set(ev.activation, context);
      state.set(ev.activation, 'running');
      running.push(ev.activation);
      replay.step(ev);
      if (stats) {
        if (below !== undefined) stats.nestedEntries++;
        if (context.indexOf(ev.graph) < context.length - 1) stats.recursiveEntries++;
      }
      continue;
    }
    const a = ev.activation;
    const now = state.get(a);
    if (now === undefined) fail(ev, 'unknown activation');
    if (ev.type === 'suspend') {
      if (now === 'done') continue; // a `for await` loop left by `return` closes its iterator afterwards
      if (now !== 'running' || top() !== a) fail(ev, 'suspends while not running');
      running.pop();
      state.set(a, 'suspended');
      continue;
    }
    if (now === 'done') fail(ev, 'after the activation ended');
    if (now === 'suspended') {
      // Resumed: by next() (the event), or by throw() or return() (its first event after).
      running.push(a);
      state.set(a, 'running');
      if (stats) stats.resumptions++;
      if (ev.type === 'resume') continue;
    } else if (ev.type === 'resume') fail(ev, 'resumes while running');
    if (top() !== a) fail(ev, 'reported while another activation runs');
    replay.step(ev);
    if (replay.activation(a)!.end === 'exit') {
      running.pop();
      state.set(a, 'done');
      if (stats && ev.type === 'exception-exit' && running.length > 0) stats.throwsOut++;
    }
  }
  return replay.activations().map((a) => ({
    graph: a.graph,
    context: contextOf.get(a.activation)!,
    edges: a.edges,
  }));
}

/**
 * What reading a file's counted contexts needs: its metadata, a decoder of its contexts and, when paths are
 * counted per context, its functions' numberings. The same for every run of one instrumented file: made once.
 */
export interface ContextReading {
  readonly key: string;
  readonly hash: string;
  readonly meta: FileMetadata;
  readonly decoder: ContextDecoder;
  readonly numberings: readonly PathNumbering[] | null;
}

/**
 * The reading of file `key` as registered in this realm (run it once first). With paths per context, each
 * function's numbering is recomputed from the metadata, or, given path mode's numberings of the same file,
 * checked to be those (so paths per context summed over contexts are path mode's paths) and taken.
 */
export function contextReading(key: string, pathModeNumberings?: readonly PathNumbering[]): ContextReading {
  const record = getStore().files[key];
  if (!record) throw new Error(`nothing registered for ${key}`);
  const meta = expandMetadata(JSON.parse(record.meta)) as FileMetadata;
  const decoder = new ContextDecoder([{ key, hash: record.hash, meta }]);
  let numberings: readonly PathNumbering[] | null = null;
  if (meta.mode === 'path' && pathModeNumberings) {
    meta.functions.forEach((fn, k) => {
      if (fn.path!.checksum !== numberingChecksum(pathModeNumberings[k]))
        throw new Error(`${fn.name}: paths per context are numbered otherwise than in path mode`);
    });
    numberings = pathModeNumberings;
  } else if (meta.mode === 'path') numberings = meta.functions.map((fn) => numberingOf(meta, fn));
  return { key, hash: record.hash, meta, decoder, numberings };
}

/**
 * The contexts a file counted in this realm, each as `context → entries` where a context is its functions'
 * indexes root first, joined by ' '; and, when paths were counted per context, `context|path → count`.
 */
export function countedContexts({ key, hash, decoder }: ContextReading): {
  entries: Map<string, number>;
  paths: Map<string, number>;
} {
  const profile = snapshot(getStore()).files.find((f) => f.key === key);
  if (!profile) throw new Error(`nothing registered for ${key}`);
  const entries = new Map<string, number>();
  const paths = new Map<string, number>();
  const contexts = profile.contexts ?? { stacks: [], entries: [] };
  const chain = (stack: number, value: number) =>
    decoder
      .decode(key, hash, contexts.stacks, stack, value)
      .map((f) => (f.kind === 'cut' ? 'cut' : String(f.function)))
      .join(' ');
  for (const [stack, value, n] of contexts.entries) add(entries, chain(stack, value), n);
  for (const [stack, value, pairs] of contexts.paths ?? [])
    for (const [path, n] of pairs) add(paths, `${chain(stack, value)}|${path}`, n);
  return { entries, paths };
}

/**
 * What the counts must be: per traced activation of an instrumented function, its context (the functions'
 * indexes) once; when paths are counted per context, each of its paths (numbered from `Val`) in its context.
 */
export function expectedContexts(
  { numberings }: ContextReading,
  activations: readonly ContextActivation[],
  functionOf: readonly number[],
): { entries: Map<string, number>; paths: Map<string, number> } {
  const entries = new Map<string, number>();
  const pathCounts = new Map<string, number>();
  for (const a of activations) {
    const fn = functionOf[a.graph];
    if (fn < 0) continue;
    const chain = a.context
      .map((g) => functionOf[g])
      .filter((f) => f >= 0)
      .join(' ');
    add(entries, chain, 1);
    if (numberings)
      for (const p of pathsFromTrace(numberings[fn], a.edges)) add(pathCounts, `${chain}|${p}`, 1);
  }
  return { entries, paths: pathCounts };
}

/** The differences between two tallies, for a failure message; empty when equal. */
export function tallyDifferences(counted: Map<string, number>, expected: Map<string, number>): string[] {
  const out: string[] = [];
  for (const key of new Set([...counted.keys(), ...expected.keys()])) {
    const c = counted.get(key) ?? 0;
    const e = expected.get(key) ?? 0;
    if (c !== e) out.push(`${key}: counted ${c}, traced ${e}`);
  }
  return out.sort();
}

function add(map: Map<string, number>, key: string, n: number): void {
  map.set(key, (map.get(key) ?? 0) + n);
}
