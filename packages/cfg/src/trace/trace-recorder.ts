/** One recorded event of a traced run. */
export type TraceEvent =
  | { readonly type: 'enter'; readonly activation: number; readonly graph: number }
  | { readonly type: 'edge'; readonly activation: number; readonly edge: number }
  | { readonly type: 'handler'; readonly activation: number; readonly block: number }
  | { readonly type: 'exception-exit'; readonly activation: number }
  /** The activation stops running without ending (`await`, `yield`, parameters bound) or runs again. */
  | { readonly type: 'suspend'; readonly activation: number }
  | { readonly type: 'resume'; readonly activation: number };

/** The name of the global through which traced code reports; a test or tool installs a recorder there. */
export const TRACE_GLOBAL = '__pathprof_trace__';

/**
 * Collects the events traced code reports. Its methods are what the inserted code calls, so they stay tiny
 * and never throw.
 */
export class TraceRecorder {
  readonly events: TraceEvent[] = [];
  private nextActivation = 1;

  enter(graph: number): number {
    const activation = this.nextActivation++;
    this.events.push({ type: 'enter', activation, graph });
    return activation;
  }

  edge(activation: number, edge: number): void {
    this.events.push({ type: 'edge', activation, edge });
  }

  handler(activation: number, block: number): void {
    this.events.push({ type: 'handler', activation, block });
  }

  exceptionExit(activation: number): void {
    this.events.push({ type: 'exception-exit', activation });
  }

  suspend(activation: number): void {
    this.events.push({ type: 'suspend', activation });
  }

  resume(activation: number): void {
    this.events.push({ type: 'resume', activation });
  }
}
