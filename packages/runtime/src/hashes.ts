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

/** The hash of an encoding-stack entry `<caller, site>` pushed entering `callee` (`ContextNode`'s kids). */
export function stackEntryHash(caller: number, site: number, callee: number): number {
  return imul(caller, 0x9e3779b1) ^ imul(callee, 0x85ebca6b) ^ site;
}
