// Graphs that break the engine's assumptions are refused by name, not numbered wrongly.
import { numberPaths, planEdgeProfile, staticEdgeWeights, type FlowGraph } from '@pathprof/numbering';
import { namedGraph } from './support/named-graph';

const graphOf = (edges: string[]): FlowGraph => namedGraph('ENTRY', 'EXIT', edges).graph;

describe('graph validation', () => {
  const invalid: [string, FlowGraph, RegExp][] = [
    ['an unreachable block', graphOf(['ENTRY->EXIT', 'U->EXIT']), /not reachable from the entry/],
    [
      'a block that cannot reach the exit',
      graphOf(['ENTRY->EXIT', 'ENTRY->S', 'S->S']),
      /cannot reach the exit/,
    ],
    ['an edge into the entry', graphOf(['ENTRY->A', 'A->ENTRY', 'A->EXIT']), /enters the entry block/],
    [
      'an edge out of the exit',
      graphOf(['ENTRY->EXIT', 'EXIT->A', 'ENTRY->A', 'A->EXIT']),
      /leaves the exit block/,
    ],
    [
      'two exceptional out-edges of one block',
      graphOf(['ENTRY->A', 'A->H!', 'A->EXIT!', 'A->EXIT', 'H->EXIT']),
      /more than one exceptional out-edge/,
    ],
    ['mismatched array lengths', { ...graphOf(['ENTRY->EXIT']), edgeCount: 2 }, /must equal the length/],
    [
      'an edge to a block that does not exist',
      { ...graphOf(['ENTRY->EXIT']), edgeDst: Int32Array.of(7) },
      /joins 0 to 7/,
    ],
  ];

  it.each(invalid)('refuses %s, in every entry point', (_, graph, message) => {
    for (const entryPoint of [numberPaths, planEdgeProfile, staticEdgeWeights]) {
      expect(() => entryPoint(graph)).toThrow(
        expect.objectContaining({ code: 'invalid-graph', message: expect.stringMatching(message) }),
      );
    }
  });

  it('rejects weights of the wrong length or not finite', () => {
    const graph = graphOf(['ENTRY->A', 'ENTRY->EXIT', 'A->EXIT']);
    for (const weights of [
      [1, 1],
      [1, Number.NaN, 1],
    ]) {
      expect(() => numberPaths(graph, { weights })).toThrow(
        expect.objectContaining({ code: 'invalid-option' }),
      );
      expect(() => planEdgeProfile(graph, { weights })).toThrow(
        expect.objectContaining({ code: 'invalid-option' }),
      );
    }
  });
});
