import {
  buildInstrumentedCfgs,
  findCallTargets,
  parseSource,
  programPathOf,
  readUnsplitCalls,
  refusedHandOffs,
  unsplitCallRecords,
} from '@pathprof/cfg';

/** Per function of a module, its calls that are not split: `text block why (after code that may throw: !)`. */
function unsplit(source: string): Record<string, string[]> {
  const file = parseSource(source, 'calls.mjs');
  const program = programPathOf(file);
  program.node.sourceType = 'module';
  const targets = findCallTargets(program);
  const graphs = buildInstrumentedCfgs(program.node, 'calls.mjs', undefined, targets);
  const refused = refusedHandOffs(targets, graphs);
  const lines = source.split('\n');
  return Object.fromEntries(
    graphs.map((g) => [
      g.name,
      readUnsplitCalls(unsplitCallRecords(g, refused)).map((c) => {
        const callee = lines[c.endLine - 1].slice(c.line === c.endLine ? c.column : 0, c.endColumn);
        const known = c.callee >= 0 ? `→${graphs[c.callee].name}` : '';
        return `${callee} B${c.block} ${c.why}${known}${c.afterThrowable ? ' !' : ''}`;
      }),
    ]),
  );
}

test('each call not split is recorded in the block that makes it, in the order it makes them', () => {
  const calls = unsplit(
    [
      'async function later() {}',
      'function leaf(x) { return x; }',
      'export function f(o, cb) {',
      '  if (cb(o)) o.g(leaf(o), new Date(0).getTime());',
      '  else later();',
      '  return o?.h(String.raw`x`);',
      '}',
    ].join('\n'),
  );
  // The split call leaf(o) ends its block: o.g(…) and what it is made of run in the return site after it.
  // o?.h(…) runs past the test of o, after the read of o.h and its argument, a tagged template. Only cb(o) has nothing before it in its block that
  // may throw (a parameter's read cannot; a read of a function outside may, for all the graph knows).
  expect(calls.f).toEqual([
    'cb B2 unknown',
    'new Date B5 unknown !',
    'new Date(0).getTime B5 unknown !',
    'o.g B5 unknown !',
    'later B6 async→later !',
    'String.raw B8 unknown !',
    'o?.h B8 unknown !',
  ]);
  expect(calls.leaf).toEqual([]);
});
