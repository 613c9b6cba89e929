import { HashCounter } from './hash-counter';

/** A path counter of one function in one calling context: an array, or a hash table for many paths. */
export type PathCounter = Float64Array | HashCounter;

/** Makes the path counter of a function with `pathCount` paths: a hash table above `hashThreshold`. */
export function pathCounter(pathCount: number, hashThreshold: number): PathCounter {
  return pathCount > hashThreshold ? new HashCounter() : new Float64Array(pathCount);
}
