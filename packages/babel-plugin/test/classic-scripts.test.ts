import { transformSync } from '@babel/core';
import { createContext, runInContext } from 'node:vm';
import pathprof, { type PluginOptions } from '../src';
import { getStore, snapshot } from '@pathprof/runtime';
import { resetCounts, runtimeGlobals } from './support/counted-paths';
import { countedInterproceduralPaths } from './support/interprocedural-oracle';
import { virtualPath } from './support/instrument';

/** A classic script, as a page's `<script>` loads it: its top-level names are the realm's globals. */
function script(code: string, name: string, options: PluginOptions): string {
  return transformSync(code, {
    filename: virtualPath(name),
    babelrc: false,
    configFile: false,
    sourceType: 'script',
    plugins: [[pathprof, { runtime: 'require', ...options }]],
  })!.code!;
}

// Each declares a pattern whose default is a pattern at its top level, which the plugin splits with hidden
// names (`let _pp_v`): in a realm they must not clash with each other or with the other's top-level state.
const first =
  'function sign(x) { if (x < 0) return -1; return x > 0 ? 1 : 0; }\nvar fromFirst = sign(5);\n' +
  'let { w: [fw] = [4] } = { w: [sign(-2)] };';
const second =
  'function twice(x) { return x > 10 ? x : x * 2; }\nfunction both(x) { return twice(x) + twice(-x); }\n' +
  'const { q: { r } = { r: 1 } } = { q: { r: twice(3) } };';

/** What the realm counted for the file, as its profile would hold it (every mode's counters). */
function counted(name: string): unknown {
  const file = snapshot(getStore()).files.find((f) => f.key === `virtual/${name}`);
  if (!file) throw new Error(`nothing counted for ${name}`);
  return file;
}

describe.each([
  ['path', {}],
  ['edge', { mode: 'edge' }],
  ['interprocedural', { mode: 'interprocedural' }],
  ['paths per calling context', { contexts: true }],
  ['calling contexts', { mode: 'contexts' }],
] as [string, PluginOptions][])('two classic scripts in one realm, %s mode', (_, options) => {
  test("each script counts in its own counters: the second script's names do not replace the first's", () => {
    // Each script alone in a realm: what each file's counts must be.
    resetCounts();
    const firstAlone = createContext(runtimeGlobals());
    runInContext(script(first, 'first.js', options), firstAlone);
    runInContext('sign(-3); sign(0); sign(7); sign(-7);', firstAlone);
    const secondAlone = createContext(runtimeGlobals());
    runInContext(script(second, 'second.js', options), secondAlone);
    runInContext('twice(20); both(7);', secondAlone);
    const expected = [counted('first.js'), counted('second.js')];

    // Both in one realm, as two `<script>` elements of a page, the first's function called after the second loaded.
    resetCounts();
    const page = createContext(runtimeGlobals());
    runInContext(script(first, 'first.js', options), page);
    runInContext(script(second, 'second.js', options), page);
    runInContext('sign(-3); sign(0); twice(20); sign(7); both(7); sign(-7);', page);
    expect([counted('first.js'), counted('second.js')]).toEqual(expected);
    expect(runInContext('[fw, r]', page)).toEqual([-1, 6]);
  });

  // Another script can call any of its functions, one it calls itself too: `twice` must not take a hand-off
  // (a register, a calling context) left behind by the last call `both` made.
  test('a function another script calls counts the same whenever the call comes', () => {
    const orders = ['twice(20); twice(3); both(7);', 'both(7); twice(20); twice(3);'].map((calls) => {
      resetCounts();
      const page = createContext(runtimeGlobals());
      runInContext(script(second, 'second.js', options), page);
      runInContext(calls, page);
      if (options.mode === 'interprocedural') {
        // Each outside call is a root: with no loop, one path each, and one for the script's top level.
        const { paths } = countedInterproceduralPaths('virtual/second.js');
        expect(paths.reduce((sum, [, n]) => sum + n, 0)).toBe(4);
      }
      return counted('second.js');
    });
    expect(orders[1]).toEqual(orders[0]);
  });

  // Loaded twice into one page, the script keeps its record and its top-level state (edge mode's counter
  // variables are globals here): what each load and call counts adds up as in two pages. (Without `first`'s
  // top-level `let`, which a second load could not declare again.)
  test('a script evaluated twice in its realm counts what both evaluations did', () => {
    const reloaded = first.slice(0, first.indexOf('let '));
    const once = (calls: string) => {
      const page = createContext(runtimeGlobals());
      runInContext(script(reloaded, 'first.js', options), page);
      runInContext(calls, page);
    };
    const countsOf = () => {
      const file = snapshot(getStore()).files.find((f) => f.key === 'virtual/first.js')!;
      return { counts: file.counts, hashed: file.hashed };
    };
    resetCounts();
    once('sign(-3);');
    once('sign(7);');
    const expected = countsOf();
    resetCounts();
    const page = createContext(runtimeGlobals());
    runInContext(script(reloaded, 'first.js', options), page);
    runInContext('sign(-3);', page);
    runInContext(script(reloaded, 'first.js', options), page);
    runInContext('sign(7);', page);
    expect(countsOf()).toEqual(expected);
  });
});
