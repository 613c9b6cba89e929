// Times numbering and placement of one large function (run: npm run bench:numbering). Not a test: it prints
// the median of repeated runs, to be compared with the 50 ms budget recorded in the package README.
import { performance } from 'node:perf_hooks';
import numbering from '../dist/index.js';

const { numberPaths, planEdgeProfile } = numbering;
const BLOCKS = 5000;
const RUNS = 30;

/**
 * A function body of about `blocks` blocks made of the statement shapes real code has, in a fixed rotation:
 * if/else, a loop whose body branches and may break, try/catch with throwing calls, a switch with fallthrough,
 * and a call that may throw out of the function. Deterministic, so runs compare.
 */
function largeFunction(blocks) {
  const src = [];
  const dst = [];
  const exceptional = [];
  let count = 0;
  const block = () => count++;
  const edge = (from, to, throws = false) => {
    src.push(from);
    dst.push(to);
    exceptional.push(throws ? 1 : 0);
  };
  const entry = block();
  const exit = block();
  let cur = block();
  edge(entry, cur);
  for (let i = 0; count < blocks; i++) {
    const shape = i % 5;
    if (shape === 0) {
      const [then, otherwise, join] = [block(), block(), block()];
      edge(cur, then);
      edge(cur, otherwise);
      edge(then, join);
      edge(otherwise, join);
      cur = join;
    } else if (shape === 1) {
      const [header, test, left, right, latch, after] = [
        block(),
        block(),
        block(),
        block(),
        block(),
        block(),
      ];
      edge(cur, header);
      edge(header, test);
      edge(header, after);
      edge(test, left);
      edge(test, right);
      edge(left, latch);
      edge(right, latch);
      edge(right, after);
      edge(latch, header);
      cur = after;
    } else if (shape === 2) {
      const [first, second, handler, after] = [block(), block(), block(), block()];
      edge(cur, first);
      edge(first, second);
      edge(first, handler, true);
      edge(second, after);
      edge(second, handler, true);
      edge(handler, after);
      cur = after;
    } else if (shape === 3) {
      const cases = [block(), block(), block(), block()];
      const join = block();
      for (const c of cases) edge(cur, c);
      edge(cases[0], cases[1]);
      for (const c of cases.slice(1)) edge(c, join);
      cur = join;
    } else {
      const next = block();
      edge(cur, next);
      edge(cur, exit, true);
      cur = next;
    }
  }
  edge(cur, exit);
  return {
    blockCount: count,
    entry,
    exit,
    edgeCount: src.length,
    edgeSrc: Int32Array.from(src),
    edgeDst: Int32Array.from(dst),
    edgeExceptional: Uint8Array.from(exceptional),
  };
}

function median(run) {
  for (let i = 0; i < 5; i++) run();
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[RUNS >> 1];
}

const graph = largeFunction(BLOCKS);
const result = numberPaths(graph);
const chords = result.dag.chord.reduce((sum, c) => sum + c, 0);
console.log(
  `function: ${graph.blockCount} blocks, ${graph.edgeCount} edges; ${result.pathCount} paths after ` +
    `${result.overflow?.cuts.length ?? 0} cuts; ${result.removedEdges.length} removed edges; ${chords} chords`,
);
console.log(
  `numberPaths (numbering + placement): ${median(() => numberPaths(graph)).toFixed(2)} ms (median of ${RUNS})`,
);
console.log(
  `planEdgeProfile:                     ${median(() => planEdgeProfile(graph)).toFixed(2)} ms (median of ${RUNS})`,
);
