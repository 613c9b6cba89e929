import { stackKidHash } from './hashes';
import { pathCounter, type PathCounter } from './path-counter';
import { ValueCounter } from './value-counter';

// A node's fields, as 32-bit slots of its line: 16 slots, one 64-byte cache line, the last two holding its
// count `n` (a float64). Everything a push and the count of the entry it starts read is in the two lines of
// the stack pushed on and the node it gives.
/** The node this one was pushed on (its parent, but for a run's node: the run one shorter). */
const FROM = 0;
const CALLER = 1;
const SITE = 2;
const CALLEE = 3;
/** 1 for a cut node. */
const CUT = 4;
const RUN = 5;
const LAST_CALLER = 6;
const LAST_SITE = 7;
const LAST_CALLEE = 8;
const LAST_KID = 9;
const PREV_CALLER = 10;
const PREV_SITE = 11;
const PREV_CALLEE = 12;
const PREV_KID = 13;
/** Slot of `n` in the float64 view of a line (32-bit slots 14 and 15). */
const N = 7;
const LINE = 16;
const LINE_SHIFT = 4;
const F64_SHIFT = 3;

/** The empty stack's id. */
export const ROOT_STACK = 0;

/**
 * The encoding stacks of precise calling-context encoding (Sumner et al., ICSE 2010) one realm has made,
 * interned: a node is the stack below it plus one entry, `<caller, site>`, pushed when a function was entered
 * other than by a numbered call (a callback, a method, another file, recursion): `caller` is the realm-wide
 * context value of the activation that was running (its file, function and context id), `site` the call site
 * in the caller's file that made the call (1 + its id; 0 when unknown). Identical consecutive entries are one
 * run (`run` times), as deep recursion pushes them, so walking a stack costs one step per run. Node 0 is the
 * empty stack; the others are numbered in the order they were made.
 *
 * Nodes are integer ids and their fields live in typed arrays, one cache line per node, with the pushes made
 * on all of them found in one open-addressing table of ids keyed by (node pushed on, caller, site, callee): a
 * push reads a line or two instead of chasing objects through the heap, and garbage collection has no
 * objects to walk. Nodes are kept per function entered by the push (`callee`, the value of its context id 0),
 * though the stack is the same for every callee: the entry into that context is then a field, `n`, not a
 * table update, and the push finds its node among few; so is its path counter when paths are counted per
 * context. Other contexts on a stack (reached by numbered calls from the callee) are counted in a table of
 * the node's, keyed by their realm-wide value, with their path counters. A cut node stands for everything
 * pushed on its parent once the realm held its most nodes: contexts under it are known up to the parent, then
 * cut. Its `callee` is the function whose entry made it (no caller, no site): a recursion that fills the realm
 * (fib) enters the same function under its cut nodes over and over, counted in the field as on any node.
 *
 * Each node also keeps its last two pushes, by what was pushed (`<caller, site>` entering `callee`) and the
 * node it gave (a kid, or the cut node once the realm is full): a loop pushes the same entries over and over,
 * a recursion two in turn, and `ContextState.enter` finds them in the node's own line (`lastPush`).
 */
export class ContextStacks {
  /** The nodes' lines; `counts` views the same bytes as float64s. */
  lines: Int32Array;
  counts: Float64Array;
  /** Each node's parent (-1 for the root). */
  private parents: Int32Array;
  /** Each node's cut node, once made (0 before). */
  private cuts: Int32Array;
  /** Nodes made so far, the root included. */
  size = 1;
  /** The path counter of each node's callee's context id 0 (paths per context), once made. */
  private readonly calleePaths: (PathCounter | undefined)[] = [undefined];
  /** Each node's counts, and path counters, of the other contexts on it. */
  private readonly others: (ValueCounter | undefined)[] = [undefined];
  /** Node ids by (node pushed on, caller, site, callee), 0 in a free slot; at most half full. */
  private kids = new Int32Array(1024);

  constructor() {
    this.lines = new Int32Array(1024 * LINE);
    this.counts = new Float64Array(this.lines.buffer);
    this.parents = new Int32Array(1024);
    this.cuts = new Int32Array(1024);
    this.set(ROOT_STACK, -1, -1, -1, 0, -1, 0, false);
  }

  parent(s: number): number {
    return this.parents[s];
  }

  caller(s: number): number {
    return this.lines[(s << LINE_SHIFT) + CALLER];
  }

  site(s: number): number {
    return this.lines[(s << LINE_SHIFT) + SITE];
  }

  callee(s: number): number {
    return this.lines[(s << LINE_SHIFT) + CALLEE];
  }

  run(s: number): number {
    return this.lines[(s << LINE_SHIFT) + RUN];
  }

  cut(s: number): boolean {
    return this.lines[(s << LINE_SHIFT) + CUT] !== 0;
  }

  /**
   * The node stack `s` gives for a push of `<caller, site>` entering `callee` without a lookup: itself when
   * cut, else the node its last or next-to-last push gave when this is the same push; -1 when neither.
   */
  lastPush(s: number, caller: number, site: number, callee: number): number {
    const lines = this.lines;
    const o = s << LINE_SHIFT;
    if (lines[o + CUT] !== 0) return s;
    if (
      lines[o + LAST_CALLER] === caller &&
      lines[o + LAST_SITE] === site &&
      lines[o + LAST_CALLEE] === callee
    )
      return lines[o + LAST_KID];
    if (
      lines[o + PREV_CALLER] === caller &&
      lines[o + PREV_SITE] === site &&
      lines[o + PREV_CALLEE] === callee
    )
      return lines[o + PREV_KID];
    return -1;
  }

  /** Counts one entry into the context with value `v` on stack `s`. */
  inc(s: number, v: number): void {
    if (this.lines[(s << LINE_SHIFT) + CALLEE] === v) this.counts[(s << F64_SHIFT) + N]++;
    else (this.others[s] ??= new ValueCounter()).inc(v);
  }

  /**
   * What was counted on each stack since it was last cleared, without making lists (the profile writer walks
   * every stack, 100,000 of them once the realm is full): stacks in the order they were made, each stack's
   * entries to `entry` (the callee's first, then the others in the order they were first counted), then its
   * path counters to `paths` in the same order.
   */
  eachCounted(
    entry: (s: number, v: number, n: number) => void,
    paths: (s: number, v: number, counter: PathCounter) => void,
  ): void {
    for (let s = 1; s < this.size; s++) {
      const callee = this.callee(s);
      const n = this.counts[(s << F64_SHIFT) + N];
      const own = this.calleePaths[s];
      const others = this.others[s];
      if (n > 0) entry(s, callee, n);
      if (others) for (const [v, m] of others.entries()) entry(s, v, m);
      if (own) paths(s, callee, own);
      if (others) for (const [v, counter] of others.pathCounters()) paths(s, v, counter);
    }
  }

  /** Whether an entry into values `lo … hi - 1` was counted on some stack since they were last cleared. */
  countedInto(lo: number, hi: number): boolean {
    for (let s = 1; s < this.size; s++) {
      const callee = this.callee(s);
      if (callee >= lo && callee < hi && this.counts[(s << F64_SHIFT) + N] > 0) return true;
      if (this.others[s]?.entries().some(([v]) => v >= lo && v < hi)) return true;
    }
    return false;
  }

  /** Forgets the entries and paths counted on every stack into values `lo … hi - 1`. */
  clear(lo: number, hi: number): void {
    for (let s = 0; s < this.size; s++) {
      const callee = this.callee(s);
      if (callee >= lo && callee < hi) {
        this.counts[(s << F64_SHIFT) + N] = 0;
        this.calleePaths[s] = undefined;
      }
      this.others[s]?.clear(lo, hi);
    }
  }

  /**
   * Counts one entry into the context with value `v` on stack `s` (`inc`) and returns its path counter, made
   * on first use.
   */
  incPaths(s: number, v: number, pathCount: number, hashThreshold: number): PathCounter {
    if (this.lines[(s << LINE_SHIFT) + CALLEE] !== v)
      return (this.others[s] ??= new ValueCounter()).incPaths(v, pathCount, hashThreshold);
    this.counts[(s << F64_SHIFT) + N]++;
    return (this.calleePaths[s] ??= pathCounter(pathCount, hashThreshold));
  }

  /** The path counter of the context with value `v` on stack `s`, made on first use. */
  pathsOf(s: number, v: number, pathCount: number, hashThreshold: number): PathCounter {
    if (v === this.callee(s)) return (this.calleePaths[s] ??= pathCounter(pathCount, hashThreshold));
    return (this.others[s] ??= new ValueCounter()).pathsOf(v, pathCount, hashThreshold);
  }

  /**
   * Stack `s` with `<caller, site>` pushed, entering `callee`: a run one longer when `s` ends in that entry.
   * Once the realm holds `maxStacks` nodes besides the root, a new push gives its parent's cut node, and
   * pushes on a cut node give itself.
   */
  push(s: number, caller: number, site: number, callee: number, maxStacks: number): number {
    const o = s << LINE_SHIFT;
    if (this.lines[o + CUT] !== 0) return s;
    const node = this.kidOf(s, caller, site, callee, maxStacks);
    const lines = this.lines;
    lines[o + PREV_CALLER] = lines[o + LAST_CALLER];
    lines[o + PREV_SITE] = lines[o + LAST_SITE];
    lines[o + PREV_CALLEE] = lines[o + LAST_CALLEE];
    lines[o + PREV_KID] = lines[o + LAST_KID];
    lines[o + LAST_CALLER] = caller;
    lines[o + LAST_SITE] = site;
    lines[o + LAST_CALLEE] = callee;
    lines[o + LAST_KID] = node;
    return node;
  }

  private kidOf(s: number, caller: number, site: number, callee: number, maxStacks: number): number {
    const known = this.kid(s, caller, site, callee);
    if (known !== 0) return known;
    let kid: number;
    if (this.size > maxStacks) {
      const cut = this.cuts[s];
      if (cut !== 0) return cut;
      // Not `this.cuts[s] = this.add(…)`: that stores into the array read before `add` may replace it.
      kid = this.add(s, s, -1, 0, callee, 0, true);
      this.cuts[s] = kid;
    } else if (
      s !== ROOT_STACK &&
      this.caller(s) === caller &&
      this.site(s) === site &&
      this.callee(s) === callee
    ) {
      kid = this.add(this.parent(s), s, caller, site, callee, this.run(s) + 1, false);
    } else {
      kid = this.add(s, s, caller, site, callee, 1, false);
    }
    return kid;
  }

  /** The node a push of `<caller, site>` entering `callee` on `s` made before, 0 if none. */
  private kid(s: number, caller: number, site: number, callee: number): number {
    const kids = this.kids;
    const lines = this.lines;
    const mask = kids.length - 1;
    for (let i = stackKidHash(s, caller, site, callee) & mask; ; i = (i + 1) & mask) {
      const k = kids[i];
      if (k === 0) return 0;
      const o = k << LINE_SHIFT;
      if (
        lines[o + FROM] === s &&
        lines[o + CALLER] === caller &&
        lines[o + CALLEE] === callee &&
        lines[o + SITE] === site
      )
        return k;
    }
  }

  private add(
    parent: number,
    from: number,
    caller: number,
    site: number,
    callee: number,
    run: number,
    cut: boolean,
  ): number {
    const id = this.size++;
    if (id === this.parents.length) this.growNodes();
    this.set(id, parent, from, caller, site, callee, run, cut);
    this.calleePaths.push(undefined);
    this.others.push(undefined);
    if (this.size * 2 > this.kids.length) this.growKids();
    this.placeKid(this.kids, id);
    return id;
  }

  private set(
    id: number,
    parent: number,
    from: number,
    caller: number,
    site: number,
    callee: number,
    run: number,
    cut: boolean,
  ): void {
    const lines = this.lines;
    const o = id << LINE_SHIFT;
    this.parents[id] = parent;
    lines[o + FROM] = from;
    lines[o + CALLER] = caller;
    lines[o + SITE] = site;
    lines[o + CALLEE] = callee;
    lines[o + CUT] = cut ? 1 : 0;
    lines[o + RUN] = run;
    lines[o + LAST_CALLER] = -1;
    lines[o + LAST_CALLEE] = -1;
    lines[o + PREV_CALLER] = -1;
    lines[o + PREV_CALLEE] = -1;
  }

  /** Puts node `id` in `kids` (with a free slot) under what made it. */
  private placeKid(kids: Int32Array, id: number): void {
    const lines = this.lines;
    const o = id << LINE_SHIFT;
    const mask = kids.length - 1;
    let i = stackKidHash(lines[o + FROM], lines[o + CALLER], lines[o + SITE], lines[o + CALLEE]) & mask;
    while (kids[i] !== 0) i = (i + 1) & mask;
    kids[i] = id;
  }

  private growNodes(): void {
    const capacity = this.parents.length * 2;
    const lines = new Int32Array(capacity * LINE);
    lines.set(this.lines);
    this.lines = lines;
    this.counts = new Float64Array(lines.buffer);
    const parents = new Int32Array(capacity);
    parents.set(this.parents);
    this.parents = parents;
    const cuts = new Int32Array(capacity);
    cuts.set(this.cuts);
    this.cuts = cuts;
  }

  private growKids(): void {
    const kids = new Int32Array(this.kids.length * 2);
    for (let id = 1; id < this.size - 1; id++) this.placeKid(kids, id);
    this.kids = kids;
  }
}
