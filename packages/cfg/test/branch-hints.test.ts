import { buildFileCfgs, edgeKindName, parseSource, unlikelyEdges } from '@pathprof/cfg';

/** The unlikely edges of the first function in `source`, as `kind of the edge: source of its construct`. */
function unlikely(source: string): string[] {
  const cfg = buildFileCfgs(parseSource(source, 'hints.js').program, 'hints.js').find(
    (g) => g.kind === 'function',
  )!;
  return unlikelyEdges(cfg).map((e) => {
    const { start, end } = cfg.edges[e].node;
    return `${edgeKindName(cfg.edgeKind[e])}: ${source.slice(start!, end!)}`;
  });
}

test('an equality with a number fails, through !, && and ||; a case test misses', () => {
  expect(unlikely('function f(c) { return c === 10 || c == 13 || c === -1; }')).toEqual([
    'true: c === 10 || c == 13',
    'true: c === 10 || c == 13 || c === -1',
  ]);
  expect(
    unlikely('function f(c, d) { if (c !== 32 && !(d == 0)) g(); while (!(c === 9)) c = h(); }'),
  ).toEqual(['false: c !== 32', 'true: d == 0', 'true: c === 9']);
  expect(unlikely('function f(c) { return !(c === 1) && g(); }')).toEqual(['false: !(c === 1) && g()']);
  expect(
    unlikely('function f(op) { switch (op) { case "add": return 1; case 2: return 2; default: return 3; } }'),
  ).toEqual(['case: case "add": return 1;', 'case: case 2: return 2;']);
});

test('other tests predict nothing', () => {
  expect(
    unlikely('function f(a, b) { if (a === b || a < 3 || a?.b || (a ?? b)) g(); return a == "x" ? 1 : 2; }'),
  ).toEqual([]);
});
