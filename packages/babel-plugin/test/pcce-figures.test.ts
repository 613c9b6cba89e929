import { expandMetadata, type FileProfile, getStore, snapshot } from '@pathprof/runtime';
import { contextValues, contextOfValue } from '@pathprof/numbering';
import { runPlain } from '@pathprof/testkit';
import { ContextDecoder, type FileMetadata } from '../src';
import { resetCounts, runtimeGlobals } from './support/counted-paths';
import { instrument } from './support/instrument';
import { FIG4_IDS } from '../../numbering/test/calling-context/support/paper-figures';

/**
 * Sumner et al.'s figures as JavaScript, instrumented with `mode: 'contexts'` and run: the ids the paper gives
 * each context come out of the running program, not only out of the numbering.
 */

/** Fig. 4: nine functions; D calls F at two sites (D1, D2). Declared so each callee's callers come in the paper's order. */
const FIG4 = `function A() { B(); J(); }
function B() { D(); E(); }
function D() { F(); F(); G(); }
function E() {}
function F() { H(); I(); }
function G() { I(); }
function H() {}
function I() {}
function J() { D(); G(); I(); }
module.exports = A;
`;

/**
 * Fig. 5: F calls C in a loop (site l), the recursion's back edge. The argument says which way each C goes
 * (D or G), so one run takes one chain of the recursion.
 */
const FIG5 = `function A(plan) { B(); C(plan, 0); }
function B() { E(); }
function C(plan, i) { if (plan[i] === 'D') D(plan, i); else G(plan, i); }
function D(plan, i) { E(); F(plan, i); }
function E() {}
function G(plan, i) { F(plan, i); }
function F(plan, i) { for (let k = i + 1; k === i + 1 && k < plan.length; k++) C(plan, k); H(); }
function H() {}
module.exports = A;
`;

interface CountedContext {
  /** The context as the paper writes it (`AJD2FI`): the functions, D's call site before F. */
  readonly name: string;
  readonly id: number;
  /** The encoding stack, bottom first: each run's context id (in the caller, F) and length. */
  readonly stack: [number, number][];
}

/** Runs `source`'s entry on each argument list and decodes every counted context. */
function countedContexts(source: string, name: string, runs: unknown[][]): CountedContext[] {
  resetCounts();
  const code = instrument(source, name, { mode: 'contexts' });
  for (const args of runs)
    expect(runPlain(code, args, { globals: runtimeGlobals() })).toHaveProperty('value');
  const file = snapshot(getStore()).files.find((f) => f.key === `virtual/${name}`)!;
  const meta = expandMetadata(file.meta) as FileMetadata;
  const values = contextValues(meta.contexts!.numbering);
  const decoder = new ContextDecoder([{ key: file.key, hash: file.hash, meta }]);
  const contexts = file.contexts!;
  const idOf = (value: number) => contextOfValue(values, value)!.id;
  return contexts.entries.map(([stack, value]) => {
    const frames = decoder.decode(file.key, file.hash, contexts.stacks, stack, value);
    const text = frames
      .map((f) =>
        f.kind === 'cut' ? '…' : `${f.name === 'F' ? siteLabel(meta, file, f.site) : ''}${f.name}`,
      )
      .join('');
    return { name: text.replace(/^<program>/, ''), id: idOf(value), stack: stackRuns(contexts, stack, idOf) };
  });
}

/** D's two calls of F are sites D1 and D2 of the paper: told apart by column. */
function siteLabel(meta: FileMetadata, file: FileProfile, site: number | null): string {
  if (site === null || !file.key.includes('fig4')) return '';
  const [line, column] = meta.contexts!.sites.slice(2 * site, 2 * site + 2);
  return line === 3 ? (column === 15 ? '1' : '2') : '';
}

function stackRuns(
  contexts: NonNullable<FileProfile['contexts']>,
  stack: number,
  idOf: (value: number) => number,
): [number, number][] {
  const runs: [number, number][] = [];
  for (let s = stack; s >= 0; s = contexts.stacks[s][0])
    runs.unshift([idOf(contexts.stacks[s][3]), contexts.stacks[s][5]]);
  return runs;
}

afterEach(resetCounts);

test("Fig. 4: every context of every function gets the paper's id, AJGI is 6", () => {
  const contexts = countedContexts(FIG4, 'fig4.js', [[]]);
  const ids = Object.fromEntries(contexts.filter((c) => c.name).map((c) => [c.name, c.id]));
  expect(ids).toEqual(FIG4_IDS);
  // Acyclic, every call numbered: no function was entered any other way, nothing was pushed.
  expect(contexts.every((c) => c.stack.length === 0)).toBe(true);
});

test('Fig. 4 with parameter defaults: an activation that starts in a default takes the hand-off there', () => {
  // F and H start in their defaults (called without arguments), E in its body (its default skipped).
  const withDefaults = FIG4.replace('function B() { D(); E(); }', 'function B(x = 1) { D(); E(x); }')
    .replace('function E() {}', 'function E(y = 2) {}')
    .replace('function F() {', 'function F(z = 3) {')
    .replace('function H() {}', 'function H(w = 4) {}');
  const contexts = countedContexts(withDefaults, 'fig4-defaults.js', [[]]);
  const ids = Object.fromEntries(contexts.filter((c) => c.name).map((c) => [c.name, c.id]));
  expect(ids).toEqual(FIG4_IDS);
  expect(contexts.every((c) => c.stack.length === 0)).toBe(true);
});

test("Fig. 5: recursion pushes <id, l> at F's call of C, and repeated entries run-length encode", () => {
  const plans = [['G', 'G', 'G', 'G'], ['G', 'D'], ['G'], ['D', 'D'], ['D']];
  const contexts = countedContexts(
    FIG5,
    'fig5.js',
    plans.map((plan) => [plan]),
  );
  const find = (name: string) => contexts.find((c) => c.name === name);
  // The paper's oracles: ACGFCGFCGFCGF has stack [3, 2, 2] (3:1, 2:2) and id 2.
  expect(find('ACGFCGFCGFCGF')).toEqual({
    name: 'ACGFCGFCGFCGF',
    id: 2,
    stack: [
      [3, 1],
      [2, 2],
    ],
  });
  expect(find('ACGFCDE')).toEqual({ name: 'ACGFCDE', id: 1, stack: [[3, 1]] });
  expect(find('ACGFCDFH')).toEqual({ name: 'ACGFCDFH', id: 0, stack: [[3, 1]] });
  expect(find('ACGFH')).toEqual({ name: 'ACGFH', id: 3, stack: [] });
  expect(find('ACDFCDE')).toEqual({ name: 'ACDFCDE', id: 1, stack: [[1, 1]] });
  expect(find('ABE')).toEqual({ name: 'ABE', id: 0, stack: [] });
  expect(find('ACDE')).toEqual({ name: 'ACDE', id: 2, stack: [] });
  // However deep the recursion, one run: the stack of the deepest context has two entries, not four.
  const deepest = contexts.reduce((a, b) => (b.name.length > a.name.length ? b : a));
  expect(deepest.name).toBe('ACGFCGFCGFCGFH');
  expect(deepest.stack).toEqual([
    [3, 1],
    [2, 2],
  ]);
});
