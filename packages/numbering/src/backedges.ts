import type { Csr } from './csr';
import type { FlowGraph } from './flow-graph';

/** What one depth-first search from the entry block tells about a graph. */
export interface DepthFirstSearch {
  /** 1 for the edges that reach a block still on the DFS stack: every cycle contains one, irreducible ones too. */
  readonly isBackedge: Uint8Array;
  /** Discovery and finishing times: `y` is a DFS ancestor of `w` iff `pre[y] <= pre[w]` and `post[w] <= post[y]`. */
  readonly pre: Int32Array;
  readonly post: Int32Array;
  /**
   * The blocks in reverse postorder with the exit block moved last: a topological order of the graph without its
   * backedges. Exit (a sink) may move last and entry (the root, finished last) is first, so dummy edges
   * `entry→w` and `v→exit` added later keep the order topological.
   */
  readonly topologicalOrder: Int32Array;
}

/**
 * Iterative DFS from the entry block (an explicit stack: functions can have 10,000+ blocks). Out-edges are
 * explored in increasing edge id, so the backedges, and with them the whole numbering, are a function of the
 * graph alone: the instrumenter and any later decoder agree.
 */
export function depthFirstSearch(graph: FlowGraph, out: Csr): DepthFirstSearch {
  const { blockCount, edgeCount, edgeDst, entry, exit } = graph;
  const isBackedge = new Uint8Array(edgeCount);
  const pre = new Int32Array(blockCount).fill(-1);
  const post = new Int32Array(blockCount).fill(-1);
  const onStack = new Uint8Array(blockCount);
  const cursor = out.start.slice(0, blockCount);
  const stack = new Int32Array(blockCount);
  const finished = new Int32Array(blockCount);
  let top = 0;
  let preClock = 0;
  let postClock = 0;
  stack[top++] = entry;
  pre[entry] = preClock++;
  onStack[entry] = 1;
  while (top > 0) {
    const v = stack[top - 1];
    if (cursor[v] < out.start[v + 1]) {
      const e = out.edges[cursor[v]++];
      const w = edgeDst[e];
      if (pre[w] < 0) {
        pre[w] = preClock++;
        onStack[w] = 1;
        stack[top++] = w;
      } else if (onStack[w] === 1) {
        isBackedge[e] = 1;
      }
    } else {
      top--;
      onStack[v] = 0;
      finished[postClock] = v;
      post[v] = postClock++;
    }
  }
  const topologicalOrder = new Int32Array(blockCount);
  let next = 0;
  for (let i = blockCount - 1; i >= 0; i--) if (finished[i] !== exit) topologicalOrder[next++] = finished[i];
  topologicalOrder[next] = exit;
  return { isBackedge, pre, post, topologicalOrder };
}
