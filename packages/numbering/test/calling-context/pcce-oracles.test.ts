// The oracles of Sumner et al. (digest §5): Fig. 2, Fig. 4 (acyclic), Fig. 5 (recursion, compressed stack),
// Fig. 7 (hybrid encoding with stack offsets).
import {
  ContextEncoder,
  decodeContext,
  EncodingStack,
  hybridDecode,
  hybridEncode,
  hybridEncoding,
  numberContexts,
  type ContextFrame,
  type ContextNumbering,
} from '@pathprof/numbering';
import { encodeCalls, encodeFrames, namedCallGraph, type NamedCallGraph } from './support/named-call-graph';
import { FIG4_IDS } from './support/paper-figures';

/** Fig. 4's call graph, each callee's edges in the paper's edge-set order; D calls F from two sites. */
function fig4(): NamedCallGraph {
  return namedCallGraph(
    ['A'],
    [
      'A->B',
      'A->J',
      'B->D',
      'J->D',
      'B->E',
      'D->F@1',
      'D->F@2',
      'D->G',
      'J->G',
      'F->H',
      'F->I',
      'G->I',
      'J->I',
    ],
  );
}

/** Every context of every function of an acyclic graph, from the entries: root first. */
function allContexts(numbering: ContextNumbering): ContextFrame[][] {
  const contexts: ContextFrame[][] = [];
  const walk = (context: ContextFrame[]): void => {
    contexts.push(context);
    const fn = context[context.length - 1].function;
    for (const edge of numbering.edges) {
      if (edge.caller === fn) walk([...context, { function: edge.callee, site: edge.site }]);
    }
  };
  for (const entry of numbering.entries) walk([{ function: entry, site: null }]);
  return contexts;
}

/** `context → id` for every context, as the encoder computes it; each decodes back to its context. */
function idTable(named: NamedCallGraph, numbering: ContextNumbering): Record<string, number> {
  const table: Record<string, number> = {};
  for (const context of allContexts(numbering)) {
    const encoded = encodeFrames(numbering, context);
    expect(encoded.stack).toEqual([]);
    expect(decodeContext(numbering, encoded)).toEqual(context);
    table[named.format(context)] = encoded.id;
  }
  return table;
}

/** The non-zero additions, as `caller->callee +En`. */
function additions(named: NamedCallGraph, numbering: ContextNumbering): string[] {
  const names = named.graph.functionNames;
  return numbering.edges
    .filter((e) => e.addition !== 0)
    .map((e) => `${names[e.caller]}->${names[e.callee]} +${e.addition}`);
}

/** numCC by function name. */
function contextCounts(named: NamedCallGraph, numbering: ContextNumbering): Record<string, number> {
  return Object.fromEntries(named.graph.functionNames.map((name, f) => [name, numbering.numCC[f]]));
}

describe('Fig. 2: A calls B and C, both call D, which calls E and F', () => {
  const named = namedCallGraph(['A'], ['A->B', 'A->C', 'B->D', 'C->D', 'D->E', 'D->F']);
  const numbering = numberContexts(named.graph);

  it('instruments one edge, C→D +1, and needs ids 0 and 1 only', () => {
    expect(
      numbering.edges
        .filter((e) => e.addition !== 0)
        .map(
          (e) =>
            named.graph.functionNames[e.caller] +
            '->' +
            named.graph.functionNames[e.callee] +
            ' +' +
            e.addition,
        ),
    ).toEqual(['C->D +1']);
    expect(idTable(named, numbering)).toEqual({
      A: 0,
      AB: 0,
      AC: 0,
      ABD: 0,
      ACD: 1,
      ABDE: 0,
      ACDE: 1,
      ABDF: 0,
      ACDF: 1,
    });
    expect(numbering.maxId).toBe(1);
  });
});

describe('Fig. 4: an acyclic call graph with two call sites from D to F', () => {
  const named = fig4();
  const numbering = numberContexts(named.graph);

  it('counts contexts and labels five edges as the paper does', () => {
    expect(contextCounts(named, numbering)).toEqual({ A: 1, B: 1, J: 1, D: 2, E: 1, F: 4, G: 3, H: 4, I: 8 });
    expect(additions(named, numbering)).toEqual(['J->D +1', 'D->F +2', 'J->G +2', 'G->I +4', 'J->I +7']);
  });

  it('gives every context of a function its own id in [0, numCC), and decodes each back', () => {
    expect(idTable(named, numbering)).toEqual(FIG4_IDS);
  });

  it('decodes (6, I) to AJGI', () => {
    expect(named.format(decodeContext(numbering, { function: named.fn('I'), id: 6, stack: [] }))).toBe(
      'AJGI',
    );
  });
});

describe('Fig. 5: recursion through the back edge F→C', () => {
  const named = namedCallGraph(
    ['A'],
    ['A->B', 'A->C', 'B->E', 'C->D', 'C->G', 'D->E', 'D->F', 'G->F', 'F->H', 'F->C'],
  );
  const numbering = numberContexts(named.graph);
  const l = named.site('F->C');
  const calls = (context: string): string[] => [...context].slice(1).map((f, i) => `${context[i]}->${f}`);

  it('cuts F→C, gives C a dummy edge, and labels A→C +1, D→E +1, G→F +2', () => {
    expect(numbering.edges.find((e) => e.site === l)?.kind).toBe('back-edge');
    expect(numbering.hasDummyEdge.map((d, f) => (d ? named.graph.functionNames[f] : '')).join('')).toBe('AC');
    expect(contextCounts(named, numbering)).toEqual({ A: 1, B: 1, C: 2, D: 2, G: 2, E: 3, F: 4, H: 4 });
    expect(additions(named, numbering)).toEqual(['A->C +1', 'D->E +1', 'G->F +2']);
  });

  it.each<[string, { id: number; site: number; count: number }[], number]>([
    ['ACGFCDE', [{ id: 3, site: 9, count: 1 }], 1],
    ['ACGFCDFH', [{ id: 3, site: 9, count: 1 }], 0],
    ['ACGFH', [], 3],
    ['ACDFCDE', [{ id: 1, site: 9, count: 1 }], 1],
    ['ABE', [], 0],
    ['ACDE', [], 2],
    // Three repetitions of CGF after ACGF: the stack [3, 2, 2] compresses to the runs 3:1 and 2:2.
    [
      'ACGFCGFCGFCGF',
      [
        { id: 3, site: 9, count: 1 },
        { id: 2, site: 9, count: 2 },
      ],
      2,
    ],
  ])('%s is encoded as stack %j and id %d, and decodes back', (context, stack, id) => {
    expect(l).toBe(9);
    const encoded = encodeCalls(named, numbering, calls(context));
    expect([encoded.stack, encoded.id]).toEqual([stack, id]);
    expect(named.format(decodeContext(numbering, encoded))).toBe(context);
  });
});

describe('Fig. 7: hybrid encoding with the frame offsets of the figure', () => {
  const named = fig4();
  const numbering = numberContexts(named.graph);
  // B→E and F→H are illegible in the figure; any offsets do.
  const offsets = [1, 1, 2, 3, 5, 1, 1, 1, 3, 7, 4, 1, 1];
  const hybrid = hybridEncoding(numbering, offsets);
  const implicitOf = (f: string): string[] =>
    hybrid.implicitContexts[named.fn(f)].map((c) => `${named.format(c.context)}↦${c.offset}`);

  it('keeps contexts implicit until their offsets collide (ImCC of D, F, G, I)', () => {
    expect(implicitOf('D')).toEqual(['ABD↦3', 'AJD↦4']);
    expect(implicitOf('F')).toEqual(['ABD1F↦4', 'AJD1F↦5']);
    expect(implicitOf('G')).toEqual(['ABDG↦4', 'AJDG↦5']);
    expect(implicitOf('I')).toEqual(['AJI↦2', 'ABDGI↦5', 'AJDGI↦6', 'ABD1FI↦8', 'AJD1FI↦9']);
  });

  it('instruments 3 edges (5 in Fig. 4): D2→F +2 and J→G +2 always, G→I +4 only when the id is not 0', () => {
    const names = named.graph.functionNames;
    const instrumented = numbering.edges
      .map((e, k) => ({ e, mode: hybrid.edgeModes[k] }))
      .filter(({ e, mode }) => mode === 'explicit' || (mode === 'guarded' && e.addition !== 0))
      .map(({ e, mode }) => `${names[e.caller]}->${names[e.callee]} ${mode} +${e.addition}`);
    expect(instrumented).toEqual(['D->F explicit +2', 'J->G explicit +2', 'G->I guarded +4']);
    // J→I (the last edge) is case (b): J has one context, implicit, and AJI's offset collides with nothing.
    expect(hybrid.edgeModes[12]).toBe('implicit');
  });

  it('encodes the sample contexts as (offset, id) and decodes them back', () => {
    const samples: Record<string, [number, number]> = {
      ABD1FI: [8, 0],
      AJD1FI: [9, 0],
      ABD2FI: [8, 2],
      AJD2FI: [9, 2],
      ABDGI: [5, 0],
      AJDGI: [6, 0],
      AJGI: [5, 6],
      AJI: [2, 0],
      ABDG: [4, 0],
      AJDG: [5, 0],
      AJG: [4, 2],
    };
    const contexts = allContexts(numbering).filter((c) => named.format(c) in samples);
    expect(contexts.length).toBe(Object.keys(samples).length);
    for (const context of contexts) {
      const encoded = hybridEncode(numbering, hybrid, context);
      expect([named.format(context), encoded.offset, encoded.id]).toEqual([
        named.format(context),
        ...samples[named.format(context)],
      ]);
      expect(hybridDecode(numbering, hybrid, encoded)).toEqual(context);
    }
    expect(named.format(hybridDecode(numbering, hybrid, { function: named.fn('G'), offset: 5, id: 0 }))).toBe(
      'AJDG',
    );
    expect(named.format(hybridDecode(numbering, hybrid, { function: named.fn('I'), offset: 5, id: 6 }))).toBe(
      'AJGI',
    );
  });
});

describe('selective reduction and the fallback for unknown callees (§7)', () => {
  const named = fig4();
  // Fig. 4 with I over a budget of 5: its coldest in-edges (G→I, then J→I) become dummy edges.
  const weights = named.graph.edges.map((_, e) => [10, 1, 5][e - 10] ?? 100);
  const numbering = numberContexts(named.graph, { budget: 5, edgeWeights: weights });

  it('reduces the coldest in-edges until numCC fits, and those calls push', () => {
    expect(numbering.edges.slice(10).map((e) => [e.kind, e.addition])).toEqual([
      ['numbered', 1],
      ['reduced', 0],
      ['reduced', 0],
    ]);
    expect([numbering.numCC[named.fn('I')], numbering.maxId]).toEqual([5, 4]);
    const encoded = encodeCalls(named, numbering, ['A->J', 'J->G', 'G->I']);
    expect([encoded.stack, encoded.id]).toEqual([[{ id: 2, site: named.site('G->I'), count: 1 }], 0]);
    expect(named.format(decodeContext(numbering, encoded))).toBe('AJGI');
  });

  it('falls back to push-and-reset for a target the site does not list, which must have a dummy edge', () => {
    const graph = { ...named.graph, entries: [named.fn('A'), named.fn('H')] };
    const withEntries = numberContexts(graph);
    const encoder = new ContextEncoder(withEntries);
    encoder.enter(named.fn('A'));
    encoder.call(named.site('A->B'), named.fn('B'));
    encoder.call(named.site('B->E'), named.fn('H'));
    expect(encoder.encoded().stack).toEqual([{ id: 0, site: named.site('B->E'), count: 1 }]);
    expect(named.format(decodeContext(withEntries, encoder.encoded()))).toBe('ABH');
    expect(() => encoder.call(named.site('F->I'), named.fn('I'))).toThrow(/not in the running function/);
    encoder.return();
    expect(() => encoder.call(named.site('B->E'), named.fn('G'))).toThrow(
      /has no dummy edge: make it an entry/,
    );
  });

  it('refuses malformed call graphs', () => {
    expect(() => numberContexts({ ...named.graph, entries: [] })).toThrow(/at least one entry/);
    expect(() =>
      numberContexts({ ...named.graph, edges: [...named.graph.edges, { site: 99, callee: 0 }] }),
    ).toThrow(/call site 99, which is not listed/);
    expect(() => numberContexts(named.graph, { budget: 0 })).toThrow(/budget/);
  });
});

it('keeps the encoding stack as runs of identical entries: depth 3 in two runs, popped back in order', () => {
  const stack = new EncodingStack();
  for (const id of [3, 2, 2]) stack.push(id, 9);
  expect([stack.depth, stack.snapshot()]).toEqual([
    3,
    [
      { id: 3, site: 9, count: 1 },
      { id: 2, site: 9, count: 2 },
    ],
  ]);
  expect([stack.pop(), stack.pop(), stack.pop(), stack.depth]).toEqual([
    { id: 2, site: 9 },
    { id: 2, site: 9 },
    { id: 3, site: 9 },
    0,
  ]);
  expect(() => stack.pop()).toThrow(RangeError);
});
