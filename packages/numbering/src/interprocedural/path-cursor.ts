import { evaluate } from './linear-function';
import type { InterproceduralNumbering } from './number-program';
import type { CallSiteRef, PathStep } from './supergraph-path';

interface OpenCall {
  readonly nvc: bigint;
  readonly from: CallSiteRef;
}

/**
 * Walks one observable path through G*_fn and keeps the path number of the prefix walked so far: Algorithm 5.1
 * for the context scheme and the corrected Algorithm 6.1 for the piecewise one (Melski & Reps; see the package
 * README for the two errata). The encoder feeds it a path's steps; the decoder picks each step from the number.
 * Every move checks that the step continues the path, so a malformed path is refused, never mis-numbered.
 */
export class PathCursor {
  procedure: number;
  vertex: number;
  pathNumber: bigint;
  /** numValidCompsFromExit of the running procedure. */
  nvc: bigint;
  finished = false;
  /** The calls made on this path and not yet returned from, innermost last. */
  private readonly openCalls: OpenCall[] = [];
  /** The path began at `Entry_P`, so a return with no open call goes to `Exit_global` (the `(P` parenthesis). */
  private readonly enteredAtRoot: boolean;

  constructor(
    readonly numbering: InterproceduralNumbering,
    entryPoint: number,
  ) {
    const point = numbering.entryPoints[entryPoint];
    if (point === undefined) throw new RangeError(`entry point ${entryPoint} does not exist`);
    const procedure = numbering.procedures[point.procedure];
    this.procedure = point.procedure;
    this.enteredAtRoot = point.kind === 'entry';
    this.vertex = this.enteredAtRoot ? procedure.dag.entry : procedure.dag.globalEntry;
    this.nvc = this.enteredAtRoot ? 1n : procedure.unbalancedExitPaths;
    this.pathNumber = point.start;
  }

  get atExit(): boolean {
    return this.vertex === this.numbering.procedures[this.procedure].dag.exit;
  }

  /** Whether a return from here goes back along an open call; otherwise its target is free (piecewise). */
  get hasOpenCall(): boolean {
    return this.openCalls.length > 0 || this.enteredAtRoot;
  }

  /** Where a return from the exit goes when `hasOpenCall`: the innermost open call's site, or `Exit_global`. */
  get matchingReturn(): CallSiteRef | null {
    return this.openCalls.at(-1)?.from ?? null;
  }

  /** The value `edge` adds to the path number here (its ρ at the current nvc). */
  edgeValue(edge: number): bigint {
    return evaluate(this.numbering.procedures[this.procedure].rho[edge], this.nvc);
  }

  take(step: PathStep): void {
    if (this.finished) throw new RangeError('the path continues after reaching Exit_global');
    if (step.procedure !== this.procedure) {
      throw new RangeError(
        `a ${step.kind} step in procedure ${step.procedure} while the path is in ${this.procedure}`,
      );
    }
    if (step.kind === 'edge') this.takeEdge(step.edge);
    else if (step.kind === 'call') this.call(step.site);
    else this.returnTo(step.to);
  }

  private takeEdge(edge: number): void {
    const { dag } = this.numbering.procedures[this.procedure];
    if (dag.src[edge] !== this.vertex || dag.kind[edge] === 'call') {
      throw new RangeError(
        `DAG edge ${edge} of procedure ${this.procedure} does not leave vertex ${this.vertex}`,
      );
    }
    this.pathNumber += this.edgeValue(edge);
    this.vertex = dag.dst[edge];
    if (this.vertex === dag.globalExit) this.finished = true;
  }

  private call(site: number): void {
    const procedure = this.numbering.procedures[this.procedure];
    const callSite = procedure.callSites[site];
    if (
      callSite === undefined ||
      callSite.call !== this.vertex ||
      callSite.cut !== null ||
      callSite.callee === null
    ) {
      throw new RangeError(
        `no crossed call site ${site} at vertex ${this.vertex} of procedure ${this.procedure}`,
      );
    }
    this.openCalls.push({ nvc: this.nvc, from: { procedure: this.procedure, site } });
    this.nvc = evaluate(procedure.psi[callSite.returnSite], this.nvc);
    this.procedure = callSite.callee;
    this.vertex = this.numbering.procedures[callSite.callee].dag.entry;
  }

  private returnTo(to: CallSiteRef | null): void {
    if (!this.atExit) throw new RangeError(`a return from vertex ${this.vertex}, not the exit`);
    const open = this.openCalls.pop();
    if (open !== undefined) {
      if (to === null || to.procedure !== open.from.procedure || to.site !== open.from.site) {
        throw new RangeError('a return that does not match the open call');
      }
      this.nvc = open.nvc;
      this.moveToReturnSite(to);
    } else if (this.enteredAtRoot) {
      if (to !== null) throw new RangeError('a root activation returns to Exit_global');
      this.finished = true;
    } else {
      // Piecewise, no open call: any successor of Exit_P, worth its edge value (eq. 35).
      const { exitSuccessors } = this.numbering.procedures[this.procedure];
      const successor = exitSuccessors.find((s) =>
        s.caller === null
          ? to === null
          : to !== null && s.caller.procedure === to.procedure && s.caller.site === to.site,
      );
      if (successor === undefined) throw new RangeError(`procedure ${this.procedure} never returns there`);
      this.pathNumber += successor.value;
      if (to === null) this.finished = true;
      else {
        // Erratum A: the caller's nvc is numUnbalRLPaths of its own exit, not ψ_r of it.
        this.nvc = this.numbering.procedures[to.procedure].unbalancedExitPaths;
        this.moveToReturnSite(to);
      }
    }
  }

  private moveToReturnSite(to: CallSiteRef): void {
    this.procedure = to.procedure;
    this.vertex = this.numbering.procedures[to.procedure].callSites[to.site].returnSite;
  }
}
