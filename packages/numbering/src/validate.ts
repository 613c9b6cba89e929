import { buildCsr, type Csr } from './csr';
import type { FlowGraph } from './flow-graph';
import { NumberingError } from './numbering-error';

/** Out- and in-adjacency of a graph that passed validation. */
export interface FlowGraphAdjacency {
  readonly out: Csr;
  readonly in: Csr;
}

/**
 * Checks every assumption the numbering makes and returns the adjacency built along the way. Each assumption,
 * if broken, silently breaks a theorem later (Ball-Larus uniqueness needs every block to reach EXIT; the forced
 * spanning forest needs at most one exceptional out-edge per block), so a bad graph is refused here, by name.
 */
export function validateFlowGraph(graph: FlowGraph): FlowGraphAdjacency {
  const { blockCount, entry, exit, edgeCount, edgeSrc, edgeDst, edgeExceptional } = graph;
  const fail = (message: string): never => {
    throw new NumberingError('invalid-graph', message);
  };
  if (!Number.isInteger(blockCount) || blockCount < 2)
    fail(`blockCount must be an integer >= 2, got ${blockCount}`);
  if (!isBlock(entry, blockCount) || !isBlock(exit, blockCount) || entry === exit) {
    fail(`entry (${entry}) and exit (${exit}) must be two different blocks`);
  }
  if (
    !Number.isInteger(edgeCount) ||
    edgeSrc.length !== edgeCount ||
    edgeDst.length !== edgeCount ||
    edgeExceptional.length !== edgeCount
  ) {
    fail(`edgeCount (${edgeCount}) must equal the length of edgeSrc, edgeDst and edgeExceptional`);
  }
  const exceptionalOut = new Uint8Array(blockCount);
  for (let e = 0; e < edgeCount; e++) {
    const src = edgeSrc[e];
    const dst = edgeDst[e];
    if (!isBlock(src, blockCount) || !isBlock(dst, blockCount)) fail(`edge ${e} joins ${src} to ${dst}`);
    if (dst === entry) fail(`edge ${e} enters the entry block`);
    if (src === exit) fail(`edge ${e} leaves the exit block`);
    const flag = edgeExceptional[e];
    if (flag !== 0 && flag !== 1) fail(`edgeExceptional[${e}] must be 0 or 1, got ${flag}`);
    if (flag === 1 && exceptionalOut[src]++ === 1)
      fail(`block ${src} has more than one exceptional out-edge`);
    const silent = graph.edgeSilent?.[e] ?? 0;
    if (silent !== 0 && silent !== 1) fail(`edgeSilent[${e}] must be 0 or 1, got ${silent}`);
    if (silent === 1 && flag === 1) fail(`edge ${e} cannot be both exceptional and silent`);
    if (silent === 1 && dst === exit)
      fail(`silent edge ${e} enters the exit block, where its path is counted`);
  }
  if (graph.edgeSilent && graph.edgeSilent.length !== edgeCount) {
    fail(`edgeSilent has ${graph.edgeSilent.length} entries for ${edgeCount} edges`);
  }
  const out = buildCsr(blockCount, edgeCount, edgeSrc);
  const inward = buildCsr(blockCount, edgeCount, edgeDst);
  const unreachable = firstUnvisited(blockCount, entry, out, edgeDst);
  if (unreachable >= 0) fail(`block ${unreachable} is not reachable from the entry block`);
  const stuck = firstUnvisited(blockCount, exit, inward, edgeSrc);
  if (stuck >= 0) fail(`block ${stuck} cannot reach the exit block`);
  return { out, in: inward };
}

function isBlock(v: number, blockCount: number): boolean {
  return Number.isInteger(v) && v >= 0 && v < blockCount;
}

/** The lowest block a search from `root` over `adjacency` (towards `far[e]`) never reaches, or -1. */
function firstUnvisited(blockCount: number, root: number, adjacency: Csr, far: Int32Array): number {
  const seen = new Uint8Array(blockCount);
  const stack = new Int32Array(blockCount);
  let top = 0;
  stack[top++] = root;
  seen[root] = 1;
  while (top > 0) {
    const v = stack[--top];
    for (let i = adjacency.start[v]; i < adjacency.start[v + 1]; i++) {
      const w = far[adjacency.edges[i]];
      if (seen[w] === 0) {
        seen[w] = 1;
        stack[top++] = w;
      }
    }
  }
  return seen.indexOf(0);
}
