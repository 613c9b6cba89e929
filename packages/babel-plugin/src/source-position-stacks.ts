import { originalPositionFor, TraceMap, type SourceMapInput } from '@jridgewell/trace-mapping';

/**
 * `Error.prepareStackTrace` for `pathprof <command>`'s hooks: each frame as V8 writes it (`String(callSite)`),
 * with only its position replaced by the source's where `mapOf` has a map of its file (a file the hooks
 * compiled). The same files run without pathprof give the same text. source-map-support, which @babel/register
 * installs, writes every frame its own way (`at processImmediate` for V8's `at process.processImmediate`) and
 * names a frame after the identifier at its caller's call site (`at fp` for `at plugin`: fastify-plugin names
 * anonymous plugins from its stack). The frames of `hookFiles` (the require hook's own wrappers around Node's
 * loader, pirates': `at Object.newLoader [as .js]`), which the files run without pathprof do not have, are left out.
 */
export function sourcePositionStacks(
  mapOf: (file: string) => SourceMapInput | undefined,
  hookFiles: readonly string[] = [],
): (error: unknown, frames: NodeJS.CallSite[]) => string {
  const hooks = new Set(hookFiles);
  // Maps are parsed once; a file without one is asked again (an ES module's map may arrive after a stack).
  const traces = new Map<string, TraceMap>();
  const traceOf = (file: string): TraceMap | undefined => {
    let trace = traces.get(file);
    if (trace === undefined) {
      const map = mapOf(file);
      if (map === undefined) return undefined;
      traces.set(file, (trace = new TraceMap(map)));
    }
    return trace;
  };
  return (error, frames) =>
    `${header(error)}${frames
      .filter((frame) => !hooks.has(frame.getFileName() ?? ''))
      .map((frame) => `\n    at ${frameText(frame, traceOf)}`)
      .join('')}`;
}

/** Node's first line of a stack: `TypeError [ERR_INVALID_ARG_TYPE]: …` for Node's own errors. */
function header(error: unknown): string {
  try {
    const { name, code, message } = error as { name: unknown; code: unknown; message: unknown };
    if (isNodeError(error)) return `${String(name)} [${String(code)}]: ${String(message)}`;
    return Error.prototype.toString.call(error);
  } catch {
    return '<error>';
  }
}

/** Node marks its own errors with a symbol it keeps to itself, on their classes' prototypes. */
function isNodeError(error: unknown): boolean {
  for (let o = error; typeof o === 'object' && o !== null; o = Object.getPrototypeOf(o)) {
    if (Object.getOwnPropertySymbols(o).some((s) => s.description === 'kIsNodeError')) return true;
  }
  return false;
}

function frameText(frame: NodeJS.CallSite, traceOf: (file: string) => TraceMap | undefined): string {
  const text = String(frame);
  const file = frame.getFileName();
  const line = frame.getLineNumber();
  const column = frame.getColumnNumber();
  if (!file || line === null || column === null || frame.isEval()) return text;
  const trace = traceOf(file);
  if (trace === undefined) return text;
  const original = originalPositionFor(trace, { line, column: column - 1 });
  if (original.line === null || original.source === null) return text;
  const where = `${file}:${line}:${column}`;
  const at = text.lastIndexOf(where);
  if (at < 0) return text;
  // A file compiled from another (an input source map: a .ts compiled earlier) shows that one, as the maps say.
  const source = `${original.source}:${original.line}:${original.column + 1}`;
  return `${text.slice(0, at)}${source}${text.slice(at + where.length)}`;
}
