// `Math` is read once, here: in a `vm` context (a jest test file's realm, where the runtime runs beside the
// code under test) every read of a global goes through the context's interceptor, about 300 ns against 1 ns
// for the multiply; read per hash, it was two thirds of a jest run's CPU time with calling contexts.
const imul = Math.imul;

/** A context value's hash (the runtime's `ValueCounter`): the low bits pick the slot. */
export function valueHash(value: number): number {
  return imul(value, 0x9e3779b1);
}

/**
 * A 32-bit mix of both halves of a path number below 2^53 (the runtime's `HashCounter`: Fibonacci hashing,
 * whose high bits are the best mixed).
 */
export function pathHash(path: number): number {
  return imul((path >>> 0) ^ ((path / 4294967296) | 0), 0x9e3779b1) >>> 16;
}

/**
 * The hash of a push of `<caller, site>` entering `callee` on encoding stack `stack` (`ContextStacks`' table
 * of pushes made): the low bits pick the slot, so the product's high bits are folded onto them.
 */
export function stackKidHash(stack: number, caller: number, site: number, callee: number): number {
  const h = imul(
    imul(stack, 0x9e3779b1) ^ imul(caller, 0x85ebca6b) ^ imul(callee, 0xc2b2ae35) ^ site,
    0x27d4eb2f,
  );
  return h ^ (h >>> 15);
}
