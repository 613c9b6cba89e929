import type { ControlFlowGraph } from '@pathprof/cfg';
import type { PathNumbering } from '@pathprof/numbering';

/**
 * A function `path` mode could not profile with a plain counter array: it counts into a hash table (more
 * than `hashThreshold` paths), or it has more paths than `maxPaths` and edges were cut like loop backedges,
 * so a path through a cut edge is counted as two. Counts stay exact either way; the plugin lists these in
 * Babel's `result.metadata.pathprof.fallbacks` and warns about cuts, which change what a path means.
 */
export interface PathFallback {
  readonly function: string;
  readonly line: number;
  readonly pathCount: number;
  readonly storage: 'array' | 'hash';
  /** How many edges were cut (0: none). */
  readonly cutEdges: number;
}

export function pathFallback(graph: ControlFlowGraph, numbering: PathNumbering): PathFallback | null {
  if (!numbering.overflow && numbering.storage.kind === 'array') return null;
  return {
    function: graph.name,
    line: graph.range?.start.line ?? 0,
    pathCount: numbering.pathCount,
    storage: numbering.storage.kind,
    cutEdges: numbering.overflow?.cuts.length ?? 0,
  };
}

/** A default value that is not a path decision (see `@pathprof/cfg`, "Default values"), and why. */
export interface OpaqueDefaultNote {
  readonly function: string;
  readonly line: number;
  readonly column: number;
  readonly reason: string;
}

export function opaqueDefaultNotes(graphs: readonly ControlFlowGraph[]): OpaqueDefaultNote[] {
  return graphs.flatMap((g) =>
    g.opaqueDefaults.map((d) => ({
      function: g.name,
      line: d.node.loc?.start.line ?? 0,
      column: d.node.loc?.start.column ?? 0,
      reason: d.reason,
    })),
  );
}

/** The build-time warning for a file whose functions had edges cut; null when none had. */
export function cutWarning(key: string, maxPaths: number, fallbacks: readonly PathFallback[]): string | null {
  const cut = fallbacks.filter((f) => f.cutEdges > 0);
  if (cut.length === 0) return null;
  const list = cut.map((f) => `${f.function} (line ${f.line}): ${f.cutEdges} edges cut`).join('; ');
  return `pathprof: ${key}: more than ${maxPaths} paths, paths split at cut edges (counts stay exact): ${list}`;
}
