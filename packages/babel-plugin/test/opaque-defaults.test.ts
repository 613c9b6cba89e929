import { transformSync } from '@babel/core';
import pathprof, { type OpaqueDefaultNote } from '../src';
import { virtualPath } from './support/instrument';

const source = `function f(a = 1, { b = 2 } = {}) {
  const { c = 3, d = 4 } = a;
  const { e = 5, ...rest } = a;
  const [g = 6] = [];
  return [a, b, c, d, e, rest, g];
}
function* g(n = 1) {}
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
    'f 1:11 parameter default beside a destructuring parameter (its reads can throw)',
    'f 1:18 parameter default beside a destructuring parameter (its reads can throw)',
    'f 1:20 parameter default beside a destructuring parameter (its reads can throw)',
    'f 3:10 a rest element follows, which can throw before any place for code',
    'f 4:9 inside an array pattern (iterator steps)',
    'g 7:12 generator parameter default (the body starts at the first next())',
  ]);
});
