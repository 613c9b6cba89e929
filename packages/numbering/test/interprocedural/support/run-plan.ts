import {
  evaluateLinear,
  type ExecutionEvent,
  type InterproceduralNumbering,
  type InterproceduralOp,
  type InterproceduralPlan,
  type LinearFunction,
} from '@pathprof/numbering';

interface Activation {
  readonly procedure: number;
  nvc: bigint;
  readonly onEntry: bigint;
  readonly root: boolean;
  readonly site: number;
  parked: { pathNum: bigint; cnt: bigint } | null;
}

/**
 * Executes an instrumentation plan along a trace the way emitted code would (the contract in
 * `ProcedurePlan`), with exact integers, and returns the path numbers recorded, in order. Throws if any value
 * it computes (path numbers relative to their component's start) exceeds the plan's `valueBound`.
 */
export function runPlan(
  numbering: InterproceduralNumbering,
  plan: InterproceduralPlan,
  trace: readonly ExecutionEvent[],
): bigint[] {
  const check = (value: bigint): bigint => {
    if (value > plan.valueBound || -value > plan.valueBound) {
      throw new Error(`the value ${value} exceeds the plan's bound ${plan.valueBound}`);
    }
    return value;
  };
  const apply = (f: LinearFunction, nvc: bigint): bigint => {
    check(f.a * nvc);
    return check(evaluateLinear(f, nvc));
  };
  const piecewise = plan.scheme === 'piecewise';
  const siteIndex = new Map<number, number>();
  numbering.procedures.forEach((p) => p.callSites.forEach((s, k) => siteIndex.set(s.site, k)));
  const records: bigint[] = [];
  const stack: Activation[] = [];
  let pathNum = 0n;
  let cnt = 0n;
  const run = (ops: readonly InterproceduralOp[], frame: Activation): void => {
    for (const op of ops) {
      if (op.kind === 'add') pathNum += apply(op.increment, frame.nvc);
      else if (op.kind === 'record') records.push(pathNum + apply(op.increment, frame.nvc));
      else if (op.kind === 'restart') pathNum = frame.onEntry + apply(op.increment, frame.nvc);
      else {
        pathNum = op.pathNumber;
        frame.nvc = op.nvc;
        cnt = 0n;
      }
      // The code keeps the number relative to its component's first path number.
      check(pathNum - plan.procedures[frame.procedure].componentStart);
    }
  };
  for (const event of trace) {
    const top = stack.at(-1);
    if (event.kind === 'enter') {
      pathNum = plan.procedures[event.procedure].rootStart as bigint;
      cnt = 1n;
      stack.push({
        procedure: event.procedure,
        nvc: 1n,
        onEntry: pathNum,
        root: true,
        site: -1,
        parked: null,
      });
      continue;
    }
    const frame = top as Activation;
    const procedurePlan = plan.procedures[frame.procedure];
    if (event.kind === 'call') {
      const k = siteIndex.get(event.site) as number;
      const sitePlan = procedurePlan.callSites[k];
      if (sitePlan.kind === 'cut') frame.parked = { pathNum, cnt };
      else {
        if (piecewise) cnt++;
        const callee = numbering.procedures[frame.procedure].callSites[k].callee as number;
        const nvc = apply(sitePlan.argument, frame.nvc);
        stack.push({ procedure: callee, nvc, onEntry: pathNum, root: false, site: k, parked: null });
      }
      continue;
    }
    if (frame.parked !== null) {
      ({ pathNum, cnt } = frame.parked);
      frame.parked = null;
    }
    run(procedurePlan.edgeOps[event.edge], frame);
    const { graph } = numbering.procedures[frame.procedure];
    if (graph.edgeDst[event.edge] !== graph.exit) continue;
    stack.pop();
    if (graph.edgeExceptional[event.edge] === 1) continue;
    if (frame.root) {
      if (cnt === 0n) pathNum += procedurePlan.rootExitValue;
      records.push(pathNum);
      continue;
    }
    const caller = stack.at(-1) as Activation;
    const fixup = plan.procedures[caller.procedure].callSites[frame.site];
    if (fixup.kind === 'crossed' && fixup.returnFixup !== null) {
      if (cnt === 0n) {
        pathNum += fixup.returnFixup.value;
        caller.nvc = fixup.returnFixup.nvc;
      } else cnt--;
    }
  }
  return records;
}
