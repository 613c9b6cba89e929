import type { PathOp } from './path-op';
import { simplifyPathOps, type OpProgram, type SimplifiedPathOps } from './simplify-ops';

/**
 * The program with the ops of each edge into EXIT out of a join that cannot throw moved to the end of every
 * edge into that join. A path ending after a join is counted at the register, whose value differs between
 * the ways in (`C[r + k]++`); on each way in, constant propagation often knows it (`simplifyPathOps` then
 * counts at a constant index). Moving is exact when the join has that edge as its only out-edge (it cannot
 * throw: an exception would leave by an exceptional out-edge) and every edge into it runs code (none
 * exceptional or silent): the join's own code leaves the register alone and nothing observes it there.
 * Melski and Reps' numbering records a root's path on its edges into EXIT, where path mode's placement
 * already counts on the edges before a join.
 */
export function endsBeforeJoins(program: OpProgram): OpProgram {
  const {
    blockCount,
    entry,
    exit,
    edgeCount,
    edgeSrc,
    edgeDst,
    edgeExceptional,
    edgeSilent: silent,
  } = program;
  const outDegree = new Int32Array(blockCount);
  const codeless = new Uint8Array(blockCount);
  for (let e = 0; e < edgeCount; e++) {
    outDegree[edgeSrc[e]]++;
    if (edgeExceptional[e] === 1 || silent?.[e] === 1) codeless[edgeDst[e]] = 1;
  }
  const edgeOps: PathOp[][] = program.edgeOps.map((ops) => [...ops]);
  const moved = new Int32Array(blockCount).fill(-1);
  for (let e = 0; e < edgeCount; e++) {
    const v = edgeSrc[e];
    if (edgeDst[e] !== exit || edgeExceptional[e] === 1 || silent?.[e] === 1) continue;
    if (v === entry || outDegree[v] !== 1 || codeless[v] === 1 || edgeOps[e].length === 0) continue;
    moved[v] = e;
  }
  for (let e = 0; e < edgeCount; e++) {
    const end = moved[edgeDst[e]];
    if (end >= 0) edgeOps[e].push(...program.edgeOps[end]);
  }
  for (let v = 0; v < blockCount; v++) if (moved[v] >= 0) edgeOps[moved[v]] = [];
  return { ...program, edgeOps };
}

/**
 * `simplifyPathOps` of the program as placed, or with its path ends moved before joins (`endsBeforeJoins`)
 * where that leaves fewer counts at a register index.
 */
export function simplestPathOps(program: OpProgram): SimplifiedPathOps {
  const asPlaced = simplifyPathOps(program);
  const beforeJoins = simplifyPathOps(endsBeforeJoins(program));
  return countsAtRegister(beforeJoins) < countsAtRegister(asPlaced) ? beforeJoins : asPlaced;
}

/** How many counts are at a register index (those where exceptions land are the same in both versions). */
function countsAtRegister(ops: SimplifiedPathOps): number {
  const atRegister = (list: readonly PathOp[]) => list.filter((op) => op.kind === 'count-add').length;
  return ops.edgeOps.reduce((sum, list) => sum + atRegister(list), atRegister(ops.prologue));
}
