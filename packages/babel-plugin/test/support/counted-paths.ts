import { expandMetadata, getStore } from '@pathprof/runtime';
import * as runtime from '@pathprof/runtime';
import { edgePlanOf, numberingOf, type FileMetadata } from '../../src';
import { deriveEdgeCounts, type PathNumbering } from '@pathprof/numbering';
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
  const meta = expandMetadata(JSON.parse(record.meta)) as FileMetadata;
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
  return { meta, numberings: meta.functions.map((fn) => numberingOf(meta, fn)), paths };
}

/**
 * `edge` mode: per function, every edge's count derived from the chord counters, given per block the number
 * of activations that stopped there without finishing (suspended forever).
 */
export function derivedEdgeCounts(key: string, earlyExits: (fn: number) => number[]): number[][] {
  const record = getStore().files[key];
  if (!record) throw new Error(`nothing registered for ${key}`);
  const meta = expandMetadata(JSON.parse(record.meta)) as FileMetadata;
  return meta.functions.map((fn, k) => {
    const { offset, counterCount } = fn.edge!;
    const derived = deriveEdgeCounts(
      edgePlanOf(meta, fn),
      record.counts.subarray(offset, offset + counterCount),
      earlyExits(k),
    );
    if (derived.violations.length)
      throw new Error(`${fn.name}: flow not conserved ${JSON.stringify(derived.violations)}`);
    return derived.edgeCounts;
  });
}
