import { transformSync } from '@babel/core';
import pathprof, { type OpaqueDefaultNote } from '../src';
import { virtualPath } from './support/instrument';

const source = `function f(a = 1, { b = 2 } = {}) {
  const { c = 3, d = 4 } = a;
  for (const { e = 5, ...rest } of [a]) a = [e, rest];
  for (const [i = 7] of [[]]) a = i;
  return [a, b, c, d];
}
function* g(flag, { [flag ? 'n' : 'm']: n = 1 }) {}
const k = ({ a = 1 }, b = a) => {};`;

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
    'f 3:15 a rest element follows, which can throw before any place for code',
    'f 4:14 inside an array pattern whose value cannot be wrapped (iterator steps)',
    'g 7:40 a computed key that branches in a destructuring parameter',
    'k 8:13 an arrow whose destructuring parameter stays there (no `arguments` to keep state)',
    'k 8:22 an arrow whose destructuring parameter stays there (no `arguments` to keep state)',
  ]);
});
