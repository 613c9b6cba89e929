import { Random, runPlain } from '@pathprof/testkit';
import { transformSync } from '@babel/core';
import type { PathNumbering } from '@pathprof/numbering';
import pathprof, { type PathFallback } from '../../src';
import { instrument, virtualPath } from '../support/instrument';
import { checkPathModeOnSource } from '../support/path-mode-on-program';

/**
 * Functions far beyond what people write by hand: exponential path counts, a huge `switch`, deep nesting.
 * Each must instrument without crashing, behave like the original, count exactly what the traced run took,
 * and use (and record) the fallbacks the numbering has for it: edges cut when the paths exceed `maxPaths`,
 * a hash table instead of an array beyond `hashThreshold`. Times are bounded generously (a loaded 2-core
 * machine); the 9 MB file is in `large-file.test.ts`, behind `PATHPROF_LARGE=1`.
 */
function checkLarge(source: string, name: string, inputs: unknown[][]) {
  for (const args of inputs) {
    expect(runPlain(source, args, { timeoutMs: 10_000 })).not.toHaveProperty('error');
  }
  const started = Date.now();
  const numberings = checkPathModeOnSource(source, name, inputs, name);
  return { numberings, seconds: (Date.now() - started) / 1000 };
}

const EIGHTY_IFS = `module.exports = function many(x) {
  let s = 0;
${Array.from({ length: 80 }, (_, i) => `  if (x[${i}]) s += ${i};`).join('\n')}
  return s;
};`;

/** Runs `work`, returning the warnings it printed (the plugin warns about cut edges at build time). */
function warningsOf(work: () => void): string[] {
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  try {
    work();
    return warn.mock.calls.map((args) => args.join(' '));
  } finally {
    warn.mockRestore();
  }
}

test('80 sequential ifs (2^80 paths): edges are cut, the count stays exact, the cut is recorded', () => {
  const source = EIGHTY_IFS;
  const rng = new Random(80);
  const inputs = Array.from({ length: 6 }, () => [Array.from({ length: 80 }, () => rng.chance(0.5))]);
  let result = {} as ReturnType<typeof checkLarge>;
  const warnings = warningsOf(() => (result = checkLarge(source, 'eighty-ifs.js', inputs)));
  const { numberings, seconds } = result;
  expect(warnings).toEqual([
    expect.stringMatching(
      /^pathprof: virtual\/eighty-ifs\.js: more than 1073741824 paths, paths split at cut edges \(counts stay exact\): many \(line 1\): \d+ edges cut$/,
    ),
  ]);
  // These numberings are recomputed from the file's metadata, as a report does: the cuts are there to show.
  const many = numberings.find((n) => n.overflow !== null)!;
  expect(many.pathCount).toBeLessThanOrEqual(2 ** 30);
  expect(many.overflow!.cuts.length).toBeGreaterThan(0);
  expect(many.storage.kind).toBe('hash');
  expect(seconds).toBeLessThan(30);
});

test('a smaller maxPaths cuts more and still counts exactly; one too small for any cut is a clear error', () => {
  const source = `module.exports = function some(x) {
  let s = 0;
${Array.from({ length: 24 }, (_, i) => `  if (x & ${1 << i}) s += ${i}; else s -= 1;`).join('\n')}
  return s;
};`;
  const inputs = [[0], [5], [0xffffff], [0x5a5a5a]];
  let numberings: PathNumbering[] = [];
  const warnings = warningsOf(
    () => (numberings = checkPathModeOnSource(source, 'budget.js', inputs, 'budget', { maxPaths: 1024 })),
  );
  expect(warnings).toHaveLength(1);
  const some = numberings.find((n) => n.overflow !== null)!;
  expect(some.pathCount).toBeLessThanOrEqual(1024);
  expect(some.overflow!.cuts.length).toBeGreaterThan(1);
  expect(some.storage.kind).toBe('array');
  // Cuts add an entry path per cut target, so a budget below that cannot be met: the build says so.
  expect(() => instrument(source, 'tiny.js', { maxPaths: 64 })).toThrow(
    /virtual\/tiny\.js: cutting every cuttable edge still leaves \d+ paths, more than the budget of 64/,
  );
});

test("Babel's result metadata lists every fallback: hash storage, and cut edges", () => {
  let result: ReturnType<typeof transformSync> = null;
  const warnings = warningsOf(
    () =>
      (result = transformSync(EIGHTY_IFS, {
        filename: virtualPath('metadata.js'),
        babelrc: false,
        configFile: false,
        plugins: [[pathprof, { runtime: 'require' }]],
      })),
  );
  expect(warnings).toHaveLength(1);
  const { fallbacks } = (result!.metadata as unknown as { pathprof: { fallbacks: PathFallback[] } }).pathprof;
  expect(fallbacks).toEqual([
    {
      function: 'many',
      line: 1,
      pathCount: expect.any(Number),
      storage: 'hash',
      cutEdges: expect.any(Number),
    },
  ]);
  expect(fallbacks[0].cutEdges).toBeGreaterThan(0);
});

test('a 10,000-case switch with fallthrough counts into a hash table, exactly', () => {
  const cases = Array.from({ length: 10_000 }, (_, i) =>
    i % 7 === 3 ? `    case ${i}: s += ${i};` : `    case ${i}: s += ${i}; break;`,
  );
  const source = `module.exports = function big(x) {
  let s = 0;
  switch (x) {
${cases.join('\n')}
    default: s = -1;
  }
  return s;
};`;
  const { numberings, seconds } = checkLarge(source, 'switch.js', [[3], [9999], ['x']]);
  const big = numberings.find((n) => n.pathCount > 10_000)!;
  // Hash storage alone changes nothing a user sees: it is listed in the metadata, without a warning.
  expect(big.storage.kind).toBe('hash');
  expect(big.overflow).toBeNull();
  expect(seconds).toBeLessThan(90);
}, 180_000);

test('200-deep nesting of statements and expressions, 100-deep closures', () => {
  const depth = 200;
  // Printing 100 nested instrumented closures takes @babel/generator about half of Node's default stack (each
  // gains a try and a block): at 200 it overflowed now and then, inside @babel/generator.
  const closureDepth = 100;
  const nest = (inner: string, wrap: (s: string, i: number) => string, levels = depth) =>
    Array.from({ length: levels }, (_, i) => i).reduce((s, i) => wrap(s, i), inner);
  const source = [
    `function ifs(x) { ${nest('return -1;', (s, i) => `if (x > ${i}) { ${s} } else { x += ${i % 3}; }`)} return x; }`,
    `function loops(n) { let s = 0; ${nest('s++;', (s, i) => `for (let i${i} = 0; i${i} < (${i} % 50 ? 1 : n); i${i}++) { ${s} }`)} return s; }`,
    `function tries(x) { let s = 0; ${nest('if (x) throw new Error("deep"); s++;', (s, i) => `try { ${s} } finally { s += ${i}; }`)} return s; }`,
    `function closures() { ${nest('return 1;', (s) => `return function () { ${s} };`, closureDepth)} }`,
    `function conds(x, y) { return ${nest('x', (s, i) => `(x > ${i} ? ${s} : y)`)}; }`,
    `function logic(a, b, x) { return ${nest('x', (s, i) => `(${i % 2 ? 'a' : 'b'} && ${s})`)}; }`,
    'let f = closures();',
    `for (let i = 0; i < ${closureDepth}; i++) f = f();`,
    `module.exports = (x) => { let t = 'ok'; try { tries(x); } catch (e) { t = e.message; } return [ifs(x), loops(2), t, f, conds(x, 'y'), logic(x, 1, 2)]; };`,
  ].join('\n');
  let seconds = 0;
  const warnings = warningsOf(() => ({ seconds } = checkLarge(source, 'deep.js', [[0], [150], [1000]])));
  // 200 nested loops or finally blocks have more than 2^30 paths: those two are cut, and said to be.
  expect(warnings).toEqual([expect.stringMatching(/: loops \(line 2\): \d+ edges cut; tries \(line 3\)/)]);
  expect(seconds).toBeLessThan(60);
}, 120_000);
