import { NumberingError } from '../numbering-error';
import type { ContextCallGraph } from './context-call-graph';

/** V8 keeps integers below 2^30 unboxed; context ids default to that range. */
export const DEFAULT_CONTEXT_BUDGET = 2 ** 30;

export interface ContextNumberingOptions {
  /** The most contexts a function may have (ids are `0 .. numCC-1`); above it cold edges are reduced. */
  readonly budget?: number;
  /** Per edge, how often it runs (a profile): selective reduction turns the coldest edges into dummy edges. */
  readonly edgeWeights?: readonly number[];
}

/**
 * How a call through an edge updates the context id:
 * - `numbered`: `id += addition` before the call, `id -= addition` after (nothing when the addition is 0);
 * - `back-edge` (recursion) and `reduced` (selective reduction): `push(<id, site>); id = 0` before, and
 *   `id = pop().id` after: the callee starts a new acyclic sub-path, decoded from its dummy edge.
 * A call to a target the site does not list (unknown, indirect, unprofiled) does the same as a back edge.
 */
export type ContextEdgeKind = 'numbered' | 'back-edge' | 'reduced';

export interface EncodedCallEdge {
  readonly site: number;
  readonly caller: number;
  readonly callee: number;
  readonly kind: ContextEdgeKind;
  /** `En(e)` for a numbered edge; 0 otherwise. */
  readonly addition: number;
}

/** PCCE's static artefacts: everything instrumentation and decoding need; plain data, JSON-serialisable. */
export interface ContextNumbering {
  readonly format: 'pathprof-pcce/1';
  readonly functionNames: readonly string[];
  /** The given entries, then the functions no entry reaches. */
  readonly entries: readonly number[];
  /** Per site id: the function containing it. */
  readonly siteCaller: Readonly<Record<number, number>>;
  readonly edges: readonly EncodedCallEdge[];
  /** Per function: how many contexts it has in the transformed graph; its ids are `0 .. numCC-1`. */
  readonly numCC: readonly number[];
  /** Per function: it has a dummy edge (an entry, a back-edge or reduced-edge target), so id 0 starts a sub-path. */
  readonly hasDummyEdge: readonly boolean[];
  readonly budget: number;
  /** The largest id any context needs. */
  readonly maxId: number;
}

/**
 * Precise calling context encoding (Sumner, Zheng, Weeratunge & Zhang, ICSE 2010): back edges of a DFS from
 * the entries (Alg. 3) and, when a function has more contexts than the budget, its coldest in-edges (§7,
 * selective reduction) become dummy edges; then `numCC` in topological order (Alg. 1, exact with BigInt) and
 * the additions: per callee, the dummy edge first (range `[0, 1)`), then each numbered in-edge the next
 * `numCC(caller)` ids.
 */
export function numberContexts(
  graph: ContextCallGraph,
  options: ContextNumberingOptions = {},
): ContextNumbering {
  const budget = options.budget ?? DEFAULT_CONTEXT_BUDGET;
  if (!Number.isSafeInteger(budget) || budget < 1) {
    throw new NumberingError(
      'invalid-option',
      `the context budget must be a positive safe integer, got ${budget}`,
    );
  }
  const siteCaller = checkCallGraph(graph, options.edgeWeights);
  const functionCount = graph.functionNames.length;
  const callerOf = (e: number): number => siteCaller.get(graph.edges[e].site) as number;
  const outEdges: number[][] = Array.from({ length: functionCount }, () => []);
  const inEdges: number[][] = Array.from({ length: functionCount }, () => []);
  graph.edges.forEach((edge, e) => {
    outEdges[callerOf(e)].push(e);
    inEdges[edge.callee].push(e);
  });

  const kind = new Array<ContextEdgeKind>(graph.edges.length).fill('numbered');
  const hasDummyEdge = new Array<boolean>(functionCount).fill(false);
  const entries = [...graph.entries];
  const order: number[] = [];
  const state = new Uint8Array(functionCount); // 0 unseen, 1 on the DFS stack, 2 finished
  const visit = (root: number): void => {
    hasDummyEdge[root] = true;
    if (state[root] !== 0) return;
    const stack: [number, number][] = [[root, 0]];
    state[root] = 1;
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      const [f, i] = top;
      if (i === outEdges[f].length) {
        state[f] = 2;
        order.push(f);
        stack.pop();
        continue;
      }
      top[1]++;
      const e = outEdges[f][i];
      const callee = graph.edges[e].callee;
      if (state[callee] === 1) {
        kind[e] = 'back-edge';
        hasDummyEdge[callee] = true;
      } else if (state[callee] === 0) {
        state[callee] = 1;
        stack.push([callee, 0]);
      }
    }
  };
  for (const entry of graph.entries) visit(entry);
  for (let f = 0; f < functionCount; f++) {
    if (state[f] === 0) {
      entries.push(f);
      visit(f);
    }
  }
  order.reverse();

  const count = new Array<bigint>(functionCount).fill(0n);
  const limit = BigInt(budget);
  for (const f of order) {
    const numbered = inEdges[f].filter((e) => kind[e] === 'numbered');
    const total = (): bigint =>
      numbered.reduce((sum, e) => sum + count[callerOf(e)], hasDummyEdge[f] ? 1n : 0n);
    if (total() > limit) {
      // Coldest first; among equally cold edges, the later-listed.
      const weight = (e: number): number => options.edgeWeights?.[e] ?? 0;
      const candidates = [...numbered].sort((a, b) => weight(a) - weight(b) || b - a);
      for (const e of candidates) {
        if (total() <= limit) break;
        kind[e] = 'reduced';
        hasDummyEdge[f] = true;
        numbered.splice(numbered.indexOf(e), 1);
      }
    }
    count[f] = total();
  }

  const addition = new Array<number>(graph.edges.length).fill(0);
  for (let f = 0; f < functionCount; f++) {
    let s = hasDummyEdge[f] ? 1 : 0;
    for (const e of inEdges[f]) {
      if (kind[e] !== 'numbered') continue;
      addition[e] = s;
      s += Number(count[callerOf(e)]);
    }
  }
  const numCC = count.map(Number);
  return {
    format: 'pathprof-pcce/1',
    functionNames: [...graph.functionNames],
    entries,
    siteCaller: Object.fromEntries(siteCaller),
    edges: graph.edges.map((edge, e) => ({
      ...edge,
      caller: callerOf(e),
      kind: kind[e],
      addition: addition[e],
    })),
    numCC,
    hasDummyEdge,
    budget,
    maxId: Math.max(0, ...numCC) - 1,
  };
}

function checkCallGraph(
  graph: ContextCallGraph,
  edgeWeights: readonly number[] | undefined,
): Map<number, number> {
  const functionCount = graph.functionNames.length;
  const fail = (message: string): never => {
    throw new NumberingError('invalid-graph', message);
  };
  const isFunction = (f: number): boolean => Number.isInteger(f) && f >= 0 && f < functionCount;
  if (graph.entries.length === 0 && functionCount > 0) fail('a call graph needs at least one entry function');
  for (const entry of graph.entries) if (!isFunction(entry)) fail(`entry ${entry} is not a function`);
  const siteCaller = new Map<number, number>();
  for (const { site, caller } of graph.sites) {
    if (!isFunction(caller)) fail(`call site ${site}: caller ${caller} is not a function`);
    if (siteCaller.has(site)) fail(`call site ${site} is listed twice`);
    siteCaller.set(site, caller);
  }
  const seen = new Set<string>();
  for (const { site, callee } of graph.edges) {
    if (!siteCaller.has(site)) fail(`an edge names call site ${site}, which is not listed`);
    if (!isFunction(callee)) fail(`call site ${site}: callee ${callee} is not a function`);
    if (seen.has(`${site}:${callee}`))
      fail(`call site ${site} lists callee ${graph.functionNames[callee]} twice`);
    seen.add(`${site}:${callee}`);
  }
  if (edgeWeights !== undefined && edgeWeights.length !== graph.edges.length) {
    fail(`edgeWeights has ${edgeWeights.length} entries for ${graph.edges.length} edges`);
  }
  return siteCaller;
}
