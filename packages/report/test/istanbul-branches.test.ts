import { transformSync } from '@babel/core';
import istanbul from 'babel-plugin-istanbul';
import { istanbulCoverage, type IstanbulFileCoverage } from '../src';
import { profileInProcess, runInContext, scriptOptions, virtualFile } from './support/in-process';
import { istanbulParity } from './support/istanbul-parity';
import { built } from './support/runs';

const source = `
function classify(a, b, c) {
  let out = '';
  if (a && b) out += 'ab';
  if (!a || c) out += 'nc';
  if (!(a && c)) out += 'not';
  out += a ? 'A' : 'a';
  out += a && b ? 'AB' : b || c ? 'BC' : 'none';
  const v = a || b || 'default';
  const w = c ?? b ?? 'none';
  switch (typeof a) {
    case 'number':
    case 'bigint':
      out += 'n';
      break;
    default:
      out += 'd';
    case 'string':
      out += 's';
  }
  if (a) {
    out += 1;
  } else if (b) {
    out += 2;
  } else {
    out += 3;
  }
  let i = 0;
  while (i < 3 && out.length > i) i++;
  return out + v + w + i;
}
function options(o) {
  const { size = 1, color = size > 1 ? 'red' : 'blue', tag = null } = o;
  return size + color + tag;
}
const sized = [{}, { size: 2 }, { color: 'x', tag: 0 }, { size: undefined }].map(options);
function moved(a, { b = 1 } = {}) {
  return a + b;
}
function shapes(list) {
  const [x = 1, , ...rest] = list;
  const { k = 2, ...others } = { ...list };
  const { n: { m = 3 } = {}, z = 4 } = { n: list[0] };
  return [x, rest, k, others, m, z];
}
const shaped = [moved(1), moved(1, { b: 2 }), shapes([]), shapes([undefined, 1, 2]), shapes([{ m: 0 }])];
const results = [[1, 0, null], [0, 'x', undefined], ['s', 1, 0], [0, 0, 0], [2, 2, 2], [null, undefined, 'c']].map(
  (args) => classify(...args),
);
`;

/**
 * The same program instrumented by babel-plugin-istanbul and by pathprof, run on the same inputs: every
 * branch the path profile yields has istanbul's type, location and counts.
 */
(built ? describe : describe.skip)('istanbul branch counts derived from the path profile', () => {
  const { filename } = virtualFile('branches.js');

  test('equal babel-plugin-istanbul counts for if, cond-expr, binary-expr, switch and default-arg', () => {
    // default-arg includes moved parameters, array patterns, object rest and pattern targets.
    const istanbulCode = transformSync(source, {
      ...scriptOptions(filename),
      plugins: [[istanbul, { cwd: process.cwd() }]],
    })!.code!;
    const expected = Object.values(
      (runInContext(istanbulCode).__coverage__ as Record<string, IstanbulFileCoverage>) ?? {},
    )[0];
    const derived = istanbulCoverage(profileInProcess(source, 'branches.js'));
    const { coverage } = derived;
    // Every statement, function, branch and line too.
    expect(istanbulParity(derived, expected).differences).toEqual([]);

    const at = (c: IstanbulFileCoverage) =>
      Object.entries(c.branchMap).map(([id, b]) => ({
        where: `${b.type}@${b.loc.start.line}:${b.loc.start.column}`,
        locations: b.locations.map((l) => `${l.start.line}:${l.start.column}`),
        counts: c.b[id],
      }));
    const ours = at(coverage);
    const theirs = at(expected);
    expect(ours).toEqual(theirs);
    expect(ours.map((b) => b.where.split('@')[0])).toEqual([
      'if',
      'binary-expr',
      'if',
      'binary-expr',
      'if',
      'binary-expr',
      'cond-expr',
      'cond-expr',
      'binary-expr',
      'cond-expr',
      'binary-expr',
      'binary-expr',
      'binary-expr',
      'switch',
      'if',
      'if',
      'binary-expr',
      'default-arg',
      'default-arg',
      'cond-expr',
      'default-arg',
      ...Array(7).fill('default-arg'),
    ]);
    const fn = Object.keys(coverage.fnMap).find((id) => coverage.fnMap[id].name === 'classify')!;
    expect(coverage.f[fn]).toBe(6);
  });
});
