import { decodePath, pathDagEdges, type DecodedPath } from '../decode';
import type { PathNumbering } from '../number-paths';
import type { PreferentialNumbering } from './preferential-numbering';

/**
 * How a path that ended with PPP id `pppId` and Ball-Larus id `pathId` is counted: in its slot when it is
 * interesting, else as residual, with the way its PPP id failed (PPP does not control the ids of other paths:
 * they fall below or above the array, into a hole, or onto an interesting path's slot).
 */
export type PathClass =
  | { readonly kind: 'interesting'; readonly slot: number }
  | { readonly kind: 'residual'; readonly reason: 'underflow' | 'overflow' | 'hole' | 'alias' };

/** The runtime's test at a path's end (paper §2.3): a bounds check, then the Ball-Larus id stored in the slot. */
export function classifyPreferentialPath(
  ppp: PreferentialNumbering,
  pppId: number,
  pathId: number,
): PathClass {
  if (pppId < 0) return { kind: 'residual', reason: 'underflow' };
  if (pppId >= ppp.arraySize) return { kind: 'residual', reason: 'overflow' };
  const slotted = ppp.slotPathId[pppId];
  if (slotted === -1) return { kind: 'residual', reason: 'hole' };
  return slotted === pathId ? { kind: 'interesting', slot: pppId } : { kind: 'residual', reason: 'alias' };
}

/** The PPP id any path gets (⊥ weights as 0): what the PPP register holds when the path with `pathId` ends. */
export function preferentialIdOf(
  ppp: PreferentialNumbering,
  numbering: PathNumbering,
  pathId: number,
): number {
  return pathDagEdges(numbering, pathId).reduce((sum, d) => sum + (ppp.weight[d] ?? 0), 0);
}

/** The interesting path counted in `slot`, decoded by its Ball-Larus id. */
export function decodePreferentialSlot(
  ppp: PreferentialNumbering,
  numbering: PathNumbering,
  slot: number,
): DecodedPath {
  const pathId = ppp.slotPathId[slot];
  if (pathId === undefined || pathId < 0)
    throw new RangeError(`slot ${slot} of ${ppp.functionName} counts no path`);
  return decodePath(numbering, pathId);
}
