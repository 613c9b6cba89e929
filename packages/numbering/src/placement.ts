import { ENTRY_DUMMY, REAL_EDGE, type Dag } from './dag';
import type { PathOp } from './path-op';

/**
 * How the path register is initialised:
 * - `prologue` (default): `r = 0` runs once at function entry, so a throw before any chord still leaves a valid
 *   number in `r`. Initialisation is then never pushed to merge points, and only the dummy `ENTRY→w` edges (the
 *   start of a path after a backedge or cut) carry an explicit `r = …`.
 * - `paper`: Figure 8 of Ball-Larus exactly: nothing at entry, `r = 0` pushed to the first merge edges. Only for
 *   graphs without exceptional edges (the paper's oracles); an exception could otherwise count a stale `r`.
 */
export type PlacementMode = 'prologue' | 'paper';

/**
 * Ball-Larus Figure 8, with the notation corrected (phase 2 walks the in-edges of `w`; `EXIT→ENTRY` is not a DAG
 * edge) and with the exception contract:
 * - Phase 1 (initialisation): from ENTRY along tree edges into blocks with one in-edge; a chord reached this way
 *   is the first chord of every path through it and does `r = Inc`.
 * - Phase 2 (count): from EXIT backwards along tree edges out of blocks with one out-edge; a chord reached this
 *   way is the last chord of every path through it and does `count[r + Inc]++`, or `count[Inc]++` when also
 *   first. The walk never passes an exceptional edge, nor a block that an exceptional edge enters: the count of a
 *   path leaving by an exception must run after the exception (in the function's handler, for an exceptional edge
 *   into EXIT, which therefore carries `count[r]`), never be hoisted before it.
 * - Phase 3: the remaining chords do `r += Inc` (nothing when `Inc` is 0).
 * Ops on one edge come in the order init (`set`) or `add`, then count; `r = k` followed by `count[r]` folds into
 * `count[k]`.
 */
export function placeDagOps(
  dag: Dag,
  inTree: ArrayLike<number>,
  increment: ArrayLike<number>,
  mode: PlacementMode,
): PathOp[][] {
  const { edgeCount, src, dst, kind, exceptional, entry, exit } = dag;
  const outDegree = (v: number): number => dag.out.start[v + 1] - dag.out.start[v];
  const inDegree = (v: number): number => dag.in.start[v + 1] - dag.in.start[v];
  const stack = new Int32Array(dag.nodeCount);
  let top = 0;

  const firstChord = new Uint8Array(edgeCount);
  const setsZero = new Uint8Array(edgeCount);
  stack[top++] = entry;
  while (top > 0) {
    const v = stack[--top];
    for (let i = dag.out.start[v]; i < dag.out.start[v + 1]; i++) {
      const e = dag.out.edges[i];
      if (inTree[e] !== 1) {
        firstChord[e] = 1;
        continue;
      }
      // After a backedge or cut the register holds the previous path: the next path must reset it.
      if (mode === 'prologue' && kind[e] === ENTRY_DUMMY) setsZero[e] = 1;
      if (inDegree(dst[e]) === 1) stack[top++] = dst[e];
      else if (mode === 'paper') setsZero[e] = 1;
    }
  }

  // A count is never hoisted before an exception, nor onto a silent edge: it stops at the out-edges of a
  // block that an exceptional or silent edge enters.
  const enteredCodeless = new Uint8Array(dag.nodeCount);
  for (let e = 0; e < edgeCount; e++) if (dag.codeless[e] === 1) enteredCodeless[dst[e]] = 1;
  const lastChord = new Uint8Array(edgeCount);
  const countsR = new Uint8Array(edgeCount);
  stack[top++] = exit;
  while (top > 0) {
    const w = stack[--top];
    for (let i = dag.in.start[w]; i < dag.in.start[w + 1]; i++) {
      const e = dag.in.edges[i];
      const v = src[e];
      if (inTree[e] !== 1) lastChord[e] = 1;
      else if (exceptional[e] === 0 && outDegree(v) === 1 && enteredCodeless[v] === 0) stack[top++] = v;
      else countsR[e] = 1;
    }
  }

  const ops: PathOp[][] = new Array(edgeCount);
  for (let e = 0; e < edgeCount; e++) {
    const inc = increment[e];
    if (inTree[e] !== 1) {
      if (firstChord[e] === 1 && lastChord[e] === 1) ops[e] = [{ kind: 'count-const', value: inc }];
      else if (firstChord[e] === 1) {
        // Under a prologue `r` is already 0 on a real first chord; a dummy still has to reset it.
        ops[e] =
          mode === 'prologue' && kind[e] === REAL_EDGE && inc === 0 ? [] : [{ kind: 'set', value: inc }];
      } else if (lastChord[e] === 1) ops[e] = [{ kind: 'count-add', value: inc }];
      else ops[e] = inc === 0 ? [] : [{ kind: 'add', value: inc }];
    } else if (setsZero[e] === 1 && countsR[e] === 1) ops[e] = [{ kind: 'count-const', value: 0 }];
    else if (setsZero[e] === 1) ops[e] = [{ kind: 'set', value: 0 }];
    else if (countsR[e] === 1) ops[e] = [{ kind: 'count-add', value: 0 }];
    else ops[e] = [];
  }
  return ops;
}
