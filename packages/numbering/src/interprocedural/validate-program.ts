import type { FlowGraph } from '../flow-graph';
import { NumberingError } from '../numbering-error';
import { validateFlowGraph, type FlowGraphAdjacency } from '../validate';
import type { CallSite, Program } from './program';

/** Per procedure: its adjacency, and per block the index (in `callSites`) of the site it is the call vertex of. */
export interface ValidatedProcedure {
  readonly adjacency: FlowGraphAdjacency;
  /** Per block: the index of the call site whose call vertex it is, or -1. */
  readonly siteAtCall: Int32Array;
  /** Per call site index: the edge `call → returnSite`. */
  readonly callEdge: Int32Array;
  /** Per call site index: the call vertex's exceptional out-edge, or -1. */
  readonly callThrowEdge: Int32Array;
}

/**
 * Checks what interprocedural numbering assumes of the CFG beyond `validateFlowGraph`: every call site is a
 * call vertex whose only normal out-edge goes to its return site, which has no other in-edge, site ids are
 * unique program-wide, callees and roots name procedures. A violation is refused here, naming the procedure.
 */
export function validateProgram(program: Program): ValidatedProcedure[] {
  const { procedures, roots } = program;
  const fail = (message: string): never => {
    throw new NumberingError('invalid-graph', message);
  };
  if (procedures.length === 0) fail('a program needs at least one procedure');
  if (roots.length === 0) fail('a program needs at least one root procedure');
  const seenRoots = new Set<number>();
  for (const root of roots) {
    if (!isIndex(root, procedures.length)) fail(`root ${root} is not a procedure`);
    if (seenRoots.has(root)) fail(`root ${procedures[root].name} is listed twice`);
    seenRoots.add(root);
  }
  const siteIds = new Map<number, string>();
  return procedures.map((procedure) => {
    const { graph, callSites, name } = procedure;
    let adjacency: FlowGraphAdjacency;
    try {
      adjacency = validateFlowGraph(graph);
    } catch (error) {
      throw new NumberingError('invalid-graph', `${name}: ${(error as Error).message}`);
    }
    const siteAtCall = new Int32Array(graph.blockCount).fill(-1);
    const siteAtReturn = new Int32Array(graph.blockCount).fill(-1);
    const callEdge = new Int32Array(callSites.length);
    const callThrowEdge = new Int32Array(callSites.length).fill(-1);
    callSites.forEach((callSite, k) => {
      const where = `${name}, call site ${callSite.site}`;
      if (!Number.isSafeInteger(callSite.site)) fail(`${where}: site ids must be integers`);
      const other = siteIds.get(callSite.site);
      if (other !== undefined) fail(`${where}: the site id is also used in ${other}`);
      siteIds.set(callSite.site, name);
      if (callSite.callee !== null && !isIndex(callSite.callee, procedures.length)) {
        fail(`${where}: callee ${callSite.callee} is not a procedure`);
      }
      checkSiteBlocks(callSite, graph.blockCount, graph.entry, graph.exit, where, fail);
      if (siteAtCall[callSite.call] >= 0) fail(`${where}: block ${callSite.call} is already a call vertex`);
      if (siteAtReturn[callSite.returnSite] >= 0) {
        fail(`${where}: block ${callSite.returnSite} is already a return site`);
      }
      siteAtCall[callSite.call] = k;
      siteAtReturn[callSite.returnSite] = k;
      callEdge[k] = onlyNormalOutEdge(graph, adjacency, callSite, where, fail);
      for (let i = adjacency.out.start[callSite.call]; i < adjacency.out.start[callSite.call + 1]; i++) {
        const e = adjacency.out.edges[i];
        if (graph.edgeExceptional[e] === 1) callThrowEdge[k] = e;
      }
      const inDegree = adjacency.in.start[callSite.returnSite + 1] - adjacency.in.start[callSite.returnSite];
      if (inDegree !== 1) {
        fail(
          `${where}: return site ${callSite.returnSite} must have one in-edge (the call), has ${inDegree}`,
        );
      }
    });
    return { adjacency, siteAtCall, callEdge, callThrowEdge };
  });
}

function isIndex(value: number, length: number): boolean {
  return Number.isInteger(value) && value >= 0 && value < length;
}

function checkSiteBlocks(
  callSite: CallSite,
  blockCount: number,
  entry: number,
  exit: number,
  where: string,
  fail: (message: string) => never,
): void {
  for (const [role, block] of [
    ['call vertex', callSite.call],
    ['return site', callSite.returnSite],
  ] as const) {
    if (!isIndex(block, blockCount) || block === entry || block === exit) {
      fail(`${where}: the ${role} ${block} must be a block other than entry and exit`);
    }
  }
  if (callSite.call === callSite.returnSite) fail(`${where}: call vertex and return site are one block`);
}

function onlyNormalOutEdge(
  graph: FlowGraph,
  adjacency: FlowGraphAdjacency,
  callSite: CallSite,
  where: string,
  fail: (message: string) => never,
): number {
  let found = -1;
  for (let i = adjacency.out.start[callSite.call]; i < adjacency.out.start[callSite.call + 1]; i++) {
    const e = adjacency.out.edges[i];
    if (graph.edgeExceptional[e] === 1) continue;
    if (found >= 0 || graph.edgeDst[e] !== callSite.returnSite) {
      fail(`${where}: the call vertex's only normal out-edge must go to the return site`);
    }
    found = e;
  }
  if (found < 0) fail(`${where}: the call vertex has no edge to its return site`);
  return found;
}
