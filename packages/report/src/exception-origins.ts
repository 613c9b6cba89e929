import { EdgeKind } from '@pathprof/cfg';
import type { ExceptionOrigins } from '@pathprof/numbering';
import type { FunctionMetadata } from 'babel-plugin-pathprof';

/**
 * Which exceptional edges of a function are explicit `throw`s and which rethrow a pending exception (the
 * end of a `finally` entered by one: a block with no code of its own), for `PathEnds`. Top-level code has no
 * handler that records an escaping exception (see `@pathprof/cfg`), so none of its exception paths can ever be
 * counted: there, a `throw` is treated like any exception and every exception path is left out with them.
 */
export function exceptionOrigins(meta: FunctionMetadata): ExceptionOrigins {
  const edgeCount = meta.edges.length / 3;
  const explicit = new Uint8Array(edgeCount);
  const rethrow = new Uint8Array(edgeCount);
  const topLevel = meta.kind === 'program' || meta.kind === 'namespace';
  for (const e of meta.exceptional) {
    const kind = meta.edges[3 * e + 2] as EdgeKind;
    if (kind === EdgeKind.Throw) explicit[e] = topLevel ? 0 : 1;
    else if (meta.blockRanges[meta.edges[3 * e]] < 0) rethrow[e] = 1;
  }
  return { explicit, rethrow };
}
