import { expandMetadata, flushCounts, getStore } from '@pathprof/runtime';
import * as runtime from '@pathprof/runtime';
import { edgePlanOf, numberingOf, type FileMetadata } from '../../src';
import { deriveEdgeCounts, type EdgeProfilePlan, type PathNumbering } from '@pathprof/numbering';
import { runPlain, TIMEOUT, type RunResult } from '@pathprof/testkit';

/** Globals instrumented code needs inside a `vm` context: `require` of the runtime, as the plugin emits it. */
export function runtimeGlobals(): Record<string, unknown> {
  return {
    require: (id: string) => {
      if (id === 'babel-plugin-pathprof/runtime') return runtime;
      throw new Error(`unexpected require(${JSON.stringify(id)})`);
    },
  };
}

/** Forgets everything counted so far in this realm (calling contexts too). */
export function resetCounts(): void {
  const store = getStore();
  for (const key of Object.keys(store.files)) delete store.files[key];
  delete store.contexts;
}

/**
 * Runs instrumented CommonJS `code` on `args` from nothing counted, to compare with a traced run of the same
 * program. A run that times out (on a loaded machine a slow program can) runs once more, counts reset, with
 * ten times the time: only a real hang fails the comparison.
 */
export function runCounted(code: string, args: readonly unknown[]): RunResult {
  resetCounts();
  const first = runPlain(code, args, { globals: runtimeGlobals() });
  if (!('error' in first && first.error.startsWith(TIMEOUT))) return first;
  resetCounts();
  return runPlain(code, args, { globals: runtimeGlobals(), timeoutMs: 20_000 });
}

/**
 * Per function of the file (by index), its counted path numbers as sorted `[path, count]` pairs, and its
 * numbering as recomputed from the metadata.
 */
export function countedPaths(key: string): {
  meta: FileMetadata;
  numberings: PathNumbering[];
  paths: [number, number][][];
} {
  const record = getStore().files[key];
  if (!record) throw new Error(`nothing registered for ${key}`);
  flushCounts(record);
  const read = readMetadata(record.meta);
  const { meta } = read;
  const paths = meta.functions.map((fn) => {
    const storage = fn.path!.storage;
    const pairs: [number, number][] =
      storage.kind === 'hash'
        ? record.hashed[storage.slot].entries()
        : Array.from({ length: fn.path!.pathCount }, (_, p): [number, number] => [
            p,
            record.counts[storage.offset + p],
          ]);
    return pairs.filter(([, n]) => n > 0).sort((a, b) => a[0] - b[0]);
  });
  read.numberings ??= meta.functions.map((fn) => numberingOf(meta, fn));
  return { meta, numberings: read.numberings, paths };
}

/**
 * `edge` mode: per function, every edge's count derived from the chord counters, given per block the number
 * of activations that stopped there without finishing (suspended forever).
 */
export function derivedEdgeCounts(key: string, earlyExits: (fn: number) => number[]): number[][] {
  const record = getStore().files[key];
  if (!record) throw new Error(`nothing registered for ${key}`);
  flushCounts(record);
  const read = readMetadata(record.meta);
  const { meta } = read;
  read.edgePlans ??= meta.functions.map((fn) => edgePlanOf(meta, fn));
  const plans = read.edgePlans;
  return meta.functions.map((fn, k) => {
    const { offset, counterCount } = fn.edge!;
    const derived = deriveEdgeCounts(
      plans[k],
      record.counts.subarray(offset, offset + counterCount),
      earlyExits(k),
    );
    if (derived.violations.length)
      throw new Error(`${fn.name}: flow not conserved ${JSON.stringify(derived.violations)}`);
    return derived.edgeCounts;
  });
}

/** A file's metadata as read from its text, with what the checks derive from it, on first use. */
interface ReadMetadata {
  readonly meta: FileMetadata;
  numberings?: PathNumbering[];
  edgePlans?: EdgeProfilePlan[];
}

/**
 * The metadata texts read last: every run of one instrumented program registers the same text, and the
 * property checks read it after each run (path and edge mode in turn, on each input), so its numberings and
 * edge plans, functions of the text alone, are worked out once per program.
 */
const readByText = new Map<string, ReadMetadata>();
const READ_KEPT = 4;

function readMetadata(text: string): ReadMetadata {
  let read = readByText.get(text);
  if (read) return read;
  read = { meta: expandMetadata(JSON.parse(text)) as FileMetadata };
  if (readByText.size === READ_KEPT) readByText.delete(readByText.keys().next().value!);
  readByText.set(text, read);
  return read;
}
