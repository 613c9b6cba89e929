import { getStore, snapshot } from '@pathprof/runtime';
import { resetCounts, runtimeGlobals } from './support/counted-paths';
import { derivedEdgeKinds } from './support/decoded-counts';
import { instrument } from './support/instrument';

// Edge mode counts at constant indexes in module variables, which only the runtime's flush adds into the
// file's array: these read the counts while the program runs, and with a file evaluated twice.
// sign's edges: the \`if\` (true: x > 0), then the conditional (true: x < 0), whose arms join (normal).
const source = `
function sign(x) {
  if (x > 0) return 1;
  return x < 0 ? -1 : 0;
}
module.exports = function run(list, probe) {
  for (const x of list) {
    sign(x);
    if (x === 0) probe();
  }
};
`;

/** The instrumented file as CommonJS: a fresh module function per evaluation, as Node and jest's registry make. */
function evaluate(code: string): (list: number[], probe: () => void) => void {
  const module = { exports: {} as (list: number[], probe: () => void) => void };
  new Function('module', 'require', code)(module, runtimeGlobals().require);
  return module.exports;
}

/** What the realm's snapshot says of sign, as derived edge counts. */
function sign(): Record<string, number> {
  const file = snapshot(getStore()).files.find((f) => f.key === 'virtual/sign.cjs')!;
  return derivedEdgeKinds(file).sign;
}

describe("edge mode's counter variables", () => {
  const code = instrument(source, 'sign.cjs', { mode: 'edge' });

  test('the instrumented file counts in them', () => {
    expect(code).toMatch(/_pp_take/);
  });

  test('a snapshot taken while the program runs sees every count so far', () => {
    resetCounts();
    const seen: Record<string, number>[] = [];
    evaluate(code)([3, -1, 0, 5, 0, -2], () => seen.push(sign()));
    expect(seen).toEqual([
      { activations: 3, entry: 3, true: 2, false: 3, normal: 2, return: 3 },
      { activations: 5, entry: 5, true: 3, false: 5, normal: 3, return: 5 },
    ]);
    expect(sign()).toEqual({ activations: 6, entry: 6, true: 4, false: 6, normal: 4, return: 6 });
  });

  test("a file evaluated twice in one realm (jest's registry after resetModules): one record, both evaluations' counts", () => {
    resetCounts();
    const first = evaluate(code);
    first([1, 2], () => {});
    const second = evaluate(code);
    second([-1], () => {});
    first([0], () => {});
    expect(Object.keys(getStore().files)).toEqual(['virtual/sign.cjs']);
    expect(getStore().files['virtual/sign.cjs'].variables).toHaveLength(2);
    expect(sign()).toEqual({ activations: 4, entry: 4, true: 3, false: 3, normal: 2, return: 4 });
  });
});
