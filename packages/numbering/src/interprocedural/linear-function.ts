/**
 * A linear function `<a, b>` = `λx. a·x + b` over exact integers (Melski & Reps §3.3). ψ on vertices and ρ on
 * edges are such pairs: `x` is the number of valid completions of the current path once it leaves the running
 * procedure's exit, so one function stands for a different Ball-Larus numbering in every calling context.
 * Both coefficients stay non-negative for ψ and ρ; increments after chord placement may be negative.
 */
export interface LinearFunction {
  readonly a: bigint;
  readonly b: bigint;
}

export const ZERO: LinearFunction = { a: 0n, b: 0n };
/** ψ of a procedure's exit: the completions from `Exit_P` are exactly its argument. */
export const IDENTITY: LinearFunction = { a: 1n, b: 0n };
/** ψ of `GExit_P`: one completion, `GExit_P → Exit_global`, whatever the context. */
export const ONE: LinearFunction = { a: 0n, b: 1n };

/** `f ∘ g`: `<a, b> ∘ <c, d> = <a·c, a·d + b>`. */
export function compose(f: LinearFunction, g: LinearFunction): LinearFunction {
  return { a: f.a * g.a, b: f.a * g.b + f.b };
}

export function add(f: LinearFunction, g: LinearFunction): LinearFunction {
  return { a: f.a + g.a, b: f.b + g.b };
}

export function subtract(f: LinearFunction, g: LinearFunction): LinearFunction {
  return { a: f.a - g.a, b: f.b - g.b };
}

export function evaluate(f: LinearFunction, x: bigint): bigint {
  return f.a * x + f.b;
}

export function isZero(f: LinearFunction): boolean {
  return f.a === 0n && f.b === 0n;
}

/** `<a,b>` as the paper prints it, for messages and tests. */
export function formatLinear(f: LinearFunction): string {
  return `<${f.a},${f.b}>`;
}
