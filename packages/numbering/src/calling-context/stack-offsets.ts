import { NumberingError } from '../numbering-error';
import type { ContextFrame } from './context-call-graph';
import { numberedInEdges } from './decode-context';
import type { ContextNumbering } from './number-contexts';

/**
 * How a call is instrumented in hybrid encoding (Sumner et al. §6, Alg. 4):
 * - `explicit` (case a): the offsets of its contexts collide with others of the callee: `id += En` around it;
 * - `guarded` (case c): the caller's contexts are only partly implicit: `if (id) id += En` (nothing when En is 0);
 * - `implicit` (case b): every caller context is implicit and the offsets tell them apart: no code.
 */
export type OffsetEdgeMode = 'explicit' | 'guarded' | 'implicit';

/** A context told apart by its stack offset alone. */
export interface ImplicitContext {
  readonly offset: number;
  readonly context: readonly ContextFrame[];
}

export interface HybridEncoding {
  readonly format: 'pathprof-pcce-hybrid/1';
  /** Per edge: its frame offset, the distance from the caller's frame base to the stack pointer at the call. */
  readonly offsets: readonly number[];
  readonly edgeModes: readonly OffsetEdgeMode[];
  /** Per function: `ImCC`, its implicitly encoded contexts, offsets pairwise distinct. */
  readonly implicitContexts: readonly (readonly ImplicitContext[])[];
}

/** A context as hybrid encoding records it: the current function, the stack offset and the explicit id. */
export interface OffsetEncodedContext {
  readonly function: number;
  readonly offset: number;
  readonly id: number;
}

/**
 * Hybrid encoding: explicit ids only where stack offsets cannot tell contexts apart. Functions in topological
 * order; each in-edge (the dummy edge of an entry first, at offset 0) extends the caller's implicit contexts by
 * its frame offset, and they stay implicit unless an offset collides with one the callee already has. Only for
 * acyclic call graphs with fixed frame sizes: the paper gives no recursive variant, and in JavaScript the
 * offset would have to be a maintained depth counter (see the package README).
 */
export function hybridEncoding(numbering: ContextNumbering, offsets: readonly number[]): HybridEncoding {
  const { edges, functionNames } = numbering;
  if (offsets.length !== edges.length || !offsets.every(Number.isSafeInteger)) {
    throw new NumberingError('invalid-option', `offsets must be ${edges.length} integers, one per edge`);
  }
  if (edges.some((edge) => edge.kind !== 'numbered')) {
    throw new NumberingError(
      'invalid-option',
      'hybrid encoding needs an acyclic call graph without reduced edges',
    );
  }
  const inEdges = numberedInEdges(numbering);
  const implicit: Map<number, ContextFrame[]>[] = functionNames.map(() => new Map());
  const edgeModes = new Array<OffsetEdgeMode>(edges.length).fill('implicit');
  for (const f of callersFirst(numbering)) {
    const own = implicit[f];
    if (numbering.hasDummyEdge[f]) own.set(0, [{ function: f, site: null }]);
    for (const e of inEdges[f]) {
      const { caller, site } = edges[e];
      const extended = [...implicit[caller]].map(([offset, context]): [number, ContextFrame[]] => [
        offset + offsets[e],
        [...context, { function: f, site }],
      ]);
      if (extended.some(([offset]) => own.has(offset))) {
        edgeModes[e] = 'explicit';
        continue;
      }
      for (const [offset, context] of extended) own.set(offset, context);
      edgeModes[e] = implicit[caller].size === numbering.numCC[caller] ? 'implicit' : 'guarded';
    }
  }
  return {
    format: 'pathprof-pcce-hybrid/1',
    offsets: [...offsets],
    edgeModes,
    implicitContexts: implicit.map((map) =>
      [...map].map(([offset, context]) => ({ offset, context })).sort((a, b) => a.offset - b.offset),
    ),
  };
}

/** What the instrumentation computes along a context (root first): its stack offset and explicit id. */
export function hybridEncode(
  numbering: ContextNumbering,
  hybrid: HybridEncoding,
  context: readonly ContextFrame[],
): OffsetEncodedContext {
  let offset = 0;
  let id = 0;
  for (const { function: callee, site } of context.slice(1)) {
    const e = numbering.edges.findIndex((edge) => edge.site === site && edge.callee === callee);
    if (e < 0) throw new RangeError(`no edge from call site ${site} to ${numbering.functionNames[callee]}`);
    const mode = hybrid.edgeModes[e];
    if (mode === 'explicit' || (mode === 'guarded' && id !== 0)) id += numbering.edges[e].addition;
    offset += hybrid.offsets[e];
  }
  return { function: context[context.length - 1].function, offset, id };
}

/**
 * Hybrid decoding (the paper shows it by example): while the id is not 0, step up the in-edge whose range
 * holds it, taking its frame offset off; at id 0 the remaining offset picks the implicit context of the
 * function reached, which is the prefix.
 */
export function hybridDecode(
  numbering: ContextNumbering,
  hybrid: HybridEncoding,
  encoded: OffsetEncodedContext,
): ContextFrame[] {
  const inEdges = numberedInEdges(numbering);
  const suffix: ContextFrame[] = [];
  let { function: fn, offset, id } = encoded;
  while (id !== 0) {
    const e = inEdges[fn].find((k) => {
      const edge = numbering.edges[k];
      return edge.addition <= id && id < edge.addition + numbering.numCC[edge.caller];
    });
    if (e === undefined) throw new RangeError(`id ${id} is not a context of ${numbering.functionNames[fn]}`);
    suffix.unshift({ function: fn, site: numbering.edges[e].site });
    id -= numbering.edges[e].addition;
    offset -= hybrid.offsets[e];
    fn = numbering.edges[e].caller;
  }
  const prefix = hybrid.implicitContexts[fn].find((c) => c.offset === offset);
  if (prefix === undefined) {
    throw new RangeError(`no implicit context of ${numbering.functionNames[fn]} has stack offset ${offset}`);
  }
  return [...prefix.context, ...suffix];
}

/** Functions ordered so every caller comes before its callees (the graph has only numbered edges). */
function callersFirst(numbering: ContextNumbering): number[] {
  const inDegree = numbering.functionNames.map(() => 0);
  for (const edge of numbering.edges) inDegree[edge.callee]++;
  const order = inDegree.flatMap((d, f) => (d === 0 ? [f] : []));
  for (let head = 0; head < order.length; head++) {
    for (const edge of numbering.edges) {
      if (edge.caller === order[head] && --inDegree[edge.callee] === 0) order.push(edge.callee);
    }
  }
  return order;
}
