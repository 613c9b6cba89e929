import type { ContextFrame } from './context-call-graph';
import { EncodingStack, type StackRun } from './encoding-stack';
import type { ContextNumbering, EncodedCallEdge } from './number-contexts';

/** What identifies a calling context at run time: the function, its id, and the encoding stack. */
export interface EncodedContext {
  readonly function: number;
  readonly id: number;
  readonly stack: readonly StackRun[];
}

/**
 * What a call site does for a given target: add its edge's value around the call, or (back edge, reduced
 * edge, or a target the site does not list) push `<id, site>` and reset the id.
 */
export type CallAction = { readonly kind: 'add'; readonly value: number } | { readonly kind: 'push' };

/** The action of each listed target of every site, for the instrumenter (and the encoder below). */
export function callActions(numbering: ContextNumbering): Map<number, Map<number, CallAction>> {
  const actions = new Map<number, Map<number, CallAction>>();
  for (const site of Object.keys(numbering.siteCaller)) actions.set(Number(site), new Map());
  const actionOf = (edge: EncodedCallEdge): CallAction =>
    edge.kind === 'numbered' ? { kind: 'add', value: edge.addition } : { kind: 'push' };
  for (const edge of numbering.edges) actions.get(edge.site)?.set(edge.callee, actionOf(edge));
  return actions;
}

/**
 * The instrumentation's semantics, as an object: one global id and one encoding stack, updated around calls
 * on the caller's side (Alg. 1 and 3), restored after each call by subtraction or pop. It also keeps the real
 * context as a shadow stack, which tests compare with what decoding recovers.
 */
export class ContextEncoder {
  private id = 0;
  private readonly stack = new EncodingStack();
  private readonly frames: { frame: ContextFrame; undo: CallAction | null }[] = [];
  private readonly actions: Map<number, Map<number, CallAction>>;

  constructor(private readonly numbering: ContextNumbering) {
    this.actions = callActions(numbering);
  }

  /** A context starts at an entry (the event loop calls a handler): a clean id and stack. */
  enter(entry: number): void {
    if (this.frames.length > 0) throw new Error('a context starts while another is running');
    this.requireDummyEdge(entry);
    this.frames.push({ frame: { function: entry, site: null }, undo: null });
  }

  call(site: number, callee: number): void {
    const top = this.frames.at(-1);
    const siteActions = this.actions.get(site);
    if (
      top === undefined ||
      siteActions === undefined ||
      this.numbering.siteCaller[site] !== top.frame.function
    ) {
      throw new Error(`call site ${site} is not in the running function`);
    }
    const action = siteActions.get(callee) ?? { kind: 'push' };
    if (action.kind === 'add') this.id += action.value;
    else {
      this.requireDummyEdge(callee);
      this.stack.push(this.id, site);
      this.id = 0;
    }
    this.frames.push({ frame: { function: callee, site }, undo: action });
  }

  /** The running function returns (or an exception unwinds it: the id is restored the same way). */
  return(): void {
    const top = this.frames.pop();
    if (top === undefined) throw new Error('return with no running function');
    if (top.undo === null) return;
    if (top.undo.kind === 'add') this.id -= top.undo.value;
    else this.id = this.stack.pop().id;
  }

  encoded(): EncodedContext {
    const top = this.frames.at(-1);
    if (top === undefined) throw new Error('no running function');
    return { function: top.frame.function, id: this.id, stack: this.stack.snapshot() };
  }

  /** The context as it really is, root first. */
  context(): ContextFrame[] {
    return this.frames.map(({ frame }) => frame);
  }

  private requireDummyEdge(f: number): void {
    if (!this.numbering.hasDummyEdge[f]) {
      throw new Error(
        `${this.numbering.functionNames[f]} starts a sub-path but has no dummy edge: make it an entry`,
      );
    }
  }
}
