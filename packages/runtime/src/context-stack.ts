import { HashCounter } from './hash-counter';

/** A path counter of one function in one calling context: an array, or a hash table for many paths. */
export type PathCounter = Float64Array | HashCounter;

/** Makes the path counter of a function with `pathCount` paths: a hash table above `hashThreshold`. */
export function pathCounter(pathCount: number, hashThreshold: number): PathCounter {
  return pathCount > hashThreshold ? new HashCounter() : new Float64Array(pathCount);
}

/**
 * One encoding stack of precise calling-context encoding (Sumner et al., ICSE 2010), interned: a node is the
 * stack below it plus one entry, `<caller, site>`, pushed when a function was entered other than by a numbered
 * call (a callback, a method, another file, recursion): `caller` is the realm-wide context value of the
 * activation that was running (its file, function and context id), `site` the call site in the caller's file
 * that made the call (1 + its id; 0 when unknown). Identical consecutive entries are one run (`run` times),
 * as deep recursion pushes them, so walking a stack costs one step per run. The root is the empty stack.
 *
 * Contexts are counted per node, keyed by the realm-wide value of the running function's context: `counts`
 * (entries) and, when paths are counted per context, `paths`. A `cut` node stands for everything pushed on its
 * parent once the realm held its most nodes: contexts under it are known up to the parent, then cut.
 */
export class ContextNode {
  kids: Map<number, ContextNode> | null = null;
  private lastKey = -1;
  private lastKid: ContextNode | null = null;
  readonly counts = new Map<number, number>();
  paths: Map<number, PathCounter> | null = null;

  constructor(
    /** 0 for the root; then in the order nodes were made. */
    readonly id: number,
    readonly parent: ContextNode | null,
    readonly caller: number,
    readonly site: number,
    readonly run: number,
    readonly cut: boolean,
  ) {}

  /** Counts one entry into the context with value `v` on this stack. */
  inc(v: number): void {
    this.counts.set(v, (this.counts.get(v) ?? 0) + 1);
  }

  /** The path counter of the context with value `v` on this stack, made on first use. */
  pathsOf(v: number, pathCount: number, hashThreshold: number): PathCounter {
    const paths = (this.paths ??= new Map());
    let counter = paths.get(v);
    if (counter === undefined) paths.set(v, (counter = pathCounter(pathCount, hashThreshold)));
    return counter;
  }

  /** The node one push of `<caller, site>` leads to, if made before. */
  kid(key: number): ContextNode | undefined {
    if (key === this.lastKey) return this.lastKid!;
    const kid = this.kids?.get(key);
    if (kid !== undefined) {
      this.lastKey = key;
      this.lastKid = kid;
    }
    return kid;
  }

  addKid(key: number, kid: ContextNode): void {
    (this.kids ??= new Map()).set(key, kid);
    this.lastKey = key;
    this.lastKid = kid;
  }
}

/** Sites are below this in a push's key (`caller * SITE_SPACE + site`); later sites push as unknown ones. */
export const SITE_SPACE = 2 ** 20;

/** The key under which `<caller, site>` is pushed on a node; a cut node's children are all its cut node. */
export function pushKey(caller: number, site: number): number {
  return caller * SITE_SPACE + (site < SITE_SPACE ? site : 0);
}
