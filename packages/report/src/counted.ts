/** `1 path`, `2 paths`: a count with its noun, for the report's sentences. */
export function counted(n: number, noun: string, plural = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : plural}`;
}
