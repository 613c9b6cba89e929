import type { ControlFlowGraph } from './control-flow-graph';

/**
 * The invariants every graph keeps, which path numbering and the instrumenter rely on: ENTRY has one
 * out-edge and no in-edges, EXIT has no out-edges, every block is reachable from ENTRY and reaches EXIT,
 * a block has at most one exceptional out-edge, and exactly the non-exceptional, non-silent edges have an
 * insertion site. A silent edge's target cannot throw and is left only by edges with a site, and a block has
 * at most one silent out-edge. Returns the violations (empty when the graph is sound).
 */
export function validateCfg(cfg: ControlFlowGraph): string[] {
  const problems: string[] = [];
  const n = cfg.blockCount;
  const out: number[][] = Array.from({ length: n }, () => []);
  const into: number[][] = Array.from({ length: n }, () => []);
  const exceptionalOut = new Uint32Array(n);
  const silentOut = new Uint32Array(n);
  const silentIn = new Uint8Array(n);
  for (let e = 0; e < cfg.edgeCount; e++) if (cfg.edgeSilent[e]) silentIn[cfg.edgeDst[e]] = 1;
  for (let e = 0; e < cfg.edgeCount; e++) {
    const s = cfg.edgeSrc[e];
    const d = cfg.edgeDst[e];
    out[s].push(d);
    into[d].push(s);
    if (cfg.edgeExceptional[e]) {
      exceptionalOut[s]++;
      if (cfg.edges[e].site) problems.push(`exceptional edge ${e} has an insertion site`);
    } else if (cfg.edgeSilent[e]) {
      if (cfg.edges[e].site) problems.push(`silent edge ${e} has an insertion site`);
      if (cfg.blocks[d].mayThrow) problems.push(`silent edge ${e} enters b${d}, which can throw`);
      if (silentOut[s]++ === 1) problems.push(`b${s} has more than one silent out-edge`);
    } else if (!cfg.edges[e].site) {
      problems.push(`edge ${e} (b${s}->b${d}) has no insertion site`);
    }
  }
  for (let e = 0; e < cfg.edgeCount; e++) {
    const s = cfg.edgeSrc[e];
    if (silentIn[s] && cfg.edgeExceptional[e])
      problems.push(`b${s}, entered silently, can throw (edge ${e})`);
  }
  if (out[cfg.entry].length !== 1) problems.push(`ENTRY has ${out[cfg.entry].length} out-edges`);
  if (into[cfg.entry].length !== 0) problems.push('ENTRY has in-edges');
  if (out[cfg.exit].length !== 0) problems.push('EXIT has out-edges');
  for (let b = 0; b < n; b++)
    if (exceptionalOut[b] > 1) problems.push(`b${b} has ${exceptionalOut[b]} exceptional out-edges`);
  const forward = reach(cfg.entry, out);
  const backward = reach(cfg.exit, into);
  for (let b = 0; b < n; b++) {
    if (!forward[b]) problems.push(`b${b} is unreachable from ENTRY`);
    if (!backward[b]) problems.push(`b${b} cannot reach EXIT`);
  }
  return problems;
}

function reach(start: number, adjacency: number[][]): Uint8Array {
  const seen = new Uint8Array(adjacency.length);
  const stack = [start];
  seen[start] = 1;
  while (stack.length) {
    for (const next of adjacency[stack.pop()!]) {
      if (!seen[next]) {
        seen[next] = 1;
        stack.push(next);
      }
    }
  }
  return seen;
}
