import { ENTRY_DUMMY, EXIT_DUMMY, REAL_EDGE } from './dag';
import { PathDecoder } from './decode';
import type { PathNumbering } from './number-paths';

/** A function's path counts as the runtime keeps them: a counter array, or a map from path number to count. */
export type PathCounts = ReadonlyMap<number, number> | ArrayLike<number>;

/**
 * How often each original edge ran. A path profile determines its edge profile exactly: every traversal of a
 * removed edge ends exactly one path (through that edge's own dummy `v→EXIT`), and every other edge lies on the
 * paths that took it.
 */
export function edgeCountsFromPaths(numbering: PathNumbering, counts: PathCounts): number[] {
  const edgeCounts = new Array<number>(numbering.edgeCount).fill(0);
  const { kind, origin } = numbering.dag;
  forEachPath(numbering, counts, (dagEdges, length, count) => {
    for (let i = 0; i < length; i++)
      if (kind[dagEdges[i]] !== ENTRY_DUMMY) edgeCounts[origin[dagEdges[i]]] += count;
  });
  return edgeCounts;
}

/**
 * How often each block ran: each path covers its blocks once; a path starting after a removed edge `v→w`
 * starts at `w` (ENTRY did not run), one ending on a removed edge stops at `v` (EXIT did not run).
 */
export function blockCountsFromPaths(numbering: PathNumbering, counts: PathCounts): number[] {
  const blockCounts = new Array<number>(numbering.blockCount).fill(0);
  const { kind, dst } = numbering.dag;
  forEachPath(numbering, counts, (dagEdges, length, count) => {
    if (kind[dagEdges[0]] === REAL_EDGE) blockCounts[numbering.entry] += count;
    for (let i = 0; i < length; i++)
      if (kind[dagEdges[i]] !== EXIT_DUMMY) blockCounts[dst[dagEdges[i]]] += count;
  });
  return blockCounts;
}

/** Each counted path's DAG edges, `dagEdges[0 .. length)` (a buffer the next path overwrites). */
function forEachPath(
  numbering: PathNumbering,
  counts: PathCounts,
  visit: (dagEdges: Int32Array, length: number, count: number) => void,
): void {
  const decoder = PathDecoder.of(numbering);
  const entries: Iterable<readonly [number, number]> = isArrayLike(counts)
    ? arrayEntries(counts)
    : counts.entries();
  for (const [pathNumber, count] of entries)
    if (count !== 0) visit(decoder.dagEdges, decoder.decode(pathNumber), count);
}

function isArrayLike(counts: PathCounts): counts is ArrayLike<number> {
  return typeof (counts as ArrayLike<number>).length === 'number';
}

function* arrayEntries(counts: ArrayLike<number>): Generator<readonly [number, number]> {
  for (let i = 0; i < counts.length; i++) yield [i, counts[i]];
}
