import type { ContextFrame } from './context-call-graph';
import type { EncodedContext } from './context-encoder';
import type { ContextNumbering } from './number-contexts';

/**
 * The calling context an encoding stands for, root first (Alg. 2 and `DecodeStack` of Alg. 3): from the
 * current function, step up the numbered in-edge whose range `[En, En + numCC(caller))` holds the id, until
 * the id is 0 at a function with a dummy edge, where the sub-path starts; then the top stack entry gives the
 * id and the call site (hence the function) of the sub-path below, and so on down the stack.
 */
export function decodeContext(numbering: ContextNumbering, encoded: EncodedContext): ContextFrame[] {
  const inEdges = numberedInEdges(numbering);
  const entries = encoded.stack.flatMap((run) => Array.from({ length: run.count }, () => run));
  const context: ContextFrame[] = [];
  let fn = encoded.function;
  let id = encoded.id;
  for (;;) {
    const subPath = decodeSubPath(numbering, inEdges, fn, id);
    const below = entries.pop();
    if (below === undefined) return [...subPath, ...context];
    subPath[0] = { function: subPath[0].function, site: below.site };
    context.unshift(...subPath);
    fn = numbering.siteCaller[below.site];
    id = below.id;
    if (fn === undefined) throw new RangeError(`the encoding stack names unknown call site ${below.site}`);
  }
}

/** The acyclic sub-path ending in `fn` with id `id`, root first; its first frame's site is null. */
function decodeSubPath(
  numbering: ContextNumbering,
  inEdges: readonly (readonly number[])[],
  fn: number,
  id: number,
): ContextFrame[] {
  if (!Number.isInteger(id) || id < 0 || id >= numbering.numCC[fn]) {
    throw new RangeError(
      `id ${id} is not a context of ${numbering.functionNames[fn]} (it has ${numbering.numCC[fn]})`,
    );
  }
  const frames: ContextFrame[] = [];
  for (;;) {
    if (id === 0 && numbering.hasDummyEdge[fn]) {
      frames.unshift({ function: fn, site: null });
      return frames;
    }
    const e = inEdges[fn].find((k) => {
      const edge = numbering.edges[k];
      return edge.addition <= id && id < edge.addition + numbering.numCC[edge.caller];
    });
    if (e === undefined)
      throw new Error(`internal: no in-edge of ${numbering.functionNames[fn]} holds id ${id}`);
    const edge = numbering.edges[e];
    frames.unshift({ function: fn, site: edge.site });
    id -= edge.addition;
    fn = edge.caller;
  }
}

const inEdgeCache = new WeakMap<ContextNumbering, number[][]>();

/** Per function, its numbered in-edges; built once per numbering (plain data, maybe parsed from JSON). */
export function numberedInEdges(numbering: ContextNumbering): number[][] {
  const cached = inEdgeCache.get(numbering);
  if (cached !== undefined) return cached;
  const inEdges: number[][] = numbering.functionNames.map(() => []);
  numbering.edges.forEach((edge, e) => {
    if (edge.kind === 'numbered') inEdges[edge.callee].push(e);
  });
  inEdgeCache.set(numbering, inEdges);
  return inEdges;
}
