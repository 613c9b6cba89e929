/**
 * Copies numbers into a plain array, so results serialise as JSON arrays (a typed array serialises as an object
 * keyed by index). A counted loop: `Array.from` on a typed array is several times slower in V8.
 */
export function plainArray(values: ArrayLike<number>, length = values.length): number[] {
  const array = new Array<number>(length);
  for (let i = 0; i < length; i++) array[i] = values[i];
  return array;
}
