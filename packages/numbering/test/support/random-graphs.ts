import type { FlowGraph } from '@pathprof/numbering';
import type { Random } from '@pathprof/testkit';

/** Accumulates a graph's edges; blocks are numbered as they are created. */
class GraphBuilder {
  blockCount = 0;
  readonly src: number[] = [];
  readonly dst: number[] = [];
  readonly exceptional: number[] = [];
  readonly throws: boolean[] = [];

  block(): number {
    this.throws.push(false);
    return this.blockCount++;
  }

  edge(from: number, to: number, exceptional = false): void {
    this.src.push(from);
    this.dst.push(to);
    this.exceptional.push(exceptional ? 1 : 0);
    if (exceptional) this.throws[from] = true;
  }

  build(entry: number, exit: number): FlowGraph {
    return {
      blockCount: this.blockCount,
      entry,
      exit,
      edgeCount: this.src.length,
      edgeSrc: Int32Array.from(this.src),
      edgeDst: Int32Array.from(this.dst),
      edgeExceptional: Uint8Array.from(this.exceptional),
    };
  }
}

/**
 * An unstructured graph: blocks `0 .. n-1` (entry 0, exit n-1), a random tree of forward edges for reachability,
 * a forward edge out of every block so it reaches the exit, then random extra edges: forward jumps (entering
 * loops in the middle, hence irreducible regions), backward edges (loops, self-loops), parallel copies and
 * returns. Exceptional edges go to the exit or to a later handler that cannot reach back to the thrower.
 */
export function unstructuredGraph(rng: Random, maxBlocks: number, exceptions: boolean): FlowGraph {
  const n = rng.range(2, maxBlocks);
  const b = new GraphBuilder();
  for (let i = 0; i < n; i++) b.block();
  const exit = n - 1;
  if (n === 2) b.edge(0, 1);
  for (let i = 1; i < exit; i++) b.edge(rng.int(i), i);
  for (let i = 1; i < exit; i++) b.edge(i, rng.range(i + 1, exit));
  const extra = rng.int(Math.ceil(n * 1.2) + 1);
  for (let k = 0; k < extra && n > 2; k++) {
    const kind = rng.int(4);
    if (kind === 0) {
      const from = rng.int(exit - 1);
      b.edge(from, rng.range(from + 1, exit));
    } else if (kind === 1) {
      const from = rng.range(1, exit - 1);
      b.edge(from, rng.range(1, from));
    } else if (kind === 2) {
      const e = rng.int(b.src.length);
      b.edge(b.src[e], b.dst[e]);
    } else {
      b.edge(rng.range(1, exit - 1), exit);
    }
  }
  if (exceptions) {
    for (let v = 1; v < exit; v++) {
      if (!rng.chance(0.3)) continue;
      const handler = rng.chance(0.5) || v + 1 >= exit ? exit : rng.range(v + 1, exit - 1);
      if (handler === exit || !reaches(b, handler, v)) b.edge(v, handler, true);
    }
  }
  return b.build(0, exit);
}

function reaches(b: GraphBuilder, from: number, to: number): boolean {
  const seen = new Uint8Array(b.blockCount);
  const stack = [from];
  seen[from] = 1;
  while (stack.length > 0) {
    const v = stack.pop() as number;
    if (v === to) return true;
    for (let e = 0; e < b.src.length; e++) {
      if (b.src[e] === v && seen[b.dst[e]] === 0) {
        seen[b.dst[e]] = 1;
        stack.push(b.dst[e]);
      }
    }
  }
  return false;
}

interface Context {
  /** Where an exception thrown here goes: the innermost enclosing catch entry, else the exit. */
  readonly handler: number;
  readonly loop: { readonly continueTo: number; readonly breakTo: number } | null;
  readonly depth: number;
}

/**
 * A graph shaped like a JavaScript function's: sequences, `if` (empty branches give parallel edges), `switch`
 * with fallthrough, `while` and `do-while` (an empty body is a self-loop), conditional `break`/`continue`/
 * `return`, `try`/`catch` (every block of the try body may throw to the catch entry, inside loops too), a
 * two-entry cycle (irreducible), and blocks that throw out of the function.
 */
export function structuredGraph(rng: Random, maxBlocks: number): FlowGraph {
  const b = new GraphBuilder();
  const entry = b.block();
  const exit = b.block();
  const first = b.block();
  b.edge(entry, first);

  const maybeThrow = (block: number, ctx: Context): void => {
    if (!b.throws[block] && rng.chance(0.25)) b.edge(block, ctx.handler, true);
  };
  const statements = (start: number, ctx: Context, count: number): number => {
    let cur = start;
    for (let k = 0; k < count; k++) cur = statement(cur, ctx);
    return cur;
  };
  const nested = (ctx: Context): Context => ({ ...ctx, depth: ctx.depth + 1 });
  const bodyLength = (): number => rng.range(0, 3);

  const statement = (cur: number, ctx: Context): number => {
    maybeThrow(cur, ctx);
    const compound = ctx.depth < 4 && b.blockCount < maxBlocks;
    const kind = compound ? rng.int(9) : rng.int(2);
    switch (kind) {
      case 0: {
        const next = b.block();
        b.edge(cur, next);
        return next;
      }
      case 1: {
        const next = b.block();
        const target =
          ctx.loop === null || rng.chance(0.3) ? exit : rng.pick([ctx.loop.breakTo, ctx.loop.continueTo]);
        b.edge(cur, target);
        b.edge(cur, next);
        return next;
      }
      case 2: {
        const join = b.block();
        for (let branch = 0; branch < 2; branch++) {
          if (rng.chance(0.3)) {
            b.edge(cur, join);
            continue;
          }
          const start = b.block();
          b.edge(cur, start);
          b.edge(statements(start, nested(ctx), bodyLength()), join);
        }
        return join;
      }
      case 3: {
        const join = b.block();
        let fallInto: number | null = null;
        for (let c = rng.range(2, 4); c > 0; c--) {
          if (fallInto === null && rng.chance(0.25)) {
            b.edge(cur, join);
            continue;
          }
          const start = b.block();
          b.edge(cur, start);
          if (fallInto !== null) b.edge(fallInto, start);
          const end = statements(start, nested(ctx), bodyLength());
          fallInto = null;
          if (rng.chance(0.3) && c > 1) fallInto = end;
          else b.edge(end, join);
        }
        return join;
      }
      case 4: {
        const header = b.block();
        const body = b.block();
        const after = b.block();
        b.edge(cur, header);
        b.edge(header, body);
        b.edge(header, after);
        const loop = { continueTo: header, breakTo: after };
        b.edge(statements(body, { ...nested(ctx), loop }, bodyLength()), header);
        return after;
      }
      case 5: {
        const body = b.block();
        const after = b.block();
        b.edge(cur, body);
        const end = statements(
          body,
          { ...nested(ctx), loop: { continueTo: body, breakTo: after } },
          bodyLength(),
        );
        b.edge(end, body);
        b.edge(end, after);
        return after;
      }
      case 6:
      case 7: {
        const handler = b.block();
        const start = b.block();
        const after = b.block();
        b.edge(cur, start);
        b.edge(statements(start, { ...nested(ctx), handler }, rng.range(1, 3)), after);
        if (!b.exceptional.some((x, e) => x === 1 && b.dst[e] === handler)) b.edge(start, handler, true);
        b.edge(statements(handler, nested(ctx), bodyLength()), after);
        return after;
      }
      default: {
        const x = b.block();
        const y = b.block();
        const next = b.block();
        b.edge(cur, x);
        b.edge(cur, y);
        b.edge(x, y);
        b.edge(y, x);
        maybeThrow(x, ctx);
        maybeThrow(y, ctx);
        b.edge(x, next);
        b.edge(y, next);
        return next;
      }
    }
  };

  const last = statements(first, { handler: exit, loop: null, depth: 0 }, rng.range(1, 5));
  b.edge(last, exit);
  return b.build(entry, exit);
}

/** The random graph families the property tests run on, by name. */
export const GRAPH_FAMILIES: readonly [string, (rng: Random) => FlowGraph][] = [
  ['unstructured graphs without exceptions', (rng) => unstructuredGraph(rng, 16, false)],
  ['unstructured graphs with exceptional edges', (rng) => unstructuredGraph(rng, 16, true)],
  ['structured graphs (try/catch in loops, irreducible regions)', (rng) => structuredGraph(rng, 36)],
];

/**
 * `graph` with some normal edges made silent, as the graph builder makes them: into a block that cannot throw,
 * the codeless edges still a forest.
 */
export function withSilentEdges(graph: FlowGraph, rng: Random): FlowGraph {
  const { blockCount, edgeCount, edgeSrc, edgeDst, edgeExceptional } = graph;
  const throws = new Uint8Array(blockCount);
  for (let e = 0; e < edgeCount; e++) if (edgeExceptional[e] === 1) throws[edgeSrc[e]] = 1;
  const parent = Int32Array.from({ length: blockCount }, (_, v) => v);
  const root = (v: number): number => (parent[v] === v ? v : (parent[v] = root(parent[v])));
  const join = (a: number, b: number): boolean => {
    const [ra, rb] = [root(a), root(b)];
    if (ra === rb) return false;
    parent[ra] = rb;
    return true;
  };
  for (let e = 0; e < edgeCount; e++) if (edgeExceptional[e] === 1) join(edgeSrc[e], edgeDst[e]);
  const silent = new Uint8Array(edgeCount);
  for (let e = 0; e < edgeCount; e++) {
    const [u, v] = [edgeSrc[e], edgeDst[e]];
    if (edgeExceptional[e] === 1 || throws[v] === 1 || v === graph.exit || !rng.chance(0.3)) continue;
    if (join(u, v)) silent[e] = 1;
  }
  return { ...graph, edgeSilent: silent };
}
