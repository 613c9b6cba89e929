import { transformSync } from '@babel/core';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import {
  classifyPreferentialPath,
  INTERESTING_SET_FORMAT,
  numberPreferentialPaths,
  preferentialIdOf,
  type InterestingFunction,
} from '@pathprof/numbering';
import { runPlain } from '@pathprof/testkit';
import pathprof, { FunctionFingerprints, numberingOf, type FileNotes, type PluginOptions } from '../src';
import { countedPaths, resetCounts, runtimeGlobals } from './support/counted-paths';
import { virtualPath } from './support/instrument';
import { preferentialCounts } from './support/preferential-on-program';

const dir = mkdtempSync(join(tmpdir(), 'pathprof-ppp-build-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const KEY = 'virtual/src/example.js';

function build(code: string, options: PluginOptions): { code: string; notes: FileNotes } {
  const result = transformSync(code, {
    filename: virtualPath('src/example.js'),
    babelrc: false,
    configFile: false,
    plugins: [[pathprof, { runtime: 'require', ...options }]],
  })!;
  return { code: result.code!, notes: (result.metadata as unknown as { pathprof: FileNotes }).pathprof };
}

/** Writes an interesting set listing `functions` of the example file; returns its path. */
function writeSet(name: string, functions: InterestingFunction[], file = KEY): string {
  const path = join(dir, name);
  writeFileSync(
    path,
    JSON.stringify({ format: INTERESTING_SET_FORMAT, selection: 'test', files: [{ file, functions }] }),
  );
  return path;
}

/** Each function's Ball-Larus ids for each input, and its set entry's fingerprint, from a path-mode build. */
function pathModeIds(code: string, inputs: unknown[][], options: PluginOptions = {}) {
  const built = build(code, options);
  const ids = inputs.map((args) => {
    resetCounts();
    runPlain(built.code, args, { globals: runtimeGlobals() });
    return countedPaths(KEY).paths.map((pairs) => pairs.map(([id]) => id));
  });
  resetCounts();
  runPlain(built.code, inputs[0], { globals: runtimeGlobals() });
  const { meta } = countedPaths(KEY);
  const fingerprints = new FunctionFingerprints(
    code,
    meta.functions.map((fn) => fn.range),
  );
  return {
    ids,
    meta,
    fingerprint: (k: number) => fingerprints.of(meta.functions[k].path!.checksum, meta.functions[k].range),
  };
}

/**
 * Vaswani, Nori & Chilimbi's running example (their Figs. 3 and 13, digest §4.1) as a JavaScript function:
 * s tests x (s→a, s→b); a tests y (a→c breaks out, a→b falls through to b); b goes on to c; c tests z
 * (c→d, c→t). Its graph also has exceptional edges, whose paths PPP leaves uninteresting. Numbered with
 * successors in edge order, as the paper's figures are, with I = {sacdt, sact, sbct}.
 */
const RUNNING_EXAMPLE = `function example(x, y, z) {
  let n = 0;
  out: {
    if (x) {
      n = 1;
      if (y) break out;
    }
    n = 2;
  }
  if (z) n = 3;
  return n;
}
module.exports = example;
`;
const PATHS: Record<string, [boolean, boolean, boolean]> = {
  sacdt: [true, true, true],
  sact: [true, true, false],
  sabcdt: [true, false, true],
  sabct: [true, false, false],
  sbcdt: [false, false, true],
  sbct: [false, false, false],
};

describe('the paper’s running example as a JavaScript function', () => {
  const names = Object.keys(PATHS);
  const order: PluginOptions = { successorOrder: 'edge-id' };
  const base = pathModeIds(RUNNING_EXAMPLE, Object.values(PATHS), order);
  const id = Object.fromEntries(names.map((name, i) => [name, base.ids[i][1][0]]));
  const interesting = ['sacdt', 'sact', 'sbct'];
  const set = writeSet('running-example.json', [
    { name: 'example', fingerprint: base.fingerprint(1), pathIds: interesting.map((p) => id[p]) },
  ]);
  const built = build(RUNNING_EXAMPLE, { ...order, mode: 'preferential', interesting: set });

  test('the interesting paths take slots 0, 1, 2 in the paper’s order: an array of 3, no hole', () => {
    resetCounts();
    runPlain(built.code, [false, false, false], { globals: runtimeGlobals() });
    const { meta } = preferentialCounts(KEY);
    const pf = meta.functions[1].preferential!;
    expect(pf.slotPathId).toEqual(interesting.map((p) => id[p]));
    expect([pf.droppedPathIds, pf.listed]).toEqual([[], true]);
  });

  test('the other paths alias sacdt (sabct → 0) and sact (sbcdt → 1), or underflow (sabcdt → −1)', () => {
    resetCounts();
    runPlain(built.code, [false, false, false], { globals: runtimeGlobals() });
    const { meta } = preferentialCounts(KEY);
    const fn = meta.functions[1];
    const numbering = numberingOf(meta, fn);
    const ppp = numberPreferentialPaths(
      { functionName: 'example', fingerprint: 'f', numbering },
      { functionName: 'example', fingerprint: 'f', pathIds: interesting.map((p) => id[p]) },
    );
    expect(ppp.slotPathId).toEqual(fn.preferential!.slotPathId);
    const classes = names.map((name) => {
      const pppId = preferentialIdOf(ppp, numbering, id[name]);
      const c = classifyPreferentialPath(ppp, pppId, id[name]);
      return [name, pppId, c.kind === 'interesting' ? 'interesting' : c.reason];
    });
    expect(classes).toEqual([
      ['sacdt', 0, 'interesting'],
      ['sact', 1, 'interesting'],
      ['sabcdt', -1, 'underflow'],
      ['sabct', 0, 'alias'],
      ['sbcdt', 1, 'alias'],
      ['sbct', 2, 'interesting'],
    ]);
  });

  test('run on each path, the code counts the interesting ones in their slots and the others as residual', () => {
    names.forEach((name, i) => {
      resetCounts();
      runPlain(built.code, PATHS[name], { globals: runtimeGlobals() });
      const counted = preferentialCounts(KEY).functions[1];
      const slot = interesting.indexOf(name);
      expect([name, counted]).toEqual([
        name,
        slot >= 0
          ? { interesting: [[id[name], 1]], residual: [] }
          : { interesting: [], residual: [[base.ids[i][1][0], 1]] },
      ]);
    });
  });
});

describe('preferential mode at build time', () => {
  const source = `function sign(x) {
  if (x > 0) return 1;
  if (x < 0) return -1;
  return 0;
}
function twice(f = (v) => v) {
  return f(2) * 2;
}
module.exports = (x) => [sign(x), twice()];
`;
  const inputs = [[1], [-1], [0]];

  test('options: the mode needs a set, the set needs the mode, and a set that cannot be used is named', () => {
    const fails = (options: unknown, message: string | RegExp) =>
      expect(() => build(source, options as PluginOptions)).toThrow(message);
    const prefix = 'babel-plugin-pathprof: invalid options: ';
    fails({ mode: 'preferential' }, `${prefix}mode "preferential" needs "interesting"`);
    fails({ interesting: 'x.json' }, `${prefix}"interesting" applies to mode "preferential" only`);
    fails({ mode: 'preferential', interesting: 3 }, `${prefix}"interesting" must be the path of`);
    fails({ mode: 'edge', successorOrder: 'edge-id' }, `${prefix}"successorOrder" applies to modes`);
    const missing = join(dir, 'missing.json');
    fails(
      { mode: 'preferential', interesting: missing },
      `${prefix}"interesting": cannot read ${missing} (ENOENT)`,
    );
    const garbled = join(dir, 'garbled.json');
    writeFileSync(garbled, '{"format": "pathprof-interesting/1", "files": [');
    fails(
      { mode: 'preferential', interesting: garbled },
      `${prefix}"interesting": ${garbled}: not valid JSON`,
    );
    writeFileSync(garbled, '{"format": "pathprof-profile/1", "files": []}');
    fails(
      { mode: 'preferential', interesting: garbled },
      `${prefix}"interesting": ${garbled}: not an interesting set (format "pathprof-profile/1"`,
    );
    const { fingerprint } = pathModeIds(source, inputs);
    const outOfRange = writeSet('out-of-range.json', [
      { name: 'sign', fingerprint: fingerprint(1), pathIds: [99] },
    ]);
    fails(
      { mode: 'preferential', interesting: outOfRange },
      /"interesting": .*out-of-range\.json: virtual\/src\/example\.js: sign: path id 99 is not in \[0, \d+\)/,
    );
  });

  test('a function changed since the set was made is counted in path mode, with a warning naming it', () => {
    const { ids, fingerprint } = pathModeIds(source, inputs);
    const set = writeSet('stale.json', [
      { name: 'sign', fingerprint: `${fingerprint(1)}0`, pathIds: ids[0][1] },
      { name: 'twice', fingerprint: fingerprint(2), pathIds: [] },
    ]);
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const { code, notes } = build(source, { mode: 'preferential', interesting: set });
      expect(warn).toHaveBeenCalledWith(
        `pathprof: ${KEY}: changed since ${relative(process.cwd(), set)} was made, so counted in path mode (no residual paths): sign (line 1)`,
      );
      expect(notes.preferential!.stale).toEqual([{ function: 'sign', line: 1 }]);
      expect(notes.preferential!.unlisted.map((f) => f.function)).toEqual([
        '<program>',
        '<anonymous>',
        'module.exports',
      ]);
      inputs.forEach((args, i) => {
        resetCounts();
        expect(runPlain(code, args, { globals: runtimeGlobals() })).toEqual({ value: [args[0], 4] });
        const { meta, functions } = preferentialCounts(KEY);
        expect(meta.functions[1].path).toBeDefined();
        expect(functions[1]).toEqual({ interesting: [[ids[i][1][0], 1]], residual: [] });
        // twice is listed with no path: its one path, with the default applied, is residual.
        expect(functions[2]).toEqual({ interesting: [], residual: [[ids[i][2][0], 1]] });
      });
    } finally {
      warn.mockRestore();
    }
  });

  test('a function moved by an edit elsewhere keeps its set; one edited is changed', () => {
    const { ids, fingerprint } = pathModeIds(source, inputs);
    const set = writeSet('moved.json', [
      { name: 'sign', fingerprint: fingerprint(1), pathIds: ids[0][1] },
      { name: 'twice', fingerprint: fingerprint(2), pathIds: ids[0][2] },
    ]);
    const moved = `// a comment that moves everything down\n${source.replace('f(2) * 2', 'f(2) + f(2)')}`;
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const { notes } = build(moved, { mode: 'preferential', interesting: set });
      expect(notes.preferential!.stale).toEqual([{ function: 'twice', line: 7 }]);
    } finally {
      warn.mockRestore();
    }
  });

  test('the file’s metadata names the set and its content’s fingerprint; a changed set changes the build', () => {
    const { fingerprint } = pathModeIds(source, inputs);
    const set = writeSet('digest.json', [{ name: 'sign', fingerprint: fingerprint(1), pathIds: [0] }]);
    const first = build(source, { mode: 'preferential', interesting: set }).code;
    expect(first).toContain(`"preferential":{"interesting":"${relative(process.cwd(), set)}"`);
    writeSet('digest.json', [{ name: 'sign', fingerprint: fingerprint(1), pathIds: [1] }]);
    const second = build(source, { mode: 'preferential', interesting: set }).code;
    expect(second).not.toEqual(first);
  });
});
