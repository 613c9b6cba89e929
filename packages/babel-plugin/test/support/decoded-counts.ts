import { edgeKindName, type EdgeKind } from '@pathprof/cfg';
import { decodePath, deriveEdgeCounts } from '@pathprof/numbering';
import type { FileProfile } from '@pathprof/runtime';
import { edgePlanOf, numberingOf, type FileMetadata } from '../../src';
import { expandMetadata } from '@pathprof/runtime';

/**
 * A profile's counts per function name, each path written as its edge kinds
 * (`entry true return`), the way istanbul's specs write expected counters: readable and independent of ids.
 */
export function decodedCounts(file: FileProfile): Record<string, Record<string, number>> {
  const meta = expandMetadata(file.meta) as FileMetadata;
  const counts = new Map(file.counts);
  const hashed = new Map(file.hashed);
  const result: Record<string, Record<string, number>> = {};
  for (const fn of meta.functions) {
    const numbering = numberingOf(meta, fn);
    const storage = fn.path!.storage;
    const pairs: [number, number][] =
      storage.kind === 'hash'
        ? (hashed.get(storage.slot) ?? [])
        : Array.from({ length: fn.path!.pathCount }, (_, p): [number, number] => [
            p,
            counts.get(storage.offset + p) ?? 0,
          ]);
    const table: Record<string, number> = {};
    for (const [path, n] of pairs) {
      if (n === 0) continue;
      const decoded = decodePath(numbering, path);
      const kinds = decoded.edges.map((e) => edgeKindName(fn.edges[3 * e + 2] as EdgeKind));
      const text = [...(decoded.start.kind === 'entry' ? [] : ['(after backedge)']), ...kinds].join(' ');
      table[text] = (table[text] ?? 0) + n;
    }
    result[fn.name] = table;
  }
  return result;
}

/**
 * An edge-mode profile's counts per function name: every edge count derived from the counters, summed by the
 * edge's kind (`true`, `return`, …), with `activations` for how often the function was entered.
 */
export function derivedEdgeKinds(file: FileProfile): Record<string, Record<string, number>> {
  const meta = expandMetadata(file.meta) as FileMetadata;
  const counts = new Map(file.counts);
  const result: Record<string, Record<string, number>> = {};
  for (const fn of meta.functions) {
    const { offset, counterCount } = fn.edge!;
    const counters = Array.from({ length: counterCount }, (_, i) => counts.get(offset + i) ?? 0);
    const derived = deriveEdgeCounts(edgePlanOf(meta, fn), counters);
    if (derived.violations.length) throw new Error(`${fn.name}: flow not conserved`);
    const table: Record<string, number> = { activations: derived.activations };
    derived.edgeCounts.forEach((n, e) => {
      const kind = edgeKindName(fn.edges[3 * e + 2] as EdgeKind);
      if (n !== 0) table[kind] = (table[kind] ?? 0) + n;
    });
    result[fn.name] = table;
  }
  return result;
}
