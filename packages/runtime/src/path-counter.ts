import { HashCounter } from './hash-counter';

/** A path counter of one function in one calling context: counts by path number, or a hash table for many paths. */
export type PathCounter = number[] | HashCounter;

/**
 * Makes the path counter of a function with `pathCount` paths: a hash table above `hashThreshold`. A plain
 * array, not a `Float64Array`: every context makes one (acorn's two parses with paths per context, 120,000),
 * and V8 makes a plain array in its young generation, where a `Float64Array` over 64 bytes gets a buffer of
 * its own outside the heap, two to four times the CPU to make and collect. Counts stay exact (numbers, as
 * in a `Float64Array`).
 */
export function pathCounter(pathCount: number, hashThreshold: number): PathCounter {
  return pathCount > hashThreshold ? new HashCounter() : new Array<number>(pathCount).fill(0);
}
