import vm from 'node:vm';

/** What running a script produced: its printed lines, and the uncaught error that ended it, if any. */
export interface ScriptRun {
  readonly output: string[];
  readonly error: string | null;
}

/**
 * Runs a classic script in a fresh context with a `print` global, then lets queued promise jobs and
 * immediates run, so async code finishes. Output values are printed with a stable description.
 */
export async function runScript(
  code: string,
  filename: string,
  globals: Record<string, unknown> = {},
): Promise<ScriptRun> {
  const output: string[] = [];
  const context = vm.createContext({
    ...globals,
    print: (...values: unknown[]) => output.push(values.map(describe).join(' ')),
    setImmediate,
  });
  let error: string | null = null;
  try {
    vm.runInContext(code, context, { filename, timeout: 5000 });
  } catch (e) {
    error = describe(e);
  }
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  return { output, error };
}

/** A description that is the same for equal values in plain and instrumented runs. */
export function describe(value: unknown): string {
  if (
    value instanceof Error ||
    (value && typeof value === 'object' && 'message' in value && 'name' in value)
  ) {
    const e = value as Error;
    return `${e.name}: ${e.message}`;
  }
  if (typeof value === 'function') return `[function ${value.name}]`;
  if (typeof value === 'symbol' || typeof value === 'bigint') return String(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
