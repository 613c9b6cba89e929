import { decodeInterproceduralPath } from './decode-path';
import type { InterproceduralNumbering } from './number-program';

/** How often each original edge and block of one procedure ran, as `edgeCountsFromPaths` gives them per function. */
export interface ProcedureCounts {
  readonly edgeCounts: number[];
  readonly blockCounts: number[];
}

/**
 * Each procedure's edge and block counts, from a file's interprocedural path counts (global number → count),
 * indexed as the procedures' original graphs. Every step of a path's active part ran once per traversal (a
 * context prefix repeats how the active part was reached, which earlier paths counted), and the active parts of
 * the paths taken partition the execution: a back edge (or split edge) is counted by the `loop-end` that ends
 * one path and its target entered by the restart that starts the next; a crossed call's callee entry by the
 * call, its `call → returnSite` edge and return site by the return. An exception out of a crossed call is no
 * step of any path (the callee's `throw-end` ends the path; a handler in the caller restarts the next): the
 * call block's exceptional edge is counted as the calls that did not return, entries less returns, exact when
 * every path that entered the call ended (a path left open when the process stopped makes it an upper bound).
 */
export function procedureCountsFromPaths(
  numbering: InterproceduralNumbering,
  counts: ReadonlyMap<number, number>,
): ProcedureCounts[] {
  const result = numbering.procedures.map(({ graph }) => ({
    edgeCounts: new Array<number>(graph.edgeCount).fill(0),
    blockCounts: new Array<number>(graph.blockCount).fill(0),
  }));
  // Per procedure, per call site: its `call → returnSite` edge (crossed sites only; -1 otherwise).
  const callEdges = numbering.procedures.map(({ dag, callSites }) => {
    const edges = new Int32Array(callSites.length).fill(-1);
    for (let e = 0; e < dag.edgeCount; e++)
      if (dag.kind[e] === 'call') edges[dag.callSite[e]] = dag.origin[e];
    return edges;
  });
  const enterBlock = (procedure: number, block: number, count: number) =>
    (result[procedure].blockCounts[block] += count);
  const takeEdge = (procedure: number, edge: number, count: number) => {
    result[procedure].edgeCounts[edge] += count;
    enterBlock(procedure, numbering.procedures[procedure].graph.edgeDst[edge], count);
  };
  for (const [number, count] of counts) {
    if (count === 0) continue;
    const { path, contextLength } = decodeInterproceduralPath(numbering, BigInt(number));
    const entry = numbering.entryPoints[path.entryPoint];
    // The path's first block: the entry it starts at, or the block its last restart enters.
    if (contextLength === 0)
      enterBlock(entry.procedure, numbering.procedures[entry.procedure].graph.entry, count);
    for (let i = Math.max(0, contextLength - 1); i < path.steps.length; i++) {
      const step = path.steps[i];
      const { dag, callSites } = numbering.procedures[step.procedure];
      if (step.kind === 'call') {
        const callee = callSites[step.site].callee!;
        enterBlock(callee, numbering.procedures[callee].graph.entry, count);
      } else if (step.kind === 'return') {
        if (step.to !== null) takeEdge(step.to.procedure, callEdges[step.to.procedure][step.to.site], count);
      } else {
        const kind = dag.kind[step.edge];
        if (kind === 'restart') enterBlock(step.procedure, dag.dst[step.edge], count);
        // A loop-end's back edge enters its target when the next path restarts there.
        else if (kind === 'loop-end') result[step.procedure].edgeCounts[dag.origin[step.edge]] += count;
        else takeEdge(step.procedure, dag.origin[step.edge], count);
      }
    }
  }
  numbering.procedures.forEach(({ graph, callSites }, p) => {
    const { edgeCounts, blockCounts } = result[p];
    callSites.forEach((site, s) => {
      const callEdge = callEdges[p][s];
      if (callEdge < 0) return;
      // A block has at most one exceptional edge: to its innermost handler, or to the exit.
      const thrown = graph.edgeSrc.findIndex((src, e) => src === site.call && graph.edgeExceptional[e] === 1);
      if (thrown < 0) return;
      edgeCounts[thrown] = blockCounts[site.call] - edgeCounts[callEdge];
      // A handler's entries are its restarts; the exit is entered by the exception alone.
      if (graph.edgeDst[thrown] === graph.exit) blockCounts[graph.exit] += edgeCounts[thrown];
    });
  });
  return result;
}
