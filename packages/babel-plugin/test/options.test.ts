import { transformSync } from '@babel/core';
import pathprof, { DEFAULT_EXCLUDE } from '../src';
import { resolveOptions } from '../src/options';
import { virtualPath } from './support/instrument';

const transform = (options: unknown, name = 'src/a.js', code = 'function f(a) { return a ? 1 : 2; }') =>
  transformSync(code, {
    filename: virtualPath(name),
    babelrc: false,
    configFile: false,
    plugins: [[pathprof, options]],
  })!.code!;

describe('plugin options', () => {
  test.each([
    [
      { mode: 'paths' },
      '"mode" must be "path", "interprocedural", "preferential", "contexts", "edge" or "trace", not "paths"',
    ],
    [
      { mode: 'edge', contexts: true },
      '"contexts" applies to modes "path" and "contexts" only (the mode is "edge")',
    ],
    [
      { mode: 'preferential', interesting: 'set.json', contexts: true },
      '"contexts" applies to modes "path" and "contexts" only (the mode is "preferential")',
    ],
    [{ contexts: 1 }, '"contexts" must be true or false, not 1'],
    [{ mode: 'contexts', contexts: false }, 'mode "contexts" counts contexts: "contexts" cannot be false'],
    [{ maxContexts: 0 }, '"maxContexts" must be a positive integer, not 0'],
    [{ scheme: 'context' }, '"scheme" applies to mode "interprocedural" only (the mode is "path")'],
    [
      { mode: 'interprocedural', scheme: 'partial' },
      '"scheme" must be "piecewise" or "context", not "partial"',
    ],
    [{ include: 'src/**' }, '"include" must be an array of glob strings'],
    [{ exclude: [''] }, '"exclude" must be an array of glob strings'],
    [{ all: 'yes' }, '"all" must be true or false, not "yes"'],
    [{ hashThreshold: 0 }, '"hashThreshold" must be a positive integer, not 0'],
    [{ maxPaths: 1.5 }, '"maxPaths" must be a positive integer, not 1.5'],
    [{ outputDir: '' }, '"outputDir" must be a non-empty string'],
    [{ runtime: 'global' }, '"runtime" must be "auto", "import" or "require", not "global"'],
    [{ successorOrder: 'dfs' }, '"successorOrder" must be "most-paths-last" or "edge-id", not "dfs"'],
    [
      { mdoe: 'edge' },
      'unknown option "mdoe" (did you mean "mode"?); known: mode, scheme, interesting, contexts, include, exclude, hashThreshold, maxPaths, maxContexts, outputDir, runtime, all, successorOrder',
    ],
    [
      { hashTreshold: 8 },
      'unknown option "hashTreshold" (did you mean "hashThreshold"?); known: mode, scheme, interesting, contexts, include, exclude, hashThreshold, maxPaths, maxContexts, outputDir, runtime, all, successorOrder',
    ],
    [
      { verbose: true },
      'unknown option "verbose"; known: mode, scheme, interesting, contexts, include, exclude, hashThreshold, maxPaths, maxContexts, outputDir, runtime, all, successorOrder',
    ],
  ])('rejects %j with a clear message', (options, message) => {
    expect(() => transform(options)).toThrow(`babel-plugin-pathprof: invalid options: ${message}`);
  });

  test('include and exclude select files by path relative to the working directory', () => {
    const selects = resolveOptions({ include: ['virtual/src/**'] }).selects;
    expect(selects('virtual/src/a.js')).toBe(true);
    expect(selects('virtual/lib/a.js')).toBe(false);
    expect(selects('virtual/src/a.test.js')).toBe(false);
    expect(selects('virtual/src/node_modules/x/index.js')).toBe(false);
    expect(transform({ include: ['nothing/**'] })).not.toContain('registerFile');
    expect(transform({})).toContain('registerFile("virtual/src/a.js"');
  });

  test("by default, istanbul's test-exclude list, node_modules, spec files and __mocks__ are left alone", () => {
    const selects = resolveOptions({}).selects;
    for (const file of ['src/a.js', 'lib/deep/b.ts', 'src/testing.js', 'src/contest.js', 'app/tests.js']) {
      expect([file, selects(file)]).toEqual([file, true]);
    }
    for (const file of [
      'test/helpers.js',
      'tests/fixtures/data.js',
      'test.js',
      'test-utils.ts',
      'src/a.test.js',
      'src/a-test.tsx',
      'src/a.spec.ts',
      'src/__tests__/a.js',
      'src/__mocks__/fs.js',
      'packages/core/test/setup.js',
      'types/index.d.ts',
      'coverage/lcov-report/prettify.js',
      'jest.config.js',
      'babel.config.cjs',
      '.eslintrc.js',
      'node_modules/x/index.js',
      'src/node_modules/y.js',
    ]) {
      expect([file, selects(file)]).toEqual([file, false]);
    }
  });

  test('an exclude option replaces the default list, as nyc does; spreading DEFAULT_EXCLUDE extends it', () => {
    const replaced = resolveOptions({ exclude: ['legacy/**'] }).selects;
    expect(replaced('legacy/a.js')).toBe(false);
    expect(replaced('test/helpers.js')).toBe(true);
    const extended = resolveOptions({ exclude: [...DEFAULT_EXCLUDE, 'legacy/**'] }).selects;
    expect(extended('legacy/a.js')).toBe(false);
    expect(extended('test/helpers.js')).toBe(false);
    expect(extended('src/a.js')).toBe(true);
  });

  test('outputDir and hashThreshold reach the emitted code', () => {
    const code = transform({ outputDir: 'out/profiles', hashThreshold: 1 });
    expect(code).toContain('"out/profiles"');
    // The tables are read as the counters are: a `var` assigned once at the top, read as it is where nothing of
    // the file can run before it (no import or export), and checked for a module cycle in an ES module.
    expect(code).toMatch(/_pp_hashed\d* = _pp_init\d*\(\)\.hashed;/);
    expect(code).toMatch(/ = _pp_hashed\d*\[0\]/);
    expect(code).toMatch(/_pp_table\d*\.inc\(/);
    const esm = transform({ hashThreshold: 1 }, 'src/a.js', 'export function f(a) { return a ? 1 : 2; }');
    expect(esm).toMatch(/\(_pp_hashed\d* === void 0 \? _pp_init\d*\(\)\.hashed : _pp_hashed\d*\)\[0\]/);
  });

  test('`pathprof ignore next` skips a function; `pathprof ignore file` skips the file', () => {
    const code =
      'function kept(a) { return a ? 1 : 2; }\n/* pathprof ignore next */\nfunction skipped(b) { return b ? 3 : 4; }';
    const out = transform({}, 'src/a.js', code);
    const literal = /registerFile\("[^"]*", "[^"]*", '((?:[^'\\]|\\.)*)'/.exec(out)![1];
    const meta = JSON.parse(literal.replace(/\\([\\'])/g, '$1'));
    expect(meta.functions.map((f: { name: string }) => f.name)).toEqual(['<program>', 'kept']);
    expect(out).toMatch(/function skipped\(b\) \{\n\s+return b \? 3 : 4;/);
    expect(transform({}, 'src/a.js', `/* pathprof ignore file */\n${code}`)).not.toContain('registerFile');
  });
});
