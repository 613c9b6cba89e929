/**
 * `[key, count]` pairs read from a profile without an array per pair: `values` holds key, count, key, count, …
 * (see `readPackedProfile`). A profile of millions of paths allocated a small array for each, most of the
 * time it took to read.
 */
export interface PackedPairs {
  readonly values: Float64Array;
}

/** Pairs as a profile holds them, or packed. */
export type PairList = readonly (readonly [number, number])[] | PackedPairs;

export function isPacked(pairs: PairList): pairs is PackedPairs {
  return !Array.isArray(pairs);
}
