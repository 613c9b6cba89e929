import type { CorrelatedDecisions } from './correlated-decisions';
import { ENTRY_DUMMY, EXIT_DUMMY, REAL_EDGE } from './dag';
import { PathDecoder, type DecodedPath } from './decode';
import type { PathNumbering } from './number-paths';

/**
 * How a path ends: by a return; by an exception a `throw` on the path raised (`throw`); by any other exception
 * (`exception`: a call, a property read, an `await` that rejects, or a `finally` rethrowing an exception that
 * entered it before the path began); on a removed back or cut edge.
 */
export type PathEndKind = 'return' | 'throw' | 'exception' | 'backedge' | 'cut';

/** How many potential paths end each way (see `PathEndKind`). */
export interface PathEndCounts {
  readonly return: number;
  readonly throw: number;
  readonly exception: number;
  readonly backedge: number;
  readonly cut: number;
  /** Of all paths, those that begin at function entry (the others begin after a removed edge). */
  readonly fromEntry: number;
}

/** Where paths pass: blocks (other than ENTRY and EXIT) they run, edges they take. */
export interface PathsThrough {
  readonly blocks?: Iterable<number>;
  readonly edges?: Iterable<number>;
}

/**
 * Per original edge, 1 where an exceptional edge is an explicit `throw`, and 1 where one rethrows the exception
 * pending when it was reached (the end of a `finally` entered by an exception). The graph does not know which
 * is which: its caller does (`@pathprof/cfg` edge kinds). Without origins every exceptional end is an
 * `exception`.
 */
export interface ExceptionOrigins {
  readonly explicit: ArrayLike<number>;
  readonly rethrow: ArrayLike<number>;
}

// Categories of the DP: the five ends, and P, a rethrow whose exception is raised before it on the path.
const R = 0;
const X = 1;
const I = 2;
const B = 3;
const C = 4;
const P = 5;
const CATEGORIES = 6;
const categoryOf: Readonly<Record<PathEndKind, number>> = {
  return: R,
  throw: X,
  exception: I,
  backedge: B,
  cut: C,
};

/** What an edge does to the exception a path is carrying. */
const RAISES_NOTHING = 0;
const RAISES_EXPLICIT = 1;
const RAISES_IMPLICIT = 2;
const RETHROWS = 3;

/**
 * A function's potential paths classified by how they end, counted without enumerating them (most potential
 * paths of a real function end by an implicit exception in one of its blocks, so a coverage figure over all
 * paths would mostly measure untested exceptions), a decoded path's end, and the numbers of the paths that end
 * some ways, in increasing order. A `finally` rethrow takes the kind of the last exception raised before it
 * on the path (none: `exception`).
 *
 * Given `through` (blocks other than ENTRY and EXIT, and edges: the code and the jumps on a source line), the
 * counts and the numbers are those of the paths that run one of those blocks or take one of those edges (a
 * decoded path's `blocks` or `edges` meet them); `kindOf` is unchanged.
 */
export class PathEnds {
  readonly counts: PathEndCounts;
  /** paths[v * CATEGORIES + c]: paths from block v to EXIT in category c. */
  private readonly paths: Float64Array;
  /** Given `through`: those of `paths` that pass it (from v on, v included); else `paths`. */
  private readonly pathsThrough: Float64Array;
  /** 1 for the blocks of `through` (all 1s without it: every path runs the function). */
  private readonly marked: Uint8Array;
  /** 1 for the DAG edges that take an edge of `through` (a real edge, or a removed one ending a path). */
  private readonly markedDag: Uint8Array;
  /** DAG out-edges per block, by increasing `Val` (so paths are visited in increasing number). */
  private readonly outStart: Int32Array;
  private readonly out: Int32Array;
  private readonly raises: Uint8Array;
  private readonly cuts: ReadonlySet<number>;

  constructor(
    private readonly numbering: PathNumbering,
    private readonly origins?: ExceptionOrigins,
    through?: PathsThrough,
  ) {
    const { dag, entry, exit, blockCount } = numbering;
    this.marked = new Uint8Array(blockCount).fill(through ? 0 : 1);
    this.markedDag = new Uint8Array(dag.edgeCount);
    const edges = new Set(through?.edges ?? []);
    for (let d = 0; d < dag.edgeCount; d++)
      if (dag.kind[d] !== ENTRY_DUMMY && edges.has(dag.origin[d])) this.markedDag[d] = 1;
    for (const b of through?.blocks ?? []) {
      if (b === entry || b === exit || !(b >= 0 && b < blockCount))
        throw new RangeError(
          `block ${b} is not a block with code (0 to ${blockCount - 1}, not ENTRY or EXIT)`,
        );
      this.marked[b] = 1;
    }
    this.raises = Uint8Array.from({ length: numbering.edgeCount }, (_, e) => this.raiseOf(e));
    this.cuts = new Set(numbering.removedEdges.filter((r) => r.kind === 'cut').map((r) => r.edge));
    this.outStart = new Int32Array(blockCount + 1);
    for (let d = 0; d < dag.edgeCount; d++) this.outStart[dag.src[d] + 1]++;
    for (let v = 0; v < blockCount; v++) this.outStart[v + 1] += this.outStart[v];
    const fill = this.outStart.slice(0, blockCount);
    this.out = new Int32Array(dag.edgeCount);
    for (let d = 0; d < dag.edgeCount; d++) this.out[fill[dag.src[d]]++] = d;
    for (let v = 0; v < blockCount; v++)
      this.out.subarray(this.outStart[v], this.outStart[v + 1]).sort((a, b) => dag.val[a] - dag.val[b]);
    const order = this.reverseTopologicalOrder();
    this.paths = this.countPaths(order, null);
    this.pathsThrough = through ? this.countPaths(order, this.paths) : this.paths;
    const paths = this.pathsThrough;
    const at = (c: number) => paths[entry * CATEGORIES + c];
    let fromEntry = 0;
    for (let i = this.outStart[entry]; i < this.outStart[entry + 1]; i++) {
      const d = this.out[i];
      if (dag.kind[d] === ENTRY_DUMMY) continue;
      const w = dag.dst[d];
      const from = this.markedDag[d] ? this.paths : paths;
      // Straight from ENTRY to EXIT runs no block of `through` (which holds neither).
      if (w === exit) fromEntry += through && !this.markedDag[d] ? 0 : 1;
      else for (let c = 0; c < CATEGORIES; c++) fromEntry += from[w * CATEGORIES + c];
    }
    this.counts = {
      return: at(R),
      throw: at(X),
      exception: at(I) + at(P),
      backedge: at(B),
      cut: at(C),
      fromEntry,
    };
  }

  /**
   * Paths from each block to EXIT by category, over `order` (reverse topological). With `all` (the counts of
   * every path), only the paths that run a marked block or take a marked edge: from there on, all of them.
   */
  private countPaths(order: readonly number[], all: Float64Array | null): Float64Array {
    const { dag, exit, blockCount } = this.numbering;
    const paths = new Float64Array(blockCount * CATEGORIES);
    for (const v of order) {
      if (all && this.marked[v]) {
        paths.set(all.subarray(v * CATEGORIES, (v + 1) * CATEGORIES), v * CATEGORIES);
        continue;
      }
      for (let i = this.outStart[v]; i < this.outStart[v + 1]; i++) {
        const d = this.out[i];
        const w = dag.dst[d];
        if (w === exit) {
          if (!all || this.markedDag[d]) paths[v * CATEGORIES + this.exitCategory(d)] += 1;
          continue;
        }
        const from = all && this.markedDag[d] ? all : paths;
        for (let c = 0; c < P; c++) paths[v * CATEGORIES + c] += from[w * CATEGORIES + c];
        // A rethrow further on carries the exception this edge raises, if it raises one.
        const raise = this.dagRaise(d);
        const pending = raise === RAISES_EXPLICIT ? X : raise === RAISES_IMPLICIT ? I : P;
        paths[v * CATEGORIES + pending] += from[w * CATEGORIES + P];
      }
    }
    return paths;
  }

  /** How a decoded path of this numbering ends. */
  kindOf(path: DecodedPath): PathEndKind {
    return this.kindOfNumber(path.pathNumber);
  }

  /** How path `pathNumber` ends, decoded without building a `DecodedPath` (cheapest in increasing order). */
  kindOfNumber(pathNumber: number): PathEndKind {
    const { dag, edgeExceptional } = this.numbering;
    const decoder = PathDecoder.of(this.numbering);
    const length = decoder.decode(pathNumber);
    const edges = decoder.dagEdges;
    const last = edges[length - 1];
    if (dag.kind[last] === EXIT_DUMMY) return this.cuts.has(dag.origin[last]) ? 'cut' : 'backedge';
    if (edgeExceptional[dag.origin[last]] !== 1) return 'return';
    for (let i = length - 1; i >= 0; i--) {
      const raise = this.dagRaise(edges[i]);
      if (raise === RAISES_EXPLICIT) return 'throw';
      if (raise === RAISES_IMPLICIT) return 'exception';
    }
    return 'exception';
  }

  /**
   * The numbers of the paths that end one of the ways in `kinds`, in increasing order, found by a walk that
   * only enters blocks from which such a path goes on: taking the first k of them costs k path lengths, however
   * many paths end otherwise.
   */
  *numbersEndingBy(kinds: readonly PathEndKind[]): Generator<number> {
    const wanted = new Uint8Array(CATEGORIES);
    for (const kind of kinds) wanted[categoryOf[kind]] = 1;
    const { dag, entry, exit } = this.numbering;
    // A pending rethrow ends as the last exception raised before it: explicit, or implicit (or none).
    const pendingWanted = (explicitLast: boolean) => wanted[explicitLast ? X : I] === 1;
    // Once a path has passed `through`, every way on is one; before, only those that pass it later.
    const reachable = (v: number, explicitLast: boolean, passed: boolean) => {
      const paths = passed ? this.paths : this.pathsThrough;
      let n = pendingWanted(explicitLast) ? paths[v * CATEGORIES + P] : 0;
      for (let c = 0; c < P; c++) if (wanted[c]) n += paths[v * CATEGORIES + c];
      return n > 0;
    };
    const passedAtEntry = this.pathsThrough === this.paths;
    const stack = [
      { v: entry, explicitLast: false, passed: passedAtEntry, base: 0, next: this.outStart[entry] },
    ];
    if (!reachable(entry, false, passedAtEntry)) return;
    while (stack.length > 0) {
      const frame = stack[stack.length - 1];
      if (frame.next === this.outStart[frame.v + 1]) {
        stack.pop();
        continue;
      }
      const d = this.out[frame.next++];
      const w = dag.dst[d];
      const number = frame.base + dag.val[d];
      const raise = this.dagRaise(d);
      const explicitLast =
        raise === RAISES_EXPLICIT ? true : raise === RAISES_IMPLICIT ? false : frame.explicitLast;
      if (w === exit) {
        const category = this.exitCategory(d);
        if (!frame.passed && !this.markedDag[d]) continue;
        if (category === P ? pendingWanted(explicitLast) : wanted[category] === 1) yield number;
        continue;
      }
      const passed = frame.passed || this.markedDag[d] === 1 || this.marked[w] === 1;
      if (reachable(w, explicitLast, passed)) {
        stack.push({ v: w, explicitLast, passed, base: number, next: this.outStart[w] });
      }
    }
  }

  /**
   * How many of the potential paths (given `through`, those that pass it, as `counts`) end each way among those
   * whose decisions leave each value of `decisions` a possible class (the feasible ones), counted without
   * enumerating them by a walk of the DAG in topological order whose state is the classes still possible per
   * value, the last exception raised (how a rethrow ends, as `kindOf` says) and whether the path has passed
   * `through`. Null when the walk would hold more than `maxStates` states in all, or the values have more than
   * 48 classes in all: the caller counts every path.
   */
  feasibleCounts(
    decisions: CorrelatedDecisions,
    maxStates = 100_000,
  ): Omit<PathEndCounts, 'fromEntry'> | null {
    // Each value's possible classes are a bit field of the state, times 3 for the last raise, times 2 for
    // `through` passed: exact below 2^53.
    if (decisions.classTotal > 48) return null;
    const { dag, entry, exit, blockCount } = this.numbering;
    const place = new Float64Array(decisions.valueCount);
    let all = 0;
    for (let v = 0, bits = 0; v < decisions.valueCount; bits += decisions.classCount[v++]) {
      place[v] = 2 ** bits;
      all += ((1 << decisions.classCount[v]) - 1) * place[v];
    }
    const byCategory = new Float64Array(CATEGORIES);
    const at: (Map<number, number> | undefined)[] = new Array<Map<number, number> | undefined>(blockCount);
    at[entry] = new Map([[all * 6 + this.marked[entry], 1]]);
    let states = 1;
    for (const v of this.reverseTopologicalOrder().reverse()) {
      const here = at[v];
      if (!here) continue;
      at[v] = undefined;
      for (let i = this.outStart[v]; i < this.outStart[v + 1]; i++) {
        const d = this.out[i];
        const w = dag.dst[d];
        // A path ending on a removed edge takes it (its decoded `edges` end with it).
        const e = dag.kind[d] === ENTRY_DUMMY ? -1 : dag.origin[d];
        const value = e < 0 ? -1 : decisions.valueOf[e];
        const at0 = value < 0 ? 0 : place[value];
        const width = value < 0 ? 1 : 2 ** decisions.classCount[value];
        const raise = this.dagRaise(d);
        for (const [key, n] of here) {
          const passed = key % 2 === 1 || this.markedDag[d] === 1 || (w !== exit && this.marked[w] === 1);
          let possible = Math.floor(key / 6);
          let last = Math.floor(key / 2) % 3;
          if (value >= 0) {
            const classes = Math.floor(possible / at0) % width;
            const left = classes & decisions.mask[e];
            if (left === 0) continue;
            possible += (left - classes) * at0;
          }
          if (raise === RAISES_EXPLICIT) last = X;
          else if (raise === RAISES_IMPLICIT) last = I;
          if (w === exit) {
            const category = this.exitCategory(d);
            if (passed) byCategory[category === P ? (last === X ? X : I) : category] += n;
            continue;
          }
          const next = at[w] ?? (at[w] = new Map<number, number>());
          const k = (possible * 3 + last) * 2 + (passed ? 1 : 0);
          const before = next.get(k);
          if (before !== undefined) next.set(k, before + n);
          else if (++states > maxStates) return null;
          else next.set(k, n);
        }
      }
    }
    return {
      return: byCategory[R],
      throw: byCategory[X],
      exception: byCategory[I],
      backedge: byCategory[B],
      cut: byCategory[C],
    };
  }

  private raiseOf(e: number): number {
    if (this.numbering.edgeExceptional[e] !== 1) return RAISES_NOTHING;
    if (this.origins?.rethrow[e] === 1) return RETHROWS;
    return this.origins?.explicit[e] === 1 ? RAISES_EXPLICIT : RAISES_IMPLICIT;
  }

  private dagRaise(d: number): number {
    const { dag } = this.numbering;
    return dag.kind[d] === REAL_EDGE ? this.raises[dag.origin[d]] : RAISES_NOTHING;
  }

  /** The category of a path whose last DAG edge is `d` (into EXIT). */
  private exitCategory(d: number): number {
    const { dag } = this.numbering;
    if (dag.kind[d] === EXIT_DUMMY) return this.cuts.has(dag.origin[d]) ? C : B;
    return [R, X, I, P][this.raises[dag.origin[d]]];
  }

  /** Blocks in reverse topological order of the DAG, by an iterative DFS postorder from ENTRY. */
  private reverseTopologicalOrder(): number[] {
    const { dag, entry, blockCount } = this.numbering;
    const order: number[] = [];
    const seen = new Uint8Array(blockCount);
    const stack: number[] = [entry];
    const next = this.outStart.slice(0, blockCount);
    seen[entry] = 1;
    while (stack.length > 0) {
      const v = stack[stack.length - 1];
      if (next[v] < this.outStart[v + 1]) {
        const w = dag.dst[this.out[next[v]++]];
        if (seen[w] === 0) {
          seen[w] = 1;
          stack.push(w);
        }
      } else {
        stack.pop();
        order.push(v);
      }
    }
    return order;
  }
}

/** A function's potential paths by how they end (`PathEnds`), without enumerating them. */
export function countPathEnds(numbering: PathNumbering, origins?: ExceptionOrigins): PathEndCounts {
  return new PathEnds(numbering, origins).counts;
}
