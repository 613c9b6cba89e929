/** `1 path`, `2 paths`: a count with its noun, for the report's sentences. */
export function counted(n: number, noun: string, plural = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : plural}`;
}

/** A whole number with its digits in groups of three, `175,889,829`: N can have nine digits or more. */
export function groupedDigits(n: number | string): string {
  return String(n).replace(/\B(?=(\d{3})+$)/g, ',');
}
