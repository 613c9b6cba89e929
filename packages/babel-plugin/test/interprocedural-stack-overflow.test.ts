import { runScript } from '@pathprof/testkit';
import { resetCounts, runtimeGlobals } from './support/counted-paths';
import { instrument } from './support/instrument';
import { countedInterproceduralPaths } from './support/interprocedural-oracle';

/**
 * A crossed call writes the hand-off (and, to a callee that can also start as a root, a token naming it)
 * right before the call. The one exception that can come between the hand-off and the callee's prologue is
 * a stack overflow on entering the callee. The token it leaves must not survive: the callee's next entry as
 * a root would take the stale hand-off and count nothing.
 *
 * `sink` recurses until the stack overflows, then, one frame higher each time (rethrowing), calls `forward → mid → leaf`
 * (crossed) through `map` (a cut call, so no caller with a handler of its own sits above them), until an
 * overflow lands exactly on entering `leaf`: `mid` ran and `leaf`'s body did not. Then `leaf` is called as a
 * root (it escapes into `map`) a known number of times. `leaf` has many locals: its frame is larger than a
 * step of `sink`'s, so some step lands in the window whatever the engine's frame sizes.
 */
const manyLocals = Array.from({ length: 96 }, (_, i) => `let v${i} = ${i ? `v${i - 1} + x` : 'x'};`).join(
  ' ',
);
const source = `
let inMid = 0, inLeaf = 0, hit = false;
function leaf(x) { inLeaf++; ${manyLocals} return x; }
function mid(x) { inMid++; return leaf(x); }
const forward = (x) => mid(x);
function sink(a, b, c) {
  try {
    return sink(a, b, c);
  } catch (error) {
    if (hit) return;
    const before = inMid - inLeaf;
    try { [0].map(forward); } catch (overflow) {}
    hit = inMid - inLeaf > before;
    if (!hit) throw error;
  }
}
for (let pad = 0; pad < 8 && !hit; pad++) {
  try { sink.apply(null, new Array(3 + pad)); } catch (error) {}
}
print(hit);
print([1, 2, 3, 4, 5, 6, 7].map(leaf).length);
`;

describe.each(['piecewise', 'context'] as const)('%s scheme', (scheme) => {
  test('a stack overflow on entering a crossed callee leaves no stale hand-off behind', async () => {
    resetCounts();
    const code = instrument(source, 'overflow.js', { mode: 'interprocedural', scheme });
    const run = await runScript(code, 'overflow.js', runtimeGlobals());
    expect(run.output).toEqual(['true', '7']);
    const { numbering, paths } = countedInterproceduralPaths('virtual/overflow.js');
    const leaf = numbering.procedures.find((p) => p.name === 'leaf')!;
    const { start, count } = numbering.entryPoints[leaf.rootEntryPoint];
    const asRoot = paths
      .filter(([path]) => BigInt(path) >= start && BigInt(path) < start + count)
      .reduce((sum, [, n]) => sum + n, 0);
    expect(asRoot).toBe(7);
  });
});
