import vm from 'node:vm';

/** What one call of a program's entry produced: its (awaited) value, or the error that escaped it. */
export type RunResult = { value: unknown } | { error: string };

export interface RunOptions {
  /** Globals to install in the fresh context besides `module`, e.g. the tracer instrumented code calls. */
  globals?: Record<string, unknown>;
  /** Bound on the whole run, microtasks included (default 2000 ms). */
  timeoutMs?: number;
}

/** Starts the `error` of a run that did not finish in time. */
export const TIMEOUT = 'Timeout';

const OUTCOME = '__pathprofOutcome';
/** The global a run's arguments are in when its program's script calls the entry. */
const ARGS = '__pathprofArgs';

/** Calls the entry and leaves its outcome, awaited if it is a promise, in a global of the context. */
const CALL = `(function (entry, args) {
  const settle = (outcome) => { globalThis.${OUTCOME} = outcome; };
  try {
    const result = entry(...args);
    if (result !== null && typeof result === 'object' && typeof result.then === 'function') {
      result.then((value) => settle({ value }), (error) => settle({ error }));
    } else {
      settle({ value: result });
    }
  } catch (error) {
    settle({ error });
  }
})`;

/**
 * Runs the CommonJS `source` in a fresh context and calls `module.exports(...args)`, awaiting a returned
 * promise. Like Node, it wraps the source in a function, so top-level declarations are locals rather than
 * properties of the context's global object (which would also make every call of them slow). The context runs
 * its own microtasks after the evaluation, within the timeout, so a program that awaits only promises (never
 * timers) has settled when this returns, and a runaway one is stopped. Arguments are passed as source
 * literals, so each run gets its own copies, made of the context's own Array and Object: a script of their
 * own, run first, leaves them in a global of the context, so the program's script is the same for every input
 * and compiled once (`compiledProgram`).
 */
export function runPlain(source: string, args: readonly unknown[], options: RunOptions = {}): RunResult {
  const timeout = options.timeoutMs ?? 2000;
  const context = vm.createContext(
    { ...options.globals, module: { exports: {} } },
    { microtaskMode: 'afterEvaluate' },
  );
  const passArgs = new vm.Script(`globalThis.${ARGS} = [${args.map(toLiteral).join(', ')}];`);
  try {
    passArgs.runInContext(context);
    compiledProgram(source).runInContext(context, { timeout });
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
      return { error: `${TIMEOUT}: the run took more than ${timeout} ms` };
    }
    return { error: describeError(error) };
  }
  const outcome = (context as Record<string, unknown>)[OUTCOME] as
    { value?: unknown; error?: unknown } | undefined;
  if (outcome === undefined) return { error: 'Pending: the promise the entry returned never settled' };
  return 'error' in outcome ? { error: describeError(outcome.error) } : { value: outcome.value };
}

/**
 * The programs compiled last, by source: the property tests run a program and its instrumented copies on each
 * input in turn (plain then traced, path then edge), so a few suffice.
 */
const compiled = new Map<string, vm.Script>();
const COMPILED_KEPT = 4;

/**
 * The script that runs `source` and calls its entry on the arguments in the context's global `ARGS`: the same
 * script for every input, so V8 compiles the program (and each function the runs call) once for them all; a
 * script is not bound to a context.
 */
function compiledProgram(source: string): vm.Script {
  let script = compiled.get(source);
  if (script) return script;
  // The wrapper opens on the source's first line, so line numbers in stack traces stay those of the source.
  const run = [
    `(function (module, exports) {${source}`,
    '})(module, module.exports);',
    `${CALL}(module.exports, globalThis.${ARGS});`,
  ].join('\n');
  script = new vm.Script(run, { filename: 'program.js' });
  if (compiled.size === COMPILED_KEPT) compiled.delete(compiled.keys().next().value!);
  compiled.set(source, script);
  return script;
}

/** `name: message` of an error; a thrown non-error is shown as JSON (objects) or as a string. */
export function describeError(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'message' in error) {
    const name = 'name' in error ? String(error.name) : 'Error';
    return `${name}: ${String(error.message)}`;
  }
  return `thrown ${typeof error === 'object' ? JSON.stringify(error) : String(error)}`;
}

function toLiteral(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(toLiteral).join(', ')}]`;
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const entries = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${toLiteral(v)}`);
    return `({ ${entries.join(', ')} })`;
  }
  throw new TypeError(`runPlain: argument ${String(value)} is not plain data`);
}
