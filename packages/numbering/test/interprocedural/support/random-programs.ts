import type { CallSite, FlowGraph, HybridPolicy, Procedure, Program } from '@pathprof/numbering';
import type { Random } from '@pathprof/testkit';
import { structuredGraph, unstructuredGraph } from '../../support/random-graphs';

/**
 * A random program: up to four procedures in two files, each a random graph (unstructured with exceptions, or
 * shaped like a JavaScript function) into which call sites are spliced by splitting normal edges
 * `u → x` into `u → call → returnSite → x`. Callees are random (recursion and mutual recursion included) or
 * unknown; a call vertex may throw to where its predecessor throws, or out of the procedure. Some procedures
 * have edges split as a path budget would (`splitEdges`).
 */
export function randomProgram(rng: Random): Program {
  const count = rng.range(1, 4);
  const procedures: Procedure[] = [];
  let nextSite = 0;
  for (let p = 0; p < count; p++) {
    const unstructured = rng.chance(0.5);
    const base = unstructured ? unstructuredGraph(rng, 9, true) : structuredGraph(rng, 16);
    const spliced = spliceCalls(rng, base, rng.int(4), unstructured);
    const splitEdges = rng.chance(0.3) ? randomSplitEdges(rng, spliced.graph, spliced.sites) : [];
    procedures.push({
      name: `p${p}`,
      file: rng.chance(0.5) ? 'a.js' : 'b.js',
      graph: spliced.graph,
      ...(splitEdges.length ? { splitEdges } : {}),
      callSites: spliced.sites.map(({ call, returnSite }) => ({
        site: nextSite++,
        call,
        returnSite,
        callee: rng.chance(0.15) ? null : rng.int(count),
      })),
    });
  }
  const roots = [0];
  for (let p = 1; p < count; p++) if (rng.chance(0.3)) roots.push(p);
  return { procedures, roots };
}

/**
 * Edges cut as a path budget would cut them (`Procedure.splitEdges`): a few normal edges, never into the exit
 * or into or out of a call vertex.
 */
function randomSplitEdges(
  rng: Random,
  graph: FlowGraph,
  sites: readonly Pick<CallSite, 'call' | 'returnSite'>[],
): number[] {
  const calls = new Set(sites.map((s) => s.call));
  const splittable: number[] = [];
  for (let e = 0; e < graph.edgeCount; e++) {
    const touchesCall = calls.has(graph.edgeSrc[e]) || calls.has(graph.edgeDst[e]);
    if (graph.edgeExceptional[e] === 0 && graph.edgeDst[e] !== graph.exit && !touchesCall) splittable.push(e);
  }
  return splittable.filter(() => rng.chance(0.25));
}

/** A random hybrid policy: none most of the time, else some mix of the paper's strategies. */
export function randomPolicy(rng: Random, program: Program): HybridPolicy {
  if (rng.chance(0.5)) return {};
  const sites = program.procedures
    .flatMap((p) => p.callSites.map((s) => s.site))
    .filter(() => rng.chance(0.3));
  return { crossFile: rng.chance(0.3), leavesOnly: rng.chance(0.3), sites };
}

function spliceCalls(
  rng: Random,
  graph: FlowGraph,
  calls: number,
  handlersAreForward: boolean,
): { graph: FlowGraph; sites: Pick<CallSite, 'call' | 'returnSite'>[] } {
  const src = Array.from(graph.edgeSrc);
  const dst = Array.from(graph.edgeDst);
  const exceptional = Array.from(graph.edgeExceptional);
  let blockCount = graph.blockCount;
  const sites: Pick<CallSite, 'call' | 'returnSite'>[] = [];
  for (let k = 0; k < calls; k++) {
    // Any normal edge but a call edge itself.
    const normal = src
      .map((_, e) => e)
      .filter((e) => exceptional[e] === 0 && !sites.some((s) => s.call === src[e]));
    // Half the time inside a handler's reach, so exceptions out of calls land in handlers.
    const guarded = normal.filter((n) =>
      exceptional.some((x, t) => x === 1 && src[t] === src[n] && dst[t] !== graph.exit),
    );
    const e = guarded.length && rng.chance(0.5) ? rng.pick(guarded) : rng.pick(normal);
    const call = blockCount++;
    const returnSite = blockCount++;
    const target = dst[e];
    dst[e] = call;
    src.push(call, returnSite);
    dst.push(returnSite, target);
    exceptional.push(0, 0);
    // The call throws where its predecessor throws: a handler of an unstructured graph never reaches back to
    // its throwers; in a structured one, only a handler that cannot reach the call keeps the edge forward.
    const handler = exceptional.findIndex((x, t) => x === 1 && src[t] === src[e]);
    const shared =
      handler >= 0 && (handlersAreForward || !reaches(src, dst, dst[handler], src[e])) ? dst[handler] : -1;
    if (rng.chance(0.75)) {
      src.push(call);
      dst.push(shared >= 0 ? shared : graph.exit);
      exceptional.push(1);
    }
    sites.push({ call, returnSite });
  }
  return {
    graph: {
      blockCount,
      entry: graph.entry,
      exit: graph.exit,
      edgeCount: src.length,
      edgeSrc: Int32Array.from(src),
      edgeDst: Int32Array.from(dst),
      edgeExceptional: Uint8Array.from(exceptional),
    },
    sites,
  };
}

/** Whether `to` can be reached from `from` along the edges `src[i] → dst[i]`. */
function reaches(src: readonly number[], dst: readonly number[], from: number, to: number): boolean {
  const seen = new Set([from]);
  const queue = [from];
  while (queue.length) {
    const v = queue.pop()!;
    if (v === to) return true;
    src.forEach((s, i) => {
      if (s === v && !seen.has(dst[i])) {
        seen.add(dst[i]);
        queue.push(dst[i]);
      }
    });
  }
  return false;
}
