import { stackEntryHash } from './hashes';
import { pathCounter, type PathCounter } from './path-counter';
import { ValueCounter } from './value-counter';

/**
 * One encoding stack of precise calling-context encoding (Sumner et al., ICSE 2010), interned: a node is the
 * stack below it plus one entry, `<caller, site>`, pushed when a function was entered other than by a numbered
 * call (a callback, a method, another file, recursion): `caller` is the realm-wide context value of the
 * activation that was running (its file, function and context id), `site` the call site in the caller's file
 * that made the call (1 + its id; 0 when unknown). Identical consecutive entries are one run (`run` times),
 * as deep recursion pushes them, so walking a stack costs one step per run. The root is the empty stack.
 *
 * Nodes are kept per function entered by the push (`callee`, the value of its context id 0), though the stack
 * is the same for every callee: the entry into that context is then a field, `n`, not a map update, and the
 * push finds its node among few; so is its path counter when paths are counted per context (`P`). Other contexts
 * on the stack (reached by numbered calls from the callee) are counted in `others`, keyed by their realm-wide
 * value, with their path counters. A `cut` node stands for everything pushed on its parent once the realm held
 * its most nodes: contexts under it are known up to the parent, then cut.
 */
export class ContextNode {
  /** Entries into the callee's context id 0 on this stack. */
  n = 0;
  /** The path counter of the callee's context id 0 on this stack (paths per context), once made. */
  P: PathCounter | null = null;
  /** Entries into other contexts on this stack, and their path counters. */
  private others: ValueCounter | null = null;
  /** The nodes pushed on this one, in an open-addressing table hashed on caller, site and callee. */
  private kids: (ContextNode | undefined)[] | null = null;
  private kidCount = 0;
  /**
   * The last two pushes on this stack, by what was pushed (`<caller, site>` entering `callee`) and the node it
   * gave (a kid, or the cut node once the realm is full): a loop pushes the same entries over and over, a
   * recursion two in turn, and `ContextState.enter` finds them here comparing this node's own fields, without
   * a call or a walk of the kids.
   */
  lastKid: ContextNode | null = null;
  lastCaller = -1;
  lastSite = 0;
  lastCallee = -1;
  prevKid: ContextNode | null = null;
  prevCaller = -1;
  prevSite = 0;
  prevCallee = -1;

  constructor(
    /** 0 for the root; then in the order nodes were made. */
    readonly id: number,
    readonly parent: ContextNode | null,
    readonly caller: number,
    readonly site: number,
    readonly callee: number,
    readonly run: number,
    readonly cut: boolean,
  ) {}

  /** Counts one entry into the context with value `v` on this stack. */
  inc(v: number): void {
    if (v === this.callee) this.n++;
    else (this.others ??= new ValueCounter()).inc(v);
  }

  /** The entries counted on this stack, by value. */
  entries(): [number, number][] {
    const out: [number, number][] = this.n > 0 ? [[this.callee, this.n]] : [];
    if (this.others) out.push(...this.others.entries());
    return out;
  }

  /** The path counters of the contexts on this stack, by value. */
  pathCounters(): [number, PathCounter][] {
    const out: [number, PathCounter][] = this.P ? [[this.callee, this.P]] : [];
    if (this.others) out.push(...this.others.pathCounters());
    return out;
  }

  /** Forgets the entries and paths counted on this stack into values `lo … hi - 1`. */
  clear(lo: number, hi: number): void {
    if (this.callee >= lo && this.callee < hi) {
      this.n = 0;
      this.P = null;
    }
    this.others?.clear(lo, hi);
  }

  /** The path counter of the context with value `v` on this stack, made on first use. */
  pathsOf(v: number, pathCount: number, hashThreshold: number): PathCounter {
    if (v === this.callee) return (this.P ??= pathCounter(pathCount, hashThreshold));
    return (this.others ??= new ValueCounter()).pathsOf(v, pathCount, hashThreshold);
  }

  /** Notes that pushing `<caller, site>` entering `callee` on this stack gave `node`. */
  remember(caller: number, site: number, callee: number, node: ContextNode): void {
    this.prevKid = this.lastKid;
    this.prevCaller = this.lastCaller;
    this.prevSite = this.lastSite;
    this.prevCallee = this.lastCallee;
    this.lastKid = node;
    this.lastCaller = caller;
    this.lastSite = site;
    this.lastCallee = callee;
  }

  /** The node a push of `<caller, site>` entering `callee` made before, if any. */
  kid(caller: number, site: number, callee: number): ContextNode | undefined {
    const kids = this.kids;
    if (kids === null) return undefined;
    const mask = kids.length - 1;
    for (let i = stackEntryHash(caller, site, callee) & mask; ; i = (i + 1) & mask) {
      const k = kids[i];
      if (k === undefined) return undefined;
      if (k.caller === caller && k.callee === callee && k.site === site) return k;
    }
  }

  addKid(kid: ContextNode): void {
    if (this.kids === null || ++this.kidCount * 2 > this.kids.length) this.growKids();
    const kids = this.kids!;
    const mask = kids.length - 1;
    let i = stackEntryHash(kid.caller, kid.site, kid.callee) & mask;
    while (kids[i] !== undefined) i = (i + 1) & mask;
    kids[i] = kid;
  }

  private growKids(): void {
    const old = this.kids ?? [];
    // Filled with a loop: `Array` and `Math` are globals, slow to read in a vm context (hashes.ts).
    const size = old.length === 0 ? 4 : old.length * 2;
    this.kids = [];
    for (let i = 0; i < size; i++) this.kids.push(undefined);
    this.kidCount = old.reduce((n, k) => n + (k ? 1 : 0), 1);
    const mask = this.kids.length - 1;
    for (const k of old) {
      if (k === undefined) continue;
      let i = stackEntryHash(k.caller, k.site, k.callee) & mask;
      while (this.kids[i] !== undefined) i = (i + 1) & mask;
      this.kids[i] = k;
    }
  }
}
