import { transformSync } from '@babel/core';
import pathprof, { type OpaqueDefaultNote } from '../src';
import { virtualPath } from './support/instrument';

const source = `function f(a = 1, { b = 2 } = {}) {
  const { c = 3, d = 4 } = a;
  const { e = 5, ...rest } = a;
  const [g = 6] = [];
  for (const [i = 7] of [[]]) a = i;
  return [a, b, c, d, e, rest, g];
}
function* g({ ['n']: n = 1 }) {}
const k = ({ a = 1 }, b = a) => {};
const h = (a, b = 2) => a + b;`;

test('defaults that are not path decisions are listed in the result metadata, with why', () => {
  const result = transformSync(source, {
    filename: virtualPath('src/defaults.js'),
    babelrc: false,
    configFile: false,
    plugins: [[pathprof, { runtime: 'require' }]],
  })!;
  const { opaqueDefaults } = (
    result.metadata as unknown as { pathprof: { opaqueDefaults: OpaqueDefaultNote[] } }
  ).pathprof;
  expect(opaqueDefaults.map((d) => `${d.function} ${d.line}:${d.column} ${d.reason}`)).toEqual([
    'f 3:10 a rest element follows, which can throw before any place for code',
    'f 5:14 inside an array pattern whose value cannot be wrapped (iterator steps)',
    'g 8:21 a computed key in a destructuring parameter',
    'k 9:13 an arrow whose destructuring parameter stays there (no `arguments` to keep state)',
    'k 9:22 an arrow whose destructuring parameter stays there (no `arguments` to keep state)',
  ]);
});
