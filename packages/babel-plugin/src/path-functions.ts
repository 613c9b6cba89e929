import type { ControlFlowGraph } from '@pathprof/cfg';
import { numberPaths, simplifyPathOps, type PathNumbering } from '@pathprof/numbering';
import type { CountingFunction } from './counter-plan';
import { pathFallback, type PathFallback } from './fallbacks';
import { numberingChecksum, type FunctionMetadata } from './metadata';
import type { ResolvedOptions } from './options';

/** The counters of a file handed out so far: array slots, and hash tables. */
export interface CounterLayout {
  arraySize: number;
  hashCount: number;
}

/** A function's Ball-Larus numbering with the plugin's options. */
export function numberForPaths(cfg: ControlFlowGraph, options: ResolvedOptions): PathNumbering {
  return numberPaths(cfg, {
    maxPaths: options.maxPaths,
    arrayThreshold: options.hashThreshold,
    successorOrder: options.successorOrder,
  });
}

/**
 * A function counted in path mode: its counters, the next ones of `layout` (which advances), its metadata's
 * `path`, and its fallback if it needed one. Without a layout (paths per calling context) each context has
 * its own counters: an array from 0, or a hash table (slot -1).
 */
export function placePathFunction(
  cfg: ControlFlowGraph,
  numbering: PathNumbering,
  layout: CounterLayout | null,
): { fn: CountingFunction; path: NonNullable<FunctionMetadata['path']>; fallback: PathFallback | null } {
  const storage: CountingFunction['storage'] =
    numbering.storage.kind === 'array'
      ? {
          kind: 'array',
          offset: layout ? (layout.arraySize += numbering.pathCount) - numbering.pathCount : 0,
        }
      : { kind: 'hash', slot: layout ? layout.hashCount++ : -1 };
  return {
    fn: { ops: simplifyPathOps(numbering), storage },
    path: { storage, pathCount: numbering.pathCount, checksum: numberingChecksum(numbering) },
    fallback: pathFallback(cfg, numbering),
  };
}
