import type { PathOp } from './path-op';

/**
 * Register ops on a graph's edges, as an instrumenter runs them: the prologue once at function entry, an
 * edge's ops when it is taken. An exceptional edge has no code of its own: its ops are those of the block it
 * lands in (a `catch` or a `finally` entered by an exception runs them on entry; EXIT's are the function-level
 * handler's), so every exceptional edge into one block carries the same ops. A `PathNumbering` is one.
 */
export interface OpProgram {
  readonly blockCount: number;
  readonly entry: number;
  readonly exit: number;
  readonly edgeCount: number;
  readonly edgeSrc: ArrayLike<number>;
  readonly edgeDst: ArrayLike<number>;
  readonly edgeExceptional: ArrayLike<number>;
  /** 1 where no code can run although control takes the edge normally (absent: none); it carries no ops. */
  readonly edgeSilent?: ArrayLike<number>;
  readonly prologue: readonly PathOp[];
  readonly edgeOps: readonly (readonly PathOp[])[];
}

/** The ops an instrumenter emits, after `simplifyPathOps`. */
export interface SimplifiedPathOps {
  /** Runs once at function entry, before the body (and outside its `try`). */
  readonly prologue: readonly PathOp[];
  /**
   * Per original edge, the ops to run when it is taken; an exceptional edge carries the ops of the block it
   * lands in, the same for every exceptional edge into that block.
   */
  readonly edgeOps: readonly (readonly PathOp[])[];
  /** What the function-level handler runs when an exception leaves the activation. */
  readonly exceptionalExit: readonly PathOp[];
}

/** The register's value at a point: not reached yet, one known constant on every way there, or varying. */
const UNREACHED = 0;
const CONSTANT = 1;
const VARYING = 2;

interface Value {
  readonly state: number;
  readonly value: number;
}

const UNKNOWN: Value = { state: VARYING, value: 0 };

function meet(a: Value, b: Value): Value {
  if (a.state === UNREACHED) return b;
  if (b.state === UNREACHED) return a;
  return a.state === CONSTANT && b.state === CONSTANT && a.value === b.value ? a : UNKNOWN;
}

/**
 * The ops with every register value known at compile time folded, and every register write that nothing
 * reads dropped (what Ball-Larus Figure 8 gets by pushing initialisations down, without giving up a valid
 * register wherever an exception can leave). Along every walk of the graph the simplified ops count the same
 * numbers as the given ones.
 *
 * The register is written only by ops and read by counts and adds. An edge's ops run after the code of its
 * source block and before that of its target, so an exception in block `v` leaves with the register as it
 * stood on entering `v`, and the ops where it lands start from that. So:
 * 1. constant propagation: the register's value in each block, met over the edges into it (landing ops
 *    applied to every exceptional one); `add` to a constant becomes `set`, a count of a constant
 *    `count-const`, and a block's landing ops fold too when every block that throws into it knows one value;
 * 2. liveness: the register is needed in a block when an out-edge (an exceptional one through its landing
 *    ops) reads it before writing it; a `set` or `add` whose result is not needed goes.
 */
export function simplifyPathOps(program: OpProgram): SimplifiedPathOps {
  const { blockCount, entry, exit, edgeCount, edgeSrc, edgeDst, edgeExceptional } = program;
  const outStart = new Int32Array(blockCount + 1);
  const inStart = new Int32Array(blockCount + 1);
  for (let e = 0; e < edgeCount; e++) {
    outStart[edgeSrc[e] + 1]++;
    inStart[edgeDst[e] + 1]++;
  }
  for (let v = 0; v < blockCount; v++) {
    outStart[v + 1] += outStart[v];
    inStart[v + 1] += inStart[v];
  }
  const outEdges = new Int32Array(edgeCount);
  const inEdges = new Int32Array(edgeCount);
  const outFill = outStart.slice(0, blockCount);
  const inFill = inStart.slice(0, blockCount);
  for (let e = 0; e < edgeCount; e++) {
    outEdges[outFill[edgeSrc[e]]++] = e;
    inEdges[inFill[edgeDst[e]]++] = e;
  }

  const landing: (readonly PathOp[])[] = new Array(blockCount).fill([]);
  for (let e = 0; e < edgeCount; e++) if (edgeExceptional[e] === 1) landing[edgeDst[e]] = program.edgeOps[e];
  const opsOf = (e: number): readonly PathOp[] =>
    edgeExceptional[e] === 1 ? landing[edgeDst[e]] : program.edgeOps[e];

  // 1. Constant propagation, to a fixpoint over a worklist of blocks whose value changed.
  const values: Value[] = new Array(blockCount).fill({ state: UNREACHED, value: 0 });
  const queued = new Uint8Array(blockCount);
  const work: number[] = [];
  const enqueue = (v: number): void => {
    if (queued[v] === 1) return;
    queued[v] = 1;
    work.push(v);
  };
  const arrive = (v: number, incoming: Value): void => {
    const next = meet(values[v], incoming);
    if (next.state === values[v].state && next.value === values[v].value) return;
    values[v] = next;
    enqueue(v);
  };
  arrive(entry, after(program.prologue, UNKNOWN));
  while (work.length > 0) {
    const v = work.pop()!;
    queued[v] = 0;
    for (let i = outStart[v]; i < outStart[v + 1]; i++) {
      const e = outEdges[i];
      if (edgeDst[e] !== exit) arrive(edgeDst[e], after(opsOf(e), values[v]));
    }
  }
  // Where an exception lands, the register is what every block throwing there agrees on.
  const thrownIn: Value[] = new Array(blockCount).fill({ state: UNREACHED, value: 0 });
  for (let e = 0; e < edgeCount; e++) {
    if (edgeExceptional[e] === 1) thrownIn[edgeDst[e]] = meet(thrownIn[edgeDst[e]], values[edgeSrc[e]]);
  }
  const foldedLanding = landing.map((ops, v) => fold(ops, thrownIn[v]));
  const foldedOps = program.edgeOps.map((ops, e) =>
    edgeExceptional[e] === 1 ? foldedLanding[edgeDst[e]] : fold(ops, values[edgeSrc[e]]),
  );

  // 2. Liveness of the register during each block, backwards to a fixpoint, then dead writes dropped.
  const live = new Uint8Array(blockCount);
  const liveIn = (v: number): boolean => v !== exit && live[v] === 1;
  const neededThrough = (e: number): boolean => neededBefore(foldedOps[e], liveIn(edgeDst[e]));
  for (let v = 0; v < blockCount; v++) enqueue(v);
  while (work.length > 0) {
    const v = work.pop()!;
    queued[v] = 0;
    if (live[v] === 1 || v === exit) continue;
    let needed = false;
    for (let i = outStart[v]; i < outStart[v + 1] && !needed; i++) needed = neededThrough(outEdges[i]);
    if (!needed) continue;
    live[v] = 1;
    for (let i = inStart[v]; i < inStart[v + 1]; i++) enqueue(edgeSrc[inEdges[i]]);
  }
  const prunedLanding = foldedLanding.map((ops, v) => withoutDeadWrites(ops, liveIn(v)));
  return {
    prologue: withoutDeadWrites(fold(program.prologue, UNKNOWN), liveIn(entry)),
    edgeOps: foldedOps.map((ops, e) =>
      edgeExceptional[e] === 1 ? prunedLanding[edgeDst[e]] : withoutDeadWrites(ops, liveIn(edgeDst[e])),
    ),
    exceptionalExit: prunedLanding[exit],
  };
}

/** The register after `ops`, from `before`. */
function after(ops: readonly PathOp[], before: Value): Value {
  let current = before;
  // Indexed: run cold (a fresh process's first transform), a `for…of` makes an iterator and a result per step.
  for (let i = 0; i < ops.length; i++) current = afterOne(ops[i], current);
  return current;
}

/** The register after one op, from `before`. */
function afterOne(op: PathOp, before: Value): Value {
  if (op.kind === 'set') return { state: CONSTANT, value: op.value };
  if (op.kind === 'add' && before.state === CONSTANT)
    return { state: CONSTANT, value: before.value + op.value };
  return before;
}

/**
 * No ops, shared: most edges carry none, and the arrays made for each of them (folded, then pruned) were 1.3 of
 * the 9.8 MB this function allocated in a first transform of lodash.
 */
const NO_OPS: readonly PathOp[] = Object.freeze([]);

/** `ops` with the register's known values folded in: `add` becomes `set`, `count-add` becomes `count-const`. */
function fold(ops: readonly PathOp[], before: Value): readonly PathOp[] {
  if (ops.length === 0) return NO_OPS;
  let current = before;
  return ops.map((op): PathOp => {
    const known = current.state === CONSTANT;
    const value = current.value;
    current = afterOne(op, current);
    if (known && op.kind === 'add') return { kind: 'set', value: value + op.value };
    if (known && op.kind === 'count-add') return { kind: 'count-const', value: value + op.value };
    return op;
  });
}

/** Whether `ops` read the register before writing it, or pass it on to where it is `liveAfter`. */
function neededBefore(ops: readonly PathOp[], liveAfter: boolean): boolean {
  let live = liveAfter;
  for (let i = ops.length - 1; i >= 0; i--) {
    const kind = ops[i].kind;
    if (kind === 'set') live = false;
    else if (kind === 'count-add') live = true;
    // `add` reads only when its result is needed, so it leaves `live` as it is.
  }
  return live;
}

/** `ops` without the writes whose value nothing reads (`liveAfter`: whether it is read after them). */
function withoutDeadWrites(ops: readonly PathOp[], liveAfter: boolean): readonly PathOp[] {
  if (ops.length === 0) return NO_OPS;
  const kept: PathOp[] = [];
  let live = liveAfter;
  for (let i = ops.length - 1; i >= 0; i--) {
    const op = ops[i];
    if (op.kind === 'set' || op.kind === 'add') {
      if (!live) continue;
      if (op.kind === 'set') live = false;
    } else if (op.kind === 'count-add') live = true;
    kept.push(op);
  }
  return kept.reverse();
}
