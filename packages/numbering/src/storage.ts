/** Where a function's path counters live at run time. */
export interface StorageDecision {
  /** `array`: a counter array indexed by path number; `hash`: a map from executed path numbers to counts. */
  readonly kind: 'array' | 'hash';
  readonly arrayThreshold: number;
  readonly reason: string;
}

/**
 * An array costs memory for every potential path; a hash table only for executed ones, but each update costs
 * about ten times more (Ball-Larus §5.1). Small functions get an array, large ones a hash table.
 */
export function chooseStorage(pathCount: number, arrayThreshold: number): StorageDecision {
  return pathCount <= arrayThreshold
    ? {
        kind: 'array',
        arrayThreshold,
        reason: `${pathCount} potential paths <= array threshold ${arrayThreshold}`,
      }
    : {
        kind: 'hash',
        arrayThreshold,
        reason: `${pathCount} potential paths > array threshold ${arrayThreshold}`,
      };
}
