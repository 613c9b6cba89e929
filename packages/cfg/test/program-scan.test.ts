import * as t from '@babel/types';
import generateModule from '@babel/generator';
import { freshNamesAvoiding, lowerForDecisions, parseSource, scanProgram } from '@pathprof/cfg';
import { listFixtures } from '@pathprof/testkit';

// @babel/generator is CommonJS with a `default` export; under Node's ESM interop it may be nested.
const generate = (generateModule as unknown as { default?: typeof generateModule }).default ?? generateModule;

/** Declarations a root owns in every place the scan must tell apart (TypeScript, for namespaces). */
const OWNERS = `
const { a, b: { c } = { c: 1 }, e } = globalThis as any;
export const { x: { y } = { y: 2 } } = { x: undefined } as any;
function f({ p, q: { r } = { r: 3 } } = {} as any, k = 1) {
  const { s: { t } = { t: 4 }, u } = {} as any;
  for (const { v: { w } = { w: 1 } } of [{} as any]) {}
  return [p, r, t, u, w, k];
}
const g = ({ a: { b } = { b: 1 } } = {} as any) => b;
class C {
  static { const { a: { b } = { b: 1 }, c } = {} as any; void b, c; }
  field = (() => { const { a: { b } = { b: 1 } } = {} as any; return b; })();
  [(() => { const { z: { zz } = { zz: 1 } } = {} as any; return 'k' + zz; })()]() {
    const { a: { b } = { b: 1 } } = {} as any;
    return b;
  }
}
namespace NS { const { a: { b } = { b: 1 }, c } = {} as any; export const z = b ?? c; }
declare namespace D { const a: number; }
label: { const { a: { b } = { b: 1 } } = {} as any; if (b) break label; }
const _pp_v = 1, _pp_o = 2;
const obj = { m({ a: { b } = { b: 1 } } = {}) { const { c: { d } = { d: 1 }, e } = {} as any; return [b, d, e]; } };
`;

const sources = [
  ...listFixtures().map((f) => ({ name: f.name, source: f.source })),
  { name: 'owners.ts', source: OWNERS },
];

/**
 * The scan stands in for three walks (every name, the roots, each root's declarations to split): lowering
 * from what it found must rewrite exactly what lowering by walking each root does, with the same fresh names.
 */
describe.each(sources.map((s) => [s.name, s] as const))('scanProgram on %s', (_name, { name, source }) => {
  test('names: every identifier, JSX name and label of the file', () => {
    const program = parseSource(source, name).program;
    const names = new Set<string>();
    t.traverseFast(program, (n) => {
      if (t.isIdentifier(n) || t.isJSXIdentifier(n)) names.add(n.name);
      else if (t.isLabeledStatement(n)) names.add(n.label.name);
    });
    expect([...scanProgram(program).names].sort()).toEqual([...names].sort());
  });

  test("lowering from the scan's declarations equals lowering by walking each root", () => {
    const lowered = (walk: boolean): string => {
      const program = parseSource(source, name).program;
      const scan = scanProgram(program);
      const fresh = freshNamesAvoiding(scan.names);
      for (const root of scan.roots)
        lowerForDecisions(root.node, fresh, walk ? undefined : (scan.declarations.get(root.node) ?? []));
      return generate(program).code;
    };
    expect(lowered(false)).toBe(lowered(true));
  });
});

test('the owners source lowers in every root that owns a declaration', () => {
  const program = parseSource(OWNERS, 'owners.ts').program;
  const scan = scanProgram(program);
  const owners = scan.roots.filter((root) => scan.declarations.has(root.node)).map((root) => root.name);
  expect(owners).toEqual([
    '<program>',
    'f',
    'C.<static>',
    '<anonymous>',
    'C.[computed]',
    '<anonymous>',
    'namespace NS',
    'm',
  ]);
});
