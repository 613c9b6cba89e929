import type { PathNumbering, PathOp } from '@pathprof/numbering';

/** Per original edge / block, the DAG edges that stand for it (the inverse of `dag.origin`). */
export interface DagMaps {
  readonly realEdgeOf: Int32Array;
  readonly exitDummyOf: Int32Array;
  readonly entryDummyOf: Int32Array;
}

export function dagMaps(numbering: PathNumbering): DagMaps {
  const { dag } = numbering;
  const realEdgeOf = new Int32Array(numbering.edgeCount).fill(-1);
  const exitDummyOf = new Int32Array(numbering.edgeCount).fill(-1);
  const entryDummyOf = new Int32Array(numbering.blockCount).fill(-1);
  for (let d = 0; d < dag.edgeCount; d++) {
    if (dag.kind[d] === 0) realEdgeOf[dag.origin[d]] = d;
    else if (dag.kind[d] === 1) entryDummyOf[dag.dst[d]] = d;
    else exitDummyOf[dag.origin[d]] = d;
  }
  return { realEdgeOf, exitDummyOf, entryDummyOf };
}

/** What an instrumented activation did: the counter indices it incremented, and its register after each step. */
export interface Execution {
  readonly counted: number[];
  /** `register[i]` and `countedBefore[i]`: after the prologue (i = 0) and after the i-th edge. */
  readonly register: number[];
  readonly countedBefore: number[];
}

/**
 * Runs the prologue, then the ops of each edge of `walk`, as the instrumented function would (the ops of an
 * exceptional edge into EXIT being run by the function-level handler). The register starts as NaN, so any count
 * made before an initialisation shows up as NaN.
 */
export function execute(
  numbering: Pick<PathNumbering, 'prologue' | 'edgeOps'>,
  walk: readonly number[],
): Execution {
  const state = { r: NaN, counted: [] as number[] };
  const register: number[] = [];
  const countedBefore: number[] = [];
  const step = (ops: readonly PathOp[]): void => {
    for (const op of ops) apply(op, state);
    register.push(state.r);
    countedBefore.push(state.counted.length);
  };
  step(numbering.prologue);
  for (const e of walk) step(numbering.edgeOps[e]);
  return { counted: state.counted, register, countedBefore };
}

function apply(op: PathOp, state: { r: number; counted: number[] }): void {
  switch (op.kind) {
    case 'set':
      state.r = op.value;
      break;
    case 'add':
      state.r += op.value;
      break;
    case 'count-add':
      state.counted.push(state.r + op.value);
      break;
    case 'count-const':
      state.counted.push(op.value);
      break;
  }
}

/** What a walk should record, from the DAG's `Val` alone: one number per path, and the prefix sum per step. */
export interface ExpectedPaths {
  readonly numbers: number[];
  /** `prefix[i]`, `pathIndex[i]`: the `Val` sum of the path in progress and its index, after the i-th edge. */
  readonly prefix: number[];
  readonly pathIndex: number[];
}

export function expectedPaths(
  numbering: PathNumbering,
  maps: DagMaps,
  walk: readonly number[],
): ExpectedPaths {
  const { val } = numbering.dag;
  const numbers: number[] = [];
  const prefix = [0];
  const pathIndex = [0];
  let sum = 0;
  for (const e of walk) {
    const real = maps.realEdgeOf[e];
    if (real >= 0) {
      sum += val[real];
      if (numbering.edgeDst[e] === numbering.exit) numbers.push(sum);
    } else {
      numbers.push(sum + val[maps.exitDummyOf[e]]);
      sum = val[maps.entryDummyOf[numbering.edgeDst[e]]];
    }
    prefix.push(sum);
    pathIndex.push(numbers.length);
  }
  return { numbers, prefix, pathIndex };
}

/** The blocks a walk visits, in order, starting at the entry. */
export function walkBlocks(numbering: PathNumbering, walk: readonly number[]): number[] {
  return [numbering.entry, ...walk.map((e) => numbering.edgeDst[e])];
}
