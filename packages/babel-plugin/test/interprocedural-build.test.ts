import { transformSync } from '@babel/core';
import { listFixtures } from '@pathprof/testkit';
import pathprof, { type FileNotes, type PluginOptions } from '../src';
import { virtualPath } from './support/instrument';

// Instrumenting a large fixture takes seconds alone, far longer beside the rest of the suite on two cores.
jest.setTimeout(60_000);

function build(code: string, options: PluginOptions): { code: string; notes: FileNotes } {
  const result = transformSync(code, {
    filename: virtualPath('src/calls.js'),
    babelrc: false,
    configFile: false,
    plugins: [[pathprof, { runtime: 'require', ...options }]],
  })!;
  return { code: result.code!, notes: (result.metadata as unknown as { pathprof: FileNotes }).pathprof };
}

const source = `
function leaf(x) { return x > 0 ? x : -x; }
const twice = (x) => leaf(x) + leaf(-x);
function fact(n) { return n <= 1 ? 1 : n * fact(n - 1); }
function callbacks(xs) { return xs.map(leaf).concat(twice(xs.length), fact(3)); }
async function later(x) { return leaf(await x); }
function* gen(x) { yield leaf(x); }
module.exports = { callbacks, later, gen, obj: { m() { return leaf(1); } } };
`;

describe('interprocedural mode at build time', () => {
  // The fixture's counts are checked against the tracer with the others (interprocedural-fixtures.test.ts);
  // this checks that its callees took the relative hand-off the fixture is there for.
  test.each(['piecewise', 'context'] as const)(
    '%s: a callee in which no path ends but by an exception counts from 0 and hands exceptions up pending',
    (scheme) => {
      const fixture = listFixtures().find((f) => f.name === 'interprocedural-relative.js')!;
      const { code } = build(fixture.source, { mode: 'interprocedural', scheme });
      const body = (name: string) => code.match(new RegExp(`\\nfunction ${name}\\([^]*?\\n\\}`))![0];
      // The register starts at 0: in its declaration (`let …, _pp_r = 0`) or by a statement of the prologue.
      const fromZero = /\blet [^;]*\b_pp_r\d* = 0[,;]|^\s*_pp_r\d* = 0;/m;
      for (const name of ['leaf', 'constant', 'middle', 'ownHandler', 'leaves']) {
        expect([name, fromZero.test(body(name)), body(name).includes('.inp')]).toEqual([name, true, false]);
      }
      // `constant` has one way through: its callers add what it adds, it hands nothing back.
      expect(body('constant')).not.toContain('.ret =');
      // Passed up by a relative caller, recorded by the handlers of `catches` and `run`.
      expect(body('leaves')).toMatch(/\.pend && \(_pp_mailbox\d*\.exc \+= _pp_s\d*\)/);
      for (const name of ['catches', 'run']) expect(body(name)).toMatch(/\.pend = false, .*\.exc\]\+\+/);
    },
  );

  test('the build lists every split call, crossed or cut and why, with N', () => {
    const { notes } = build(source, { mode: 'interprocedural', scheme: 'context' });
    const ipp = notes.interprocedural!;
    expect(ipp.scheme).toBe('context');
    expect(ipp.fallback).toBeNull();
    expect(BigInt(ipp.pathCount!)).toBeGreaterThan(0n);
    const sites = ipp.sites.map((s) => `${s.caller}→${s.callee} L${s.line}: ${s.cut ?? 'crossed'}`);
    expect(sites).toEqual([
      'twice→leaf L3: crossed',
      'twice→leaf L3: crossed',
      'fact→fact L4: recursive',
      'callbacks→twice L5: crossed',
      'callbacks→fact L5: crossed',
      'later→leaf L6: crossed',
      'gen→leaf L7: crossed',
      'm→leaf L8: crossed',
    ]);
  });

  test('calls into async functions, generators and methods, callbacks and spread calls are never split', () => {
    // d's default is a path decision its activation starts at; e's destructuring stays in its list (y's
    // default names x) and reads the argument before any code of e runs.
    const { notes } = build(
      `async function a() {} function* g() {} function f(...xs) { return xs.length; }
       function d(x = 1) { return x; } function e({ x }, y = x) { return y; }
       module.exports = () => [a(), g(), f(...[1, 2]), [1].map(f), d(2), e({}), f(3)];`,
      { mode: 'interprocedural' },
    );
    const ipp = notes.interprocedural!;
    expect(ipp.sites.map((s) => `${s.caller}→${s.callee}: ${s.cut ?? 'crossed'}`)).toEqual([
      'module.exports→d: crossed',
      'module.exports→f: crossed',
    ]);
    // The build says why each call of a function it knows is not crossed; the callback is not a call of f.
    expect(ipp.notCrossed.map((c) => `${c.caller}→${c.callee} L${c.line}: ${c.why}`)).toEqual([
      'module.exports→a L3: async',
      'module.exports→g L3: generator',
      'module.exports→f L3: spread',
      'module.exports→e L3: parameters',
    ]);
  });

  test('a file that does not fit the budget in any way is counted per function, with a warning naming it', () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
    const { code, notes } = build(
      'function a(o) { return o.x; }\nfunction b(o) { return o.y; }\nfunction c(o) { return o.z; }\nmodule.exports = [a, b, c];',
      { mode: 'interprocedural', maxPaths: 2 },
    );
    expect(notes.interprocedural!.fallback).toMatch(/do not fit in maxPaths \(2\).*path mode/);
    expect(code).not.toContain('_pp_mailbox');
    expect(code).toMatch(/mode.{1,3}:.{1,3}path/);
    expect(warn).toHaveBeenCalledWith(
      expect.stringContaining('pathprof: virtual/src/calls.js: its interprocedural paths do not fit'),
    );
    warn.mockRestore();
  });

  test('a small budget cuts crossed calls (reported) before giving up on them', () => {
    const chain = Array.from(
      { length: 12 },
      (_, i) =>
        `function f${i}(x) { if (x > ${i}) x = ${i > 0 ? `f${i - 1}(x) + f${i - 1}(x - 1)` : '0'}; return x; }`,
    ).join('\n');
    const { notes } = build(`${chain}\nmodule.exports = f11;`, {
      mode: 'interprocedural',
      maxPaths: 2 ** 16,
    });
    const cut = notes.interprocedural!.sites.filter((s) => s.cut === 'budget');
    expect(cut.length).toBeGreaterThan(0);
    expect(notes.interprocedural!.sites.some((s) => s.cut === null)).toBe(true);
    expect(BigInt(notes.interprocedural!.pathCount!)).toBeLessThanOrEqual(2n ** 16n);
  });
});
