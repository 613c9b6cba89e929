import type { ExecutionEvent } from './execution-trace';
import type { InterproceduralNumbering } from './number-program';
import type { PathStep, SupergraphPath } from './supergraph-path';

/** One activation on the reference profiler's stack. */
interface Frame {
  readonly procedure: number;
  /** Entered from `Entry_global`, not by a crossed call. */
  readonly root: boolean;
  /** The crossed call site (index in the caller) that started it; -1 for a root activation. */
  readonly site: number;
  /** The path when the activation started: its context, which a restart keeps (context scheme). */
  readonly context: SupergraphPath;
  /** While the activation waits at a cut call: the path it resumes when the call returns or throws. */
  parked: SupergraphPath | null;
  /** The call vertex of the cut call the activation waits at, or -1. */
  waitingAt: number;
}

/**
 * The observable paths an execution produces, in the order they end, by the definitions of Melski & Reps
 * alone: paths are built step by step and split where the scheme splits them (backedges, cut calls, root
 * exits, exceptions), never numbered by instrumentation. It is the oracle an instrumented program must
 * reproduce: `encodeInterproceduralPath` numbers each path.
 *
 * Exceptions, our extension: an exceptional edge into a handler continues the path; one that leaves the
 * procedure ends it with `→ GExit_P`; an exception out of a crossed call ended the path in the callee, so the
 * caller's handler starts a new one (`Entry_P → handler`, or `GEntry_P → handler` when piecewise).
 */
export function referenceProfile(
  numbering: InterproceduralNumbering,
  trace: readonly ExecutionEvent[],
): SupergraphPath[] {
  const siteIndex = new Map<number, { procedure: number; site: number }>();
  numbering.procedures.forEach((p, procedure) =>
    p.callSites.forEach((s, site) => siteIndex.set(s.site, { procedure, site })),
  );
  const recorded: SupergraphPath[] = [];
  const frames: Frame[] = [];
  let current: SupergraphPath | null = null;
  const fail = (message: string): never => {
    throw new Error(`execution trace: ${message}`);
  };
  const append = (step: PathStep): void => {
    if (current === null) fail(`a ${step.kind} step while no path is running`);
    else current = { entryPoint: current.entryPoint, steps: [...current.steps, step] };
  };
  const record = (): void => {
    if (current === null) fail('a path ends while none is running');
    else recorded.push(current);
    current = null;
  };
  const restart = (frame: Frame, block: number): void => {
    const p = numbering.procedures[frame.procedure];
    const step: PathStep = { kind: 'edge', procedure: frame.procedure, edge: p.dag.restartInto[block] };
    current =
      numbering.scheme === 'context'
        ? { entryPoint: frame.context.entryPoint, steps: [...frame.context.steps, step] }
        : { entryPoint: p.globalEntryPoint, steps: [step] };
  };

  for (const event of trace) {
    const top = frames.at(-1);
    if (event.kind === 'enter') {
      if (top !== undefined && top.waitingAt < 0)
        fail('an activation starts while its caller is not at a cut call');
      const entryPoint = numbering.procedures[event.procedure].rootEntryPoint;
      if (entryPoint < 0) fail(`procedure ${event.procedure} is not an entry procedure`);
      current = { entryPoint, steps: [] };
      frames.push({
        procedure: event.procedure,
        root: true,
        site: -1,
        context: current,
        parked: null,
        waitingAt: -1,
      });
      continue;
    }
    if (top === undefined) return fail(`a ${event.kind} event outside any activation`);
    const p = numbering.procedures[top.procedure];
    if (event.kind === 'call') {
      const at = siteIndex.get(event.site);
      if (at === undefined || at.procedure !== top.procedure)
        return fail(`call site ${event.site} is not in the running procedure`);
      const callSite = p.callSites[at.site];
      if (callSite.cut !== null || callSite.callee === null) {
        top.parked = current;
        top.waitingAt = callSite.call;
        current = null;
      } else {
        append({ kind: 'call', procedure: top.procedure, site: at.site });
        frames.push({
          procedure: callSite.callee,
          root: false,
          site: at.site,
          context: current as SupergraphPath,
          parked: null,
          waitingAt: -1,
        });
      }
      continue;
    }
    const e = event.edge;
    const { dag, graph } = p;
    if (top.waitingAt >= 0) {
      if (graph.edgeSrc[e] !== top.waitingAt)
        fail(`edge ${e} does not leave the cut call vertex ${top.waitingAt}`);
      current = top.parked;
      top.parked = null;
      top.waitingAt = -1;
    }
    const target = graph.edgeDst[e];
    const leaves = target === graph.exit;
    const kept = dag.keptAs[e];
    const ended = dag.endedBy[e];
    if (kept >= 0) {
      if (dag.kind[kept] !== 'call') append({ kind: 'edge', procedure: top.procedure, edge: kept });
    } else if (ended >= 0) {
      append({ kind: 'edge', procedure: top.procedure, edge: ended });
      record();
      if (!leaves) restart(top, target);
    } else if (!leaves) restart(top, target);
    if (!leaves) continue;
    frames.pop();
    // An exception leaving the activation: `throw-end` recorded the path, or the callee of a crossed call did.
    if (graph.edgeExceptional[e] === 1) current = null;
    else if (top.root) {
      append({ kind: 'return', procedure: top.procedure, to: null });
      record();
    } else {
      const caller = frames.at(-1) as Frame;
      append({
        kind: 'return',
        procedure: top.procedure,
        to: { procedure: caller.procedure, site: top.site },
      });
    }
  }
  return recorded;
}
