import { ENTRY_DUMMY, EXIT_DUMMY, REAL_EDGE, type PathNumbering } from '@pathprof/numbering';

/**
 * The Ball-Larus path numbers an activation's traced edge sequence consists of, computed from `Val` alone
 * (not from the placed increments): a path ends at EXIT or on a removed edge (backedge or cut), which also
 * starts the next one at its target. An activation still open when the run ended has no final path.
 */
export function pathsFromTrace(numbering: PathNumbering, edges: readonly number[]): number[] {
  const { dag } = numbering;
  const real = new Map<number, number>();
  const exitDummy = new Map<number, number>();
  const entryDummy = new Map<number, number>();
  for (let d = 0; d < dag.edgeCount; d++) {
    if (dag.kind[d] === REAL_EDGE) real.set(dag.origin[d], d);
    else if (dag.kind[d] === EXIT_DUMMY) exitDummy.set(dag.origin[d], d);
    else if (dag.kind[d] === ENTRY_DUMMY) entryDummy.set(dag.dst[d], d);
  }
  const paths: number[] = [];
  let value = 0;
  for (const e of edges) {
    const removed = exitDummy.get(e);
    if (removed !== undefined) {
      paths.push(value + dag.val[removed]);
      value = dag.val[entryDummy.get(numbering.edgeDst[e])!];
      continue;
    }
    value += dag.val[real.get(e)!];
    if (numbering.edgeDst[e] === numbering.exit) {
      paths.push(value);
      value = 0;
    }
  }
  return paths;
}

/** Counts path numbers into sorted `[path, count]` pairs. */
export function tally(paths: readonly number[]): [number, number][] {
  const counts = new Map<number, number>();
  for (const p of paths) counts.set(p, (counts.get(p) ?? 0) + 1);
  return [...counts].sort((a, b) => a[0] - b[0]);
}
