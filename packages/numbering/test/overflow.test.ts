// The overflow policy: cut edges like backedges until the path count fits the budget.
import { numberPaths, type FlowGraph } from '@pathprof/numbering';
import { Random } from '@pathprof/testkit';
import { namedGraph } from './support/named-graph';
import { checkNumbering } from './support/numbering-checks';

/** `k` if-else diamonds in a row: 2^k paths. */
function diamondChain(k: number): FlowGraph {
  const edges: string[] = [];
  for (let i = 0; i < k; i++) {
    const next = i + 1 === k ? 'EXIT' : `D${i + 1}`;
    edges.push(`D${i}->L${i}`, `D${i}->R${i}`, `L${i}->${next}`, `R${i}->${next}`);
  }
  return namedGraph('ENTRY', 'EXIT', ['ENTRY->D0', ...edges]).graph;
}

describe('overflow policy', () => {
  it('numbers 2^20 paths without cuts when they fit the default budget', () => {
    const numbering = numberPaths(diamondChain(20));
    expect(numbering.pathCount).toBe(2 ** 20);
    expect(numbering.overflow).toBeNull();
    expect(numbering.removedEdges).toEqual([]);
  });

  it('cuts a function of 2^40 paths down to the default 2^30 budget and reports every cut', () => {
    const graph = diamondChain(40);
    const numbering = checkNumbering(graph, {}, new Random(40)).numbering;
    expect(numbering.pathCount).toBeLessThanOrEqual(2 ** 30);
    const overflow = numbering.overflow;
    if (overflow === null) throw new Error('expected cuts');
    expect(overflow.maxPaths).toBe(2 ** 30);
    expect(overflow.cuts.length).toBeGreaterThan(0);
    for (const cut of overflow.cuts) {
      expect(graph.edgeSrc[cut.edge]).toBe(cut.block);
      expect(cut.pathsFromBlock).toBeGreaterThan(overflow.threshold);
    }
    expect(numbering.removedEdges.every((r) => r.kind === 'cut')).toBe(true);
    // The register stays in V8's small-integer range too.
    expect(numbering.registerRange.min).toBeGreaterThanOrEqual(-(2 ** 30));
    expect(numbering.registerRange.max).toBeLessThan(2 ** 30);
  });

  it('halves the per-block threshold when the cut targets add up at the entry', () => {
    const numbering = checkNumbering(diamondChain(12), { maxPaths: 100 }, new Random(12)).numbering;
    expect(numbering.pathCount).toBeLessThanOrEqual(100);
    expect(numbering.overflow?.threshold).toBeLessThan(100);
  });

  it('refuses a budget that no cut can meet', () => {
    // Both paths leave through edges that cannot be cut: out of the entry, and into the exit.
    const graph = namedGraph('ENTRY', 'EXIT', ['ENTRY->A', 'ENTRY->EXIT', 'A->EXIT']).graph;
    expect(() => numberPaths(graph, { maxPaths: 1 })).toThrow(
      expect.objectContaining({ code: 'path-budget-too-small' }),
    );
    expect(numberPaths(graph, { maxPaths: 2 }).pathCount).toBe(2);
  });

  it('rejects a budget that is not a positive integer', () => {
    for (const maxPaths of [0, 1.5, Number.NaN, 2 ** 60]) {
      expect(() => numberPaths(diamondChain(2), { maxPaths })).toThrow(
        expect.objectContaining({ code: 'invalid-option' }),
      );
    }
  });
});

describe('counter storage', () => {
  it('chooses an array up to the threshold and a hash table above, saying why', () => {
    const graph = diamondChain(6);
    expect(numberPaths(graph).storage).toEqual({
      kind: 'array',
      arrayThreshold: 4096,
      reason: '64 potential paths <= array threshold 4096',
    });
    expect(numberPaths(graph, { arrayThreshold: 63 }).storage).toEqual({
      kind: 'hash',
      arrayThreshold: 63,
      reason: '64 potential paths > array threshold 63',
    });
  });
});
