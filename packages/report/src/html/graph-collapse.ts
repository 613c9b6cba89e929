import type { FunctionMetadata } from 'babel-plugin-pathprof';

/**
 * A large function's graph with regions collapsed into single nodes, so that it can be drawn: `groupOf[b]` is
 * the block standing for `b`'s group (itself when not collapsed), `groups` how many nodes are left.
 */
export interface CollapsedGraph {
  readonly groupOf: Int32Array;
  readonly groups: number;
}

/**
 * Collapses single-entry single-exit regions, innermost first, until at most `most` nodes are left: a region
 * is a block `h` with every block `h` dominates and its immediate postdominator postdominates (an `if` with its
 * arms, a loop, the rest of a `switch`'s cases), as in the program structure tree. What is left is the
 * function's outline: a 3,000-case switch shows its first cases, then one node for the rest. If regions do not
 * suffice, straight runs of nodes are merged. Dominance is over normal edges: every block that may throw has an
 * exceptional edge to the exit, which would make the exit every such block's postdominator. Null when even
 * then more than `most` nodes are left. Entry and exit are never collapsed.
 */
export function collapseGraph(
  meta: FunctionMetadata,
  entry: number,
  exit: number,
  most: number,
): CollapsedGraph | null {
  const n = meta.blockCount;
  const exceptional = new Set(meta.exceptional);
  const succ: number[][] = Array.from({ length: n }, () => []);
  const pred: number[][] = Array.from({ length: n }, () => []);
  const drawn = new Uint8Array(n);
  for (let e = 0; e < meta.edges.length / 3; e++) {
    const [from, to] = [meta.edges[3 * e], meta.edges[3 * e + 1]];
    drawn[from] = drawn[to] = 1;
    if (exceptional.has(e)) continue;
    succ[from].push(to);
    pred[to].push(from);
  }
  const dom = new DominatorTree(n, succ, pred, entry);
  const postdom = new DominatorTree(n, pred, succ, exit);
  const regions: number[][] = [];
  for (let h = 0; h < n; h++) {
    const x = postdom.idom[h];
    if (h === entry || h === exit || x < 0 || dom.idom[h] < 0) continue;
    const members = dom.subtree(h).filter((b) => b !== x && postdom.dominates(x, b));
    if (members.length > 1) regions.push(members);
  }
  regions.sort((a, b) => a.length - b.length || a[0] - b[0]);
  const groups = new UnionFind(n);
  let count = drawn.reduce((sum, d) => sum + d, 0);
  for (const members of regions) {
    if (count <= most) break;
    count -= groups.unite(members);
  }
  // Then straight runs: a node whose only normal successor has it as its only normal predecessor.
  for (let merged = true; count > most && merged;) {
    merged = false;
    for (let b = 0; b < n && count > most; b++) {
      if (b === entry || b === exit || !drawn[b] || groups.find(b) !== b) continue;
      const next = distinctGroups(groups, b, succ);
      if (next.length !== 1 || next[0] === groups.find(exit)) continue;
      if (distinctGroups(groups, next[0], pred).length !== 1) continue;
      count -= groups.unite([b, next[0]]);
      merged = true;
    }
  }
  if (count > most) return null;
  return { groupOf: Int32Array.from({ length: n }, (_, b) => groups.find(b)), groups: count };
}

/** The groups, other than `b`'s own, that the blocks of `b`'s group reach by `links`. */
function distinctGroups(groups: UnionFind, b: number, links: readonly number[][]): number[] {
  const own = groups.find(b);
  const out = new Set<number>();
  for (const member of groups.members(own)) for (const c of links[member]) out.add(groups.find(c));
  out.delete(own);
  return [...out];
}

/** Immediate dominators from `root` along `succ` (Cooper, Harvey and Kennedy's iteration), as a tree. */
class DominatorTree {
  /** Per block its immediate dominator (the root its own), -1 when `root` does not reach it. */
  readonly idom: Int32Array;
  private readonly pre: Int32Array;
  private readonly end: Int32Array;
  private readonly order: number[] = [];

  constructor(n: number, succ: readonly number[][], pred: readonly number[][], root: number) {
    const postorder: number[] = [];
    const seen = new Uint8Array(n);
    const stack: [number, number][] = [[root, 0]];
    seen[root] = 1;
    while (stack.length) {
      const top = stack[stack.length - 1];
      const next = succ[top[0]][top[1]++];
      if (next === undefined) {
        postorder.push(top[0]);
        stack.pop();
      } else if (!seen[next]) {
        seen[next] = 1;
        stack.push([next, 0]);
      }
    }
    const rank = new Int32Array(n).fill(-1);
    postorder.forEach((b, i) => (rank[b] = i));
    this.idom = new Int32Array(n).fill(-1);
    this.idom[root] = root;
    const intersect = (a: number, b: number) => {
      while (a !== b) {
        while (rank[a] < rank[b]) a = this.idom[a];
        while (rank[b] < rank[a]) b = this.idom[b];
      }
      return a;
    };
    for (let changed = true; changed;) {
      changed = false;
      for (let i = postorder.length - 1; i >= 0; i--) {
        const b = postorder[i];
        if (b === root) continue;
        let d = -1;
        for (const p of pred[b]) if (this.idom[p] >= 0) d = d < 0 ? p : intersect(p, d);
        if (d !== this.idom[b]) {
          this.idom[b] = d;
          changed = true;
        }
      }
    }
    // Preorder intervals of the tree: `a` dominates `b` when `b`'s number falls in `a`'s interval.
    const children: number[][] = Array.from({ length: n }, () => []);
    for (let b = 0; b < n; b++) if (b !== root && this.idom[b] >= 0) children[this.idom[b]].push(b);
    this.pre = new Int32Array(n).fill(-1);
    this.end = new Int32Array(n).fill(-1);
    const walk: [number, number][] = [[root, 0]];
    this.pre[root] = this.order.push(root) - 1;
    while (walk.length) {
      const top = walk[walk.length - 1];
      const child = children[top[0]][top[1]++];
      if (child === undefined) {
        this.end[top[0]] = this.order.length;
        walk.pop();
      } else {
        this.pre[child] = this.order.push(child) - 1;
        walk.push([child, 0]);
      }
    }
  }

  dominates(a: number, b: number): boolean {
    return this.pre[a] >= 0 && this.pre[b] >= this.pre[a] && this.pre[b] < this.end[a];
  }

  /** `a` and every block it dominates. */
  subtree(a: number): number[] {
    return this.pre[a] < 0 ? [] : this.order.slice(this.pre[a], this.end[a]);
  }
}

/** Disjoint sets of blocks, each with the list of its members. */
class UnionFind {
  private readonly parent: Int32Array;
  private readonly lists: number[][];
  /** Which roots a `unite` has seen: those stamped with its round. */
  private readonly stamp: Int32Array;
  private round = 1;

  constructor(n: number) {
    this.parent = Int32Array.from({ length: n }, (_, i) => i);
    this.stamp = new Int32Array(n);
    this.lists = Array.from({ length: n }, (_, i) => [i]);
  }

  find(a: number): number {
    while (this.parent[a] !== a) a = this.parent[a] = this.parent[this.parent[a]];
    return a;
  }

  members(root: number): readonly number[] {
    return this.lists[root];
  }

  /** Unites the sets of `blocks`; returns by how many the number of sets fell. */
  unite(blocks: readonly number[]): number {
    const roots: number[] = [];
    for (const b of blocks) {
      const root = this.find(b);
      if (this.stamp[root] !== this.round) roots.push(root);
      this.stamp[root] = this.round;
    }
    this.round++;
    // The largest set absorbs the others, so a member moves O(log n) times.
    roots.sort((a, b) => this.lists[b].length - this.lists[a].length);
    const [into, ...rest] = roots;
    for (const r of rest) {
      this.parent[r] = into;
      for (const m of this.lists[r]) this.lists[into].push(m);
      this.lists[r] = [];
    }
    return rest.length;
  }
}
