import type { ExecutionEvent, Program } from '@pathprof/numbering';
import type { Random } from '@pathprof/testkit';

const MAX_DEPTH = 6;
/** How often a block that can throw does, per visit. */
const THROW_RATE = 0.15;

/**
 * Random executions of a program, as traces: each activation wanders a random number of steps (throwing now
 * and then where its caller can catch, or out of a root), then heads for its exit along normal edges. Crossed calls run their
 * callee; a cut call with a known callee enters it as a root (or, too deep, behaves as native code); an
 * unknown callee runs zero to two callbacks among the roots.
 */
export class ProgramRunner {
  /** How often a crossed callee threw out, and how often that exception landed in a handler of its caller. */
  crossedThrows = 0;
  handlerRestarts = 0;
  /** Per procedure, per block: an out-edge on a shortest normal route to the exit. */
  private readonly towardsExit: Int32Array[];
  private readonly siteAt: Map<number, number>[];

  constructor(
    private readonly program: Program,
    /** Per procedure, per call site index: whether paths cross it (the numbering decides). */
    private readonly crossed: readonly (readonly boolean[])[],
  ) {
    this.towardsExit = program.procedures.map(({ graph }) => {
      const next = new Int32Array(graph.blockCount).fill(-1);
      const reached = new Uint8Array(graph.blockCount);
      reached[graph.exit] = 1;
      for (let changed = true; changed;) {
        changed = false;
        for (let e = 0; e < graph.edgeCount; e++) {
          const v = graph.edgeSrc[e];
          if (graph.edgeExceptional[e] === 0 && reached[graph.edgeDst[e]] === 1 && reached[v] === 0) {
            reached[v] = 1;
            next[v] = e;
            changed = true;
          }
        }
      }
      return next;
    });
    this.siteAt = program.procedures.map((p) => new Map(p.callSites.map((s, k) => [s.call, k])));
  }

  run(rng: Random): ExecutionEvent[] {
    const events: ExecutionEvent[] = [];
    for (let k = rng.range(1, 2); k > 0; k--) {
      const root = rng.pick(this.program.roots);
      events.push({ kind: 'enter', procedure: root });
      // A root may throw out too, as a test's function does: the exception ends the trace's last path.
      if (this.activation(rng, events, root, 0, rng.chance(0.3))) break;
    }
    return events;
  }

  /** Runs one activation; returns whether it threw out. */
  private activation(
    rng: Random,
    events: ExecutionEvent[],
    p: number,
    depth: number,
    mayThrow: boolean,
  ): boolean {
    const { graph, callSites } = this.program.procedures[p];
    const wander = rng.range(0, 24);
    // Some activations that may throw out do, at the first place they can: callees that throw are common.
    const throwsOut = mayThrow && rng.chance(0.5);
    let v = graph.entry;
    for (let step = 0; ; step++) {
      const out: number[] = [];
      let throwEdge = -1;
      for (let e = 0; e < graph.edgeCount; e++) {
        if (graph.edgeSrc[e] !== v) continue;
        if (graph.edgeExceptional[e] === 0) out.push(e);
        else if (mayThrow || graph.edgeDst[e] !== graph.exit) throwEdge = e;
      }
      const site = this.siteAt[p].get(v);
      let e: number;
      if (site !== undefined) {
        events.push({ kind: 'call', site: callSites[site].site });
        const threw = this.call(rng, events, p, site, depth, throwEdge >= 0);
        e = threw ? throwEdge : out[0];
        if (threw && callSites[site].callee !== null && this.crossed[p][site]) {
          this.crossedThrows++;
          if (graph.edgeDst[e] !== graph.exit) this.handlerRestarts++;
        }
      } else if (
        throwEdge >= 0 &&
        (rng.chance(THROW_RATE) || (throwsOut && graph.edgeDst[throwEdge] === graph.exit))
      )
        e = throwEdge;
      else e = step < wander ? rng.pick(out) : this.towardsExit[p][v];
      events.push({ kind: 'edge', edge: e });
      if (graph.edgeDst[e] === graph.exit) return graph.edgeExceptional[e] === 1;
      v = graph.edgeDst[e];
    }
  }

  private call(
    rng: Random,
    events: ExecutionEvent[],
    p: number,
    site: number,
    depth: number,
    canThrow: boolean,
  ): boolean {
    const { callee } = this.program.procedures[p].callSites[site];
    if (callee !== null && this.crossed[p][site])
      return this.activation(rng, events, callee, depth + 1, canThrow);
    const callbacks =
      callee !== null
        ? depth < MAX_DEPTH
          ? [callee]
          : []
        : depth < MAX_DEPTH
          ? [0, 1].filter(() => rng.chance(0.3)).map(() => rng.pick(this.program.roots))
          : [];
    for (const q of callbacks) {
      events.push({ kind: 'enter', procedure: q });
      if (this.activation(rng, events, q, depth + 1, canThrow)) return true;
    }
    return false;
  }
}
