import { isExceptionalKind } from '../edge-kind';
import type { ControlFlowGraph } from '../control-flow-graph';
import type { TraceEvent } from './trace-recorder';

/** One activation's edges, rebuilt from the events, and how it ended. */
export interface TracedActivation {
  readonly activation: number;
  readonly graph: number;
  readonly edges: number[];
  /** `exit`: reached EXIT (by return or by an exception); `open`: still in a block when the run ended. */
  end: 'exit' | 'open';
  /** The block control was in last: EXIT, or where an open activation stopped. */
  block: number;
}

/**
 * Checks a traced run against the graphs: every activation's edges must form a path from ENTRY, each edge
 * leaving the block the previous one entered; an exception may only land where the block it left has an
 * exceptional edge; a finished activation ends at EXIT. Throws an Error describing the first violation.
 *
 * Activations still open when the run ended are allowed only where the code really can stop: a block that
 * suspends (`await`, `yield`), one binding destructuring parameters (an exception there is the caller's), a
 * generator's last block of parameter defaults (called, never resumed) or,
 * when `uncaught` says the run ended by an uncaught exception, a program or namespace body (they have no
 * function-level handler) in a block that can throw.
 */
export function checkTrace(
  graphs: readonly ControlFlowGraph[],
  events: readonly TraceEvent[],
  uncaught: boolean,
): TracedActivation[] {
  const replay = new TraceReplay(graphs);
  for (const ev of events) replay.step(ev);
  for (const a of replay.activations()) {
    if (a.end === 'exit') continue;
    const g = graphs[a.graph];
    if (a.block === -1) fail(g, a, 'entered but never took its ENTRY edge');
    const info = g.blocks[a.block];
    const canStop =
      info.suspends ||
      info.bindsParameters ||
      (g.isGenerator && entersBody(g, a.block)) ||
      (uncaught && (g.kind === 'program' || g.kind === 'namespace') && info.mayThrow);
    if (!canStop) fail(g, a, `stopped in b${a.block}, which neither suspends nor ends the run`);
  }
  return replay.activations();
}

/**
 * Whether `block` ends the parameter list (its edge into the body carries the prologue): where a generator
 * called but never resumed stops, its body waiting for the first `next()`.
 */
function entersBody(g: ControlFlowGraph, block: number): boolean {
  for (let e = 0; e < g.edgeCount; e++)
    if (g.edgeSrc[e] === block && g.edges[e].site?.type === 'prologue') return true;
  return false;
}

/**
 * Replays traced events one at a time, in the order they happened, rebuilding each activation's edges:
 * `step` returns the edges an event adds to its activation (silent edges it implies first, then the edge
 * taken or the exceptional edge an exception took), so a caller can follow all activations in time order.
 */
export class TraceReplay {
  private readonly byActivation = new Map<number, TracedActivation>();

  constructor(private readonly graphs: readonly ControlFlowGraph[]) {}

  activations(): TracedActivation[] {
    return [...this.byActivation.values()];
  }

  activation(id: number): TracedActivation | undefined {
    return this.byActivation.get(id);
  }

  step(ev: TraceEvent): number[] {
    if (ev.type === 'enter') {
      this.byActivation.set(ev.activation, {
        activation: ev.activation,
        graph: ev.graph,
        edges: [],
        end: 'open',
        block: -1,
      });
      return [];
    }
    const a = this.byActivation.get(ev.activation);
    if (!a) throw new Error(`event for unknown activation ${ev.activation}`);
    // Which activation runs when is the calling-context oracle's business; edges are not affected.
    if (ev.type === 'suspend' || ev.type === 'resume') return [];
    const g = this.graphs[a.graph];
    const before = a.edges.length;
    if (a.end === 'exit') fail(g, a, `event ${ev.type} after the activation reached EXIT`);
    if (ev.type === 'edge') {
      const src = g.edgeSrc[ev.edge];
      followSilentEdges(g, a, src);
      const expected = a.block === -1 ? g.entry : a.block;
      if (src !== expected) fail(g, a, `edge ${ev.edge} leaves b${src} but control is in b${expected}`);
      if (isExceptionalKind(g.edgeKind[ev.edge]))
        fail(g, a, `exceptional edge ${ev.edge} was reported as taken`);
      a.edges.push(ev.edge);
      a.block = g.edgeDst[ev.edge];
    } else {
      if (a.block === -1) fail(g, a, `${ev.type} before the ENTRY edge`);
      const target = ev.type === 'handler' ? ev.block : g.exit;
      const e = exceptionalEdge(g, a.block, target);
      if (e < 0)
        fail(
          g,
          a,
          `an exception left b${a.block} for b${target}, but the graph has no such exceptional edge`,
        );
      a.edges.push(e);
      a.block = target;
    }
    if (a.block === g.exit) a.end = 'exit';
    return a.edges.slice(before);
  }
}

function fail(
  g: ControlFlowGraph | undefined,
  a: { activation: number; graph: number },
  message: string,
): never {
  throw new Error(`activation ${a.activation} of ${g?.name ?? '?'} (graph ${a.graph}): ${message}`);
}

/**
 * Silent edges record nothing: when control shows up in `to`, the silent edges from the current block that
 * lead there were taken. A block has at most one silent out-edge, so the walk is unique.
 */
function followSilentEdges(g: ControlFlowGraph, a: TracedActivation, to: number): void {
  if (a.block === -1 && to !== g.entry) a.block = g.entry;
  while (a.block !== -1 && a.block !== to) {
    let next = -1;
    for (let e = 0; e < g.edgeCount; e++) if (g.edgeSrc[e] === a.block && g.edgeSilent[e]) next = e;
    if (next < 0) return;
    a.edges.push(next);
    a.block = g.edgeDst[next];
  }
}

function exceptionalEdge(g: ControlFlowGraph, from: number, to: number): number {
  for (let e = 0; e < g.edgeCount; e++) {
    if (g.edgeSrc[e] === from && g.edgeDst[e] === to && g.edgeExceptional[e]) return e;
  }
  return -1;
}
