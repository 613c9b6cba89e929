import { type PluginItem, transformSync } from '@babel/core';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import istanbul from 'babel-plugin-istanbul';
import pathprof from '../src';
import { mergeProfiles, readProfileDirectory } from '@pathprof/runtime';
import { decodedCounts } from './support/decoded-counts';
import { checkPathModeOnSource } from './support/path-mode-on-program';

const built = existsSync(join(__dirname, '..', 'dist', 'index.js'));
const fixtures = join(__dirname, '..', '..', '..', 'fixtures');
const jestBin = require.resolve('jest/bin/jest');
jest.setTimeout(240_000);

const projects = {
  'js-shop': { presets: [] as PluginItem[] },
  'ts-geometry': {
    presets: [['@babel/preset-env', { targets: { node: '20' } }], '@babel/preset-typescript'] as PluginItem[],
  },
};
const sources = Object.entries(projects).flatMap(([name, { presets }]) =>
  readdirSync(join(fixtures, name, 'src')).map((file) => {
    const path = join(fixtures, name, 'src', file);
    return { name: `${name}/src/${file}`, path, text: readFileSync(path, 'utf8'), presets };
  }),
);
// Shapes the example projects lack: logical operators nested in values, around calls and defaults, concise
// arrows, else-if chains, optional chains.
const shapes = `export function pick(a, b, c, d = a || b) {
  const first = a || b || c;
  const both = (a && b) ?? c;
  const mixed = a && (b || c) && d;
  const call = f(a ?? b, c || (d && a));
  const deep = a?.b?.c ?? (b ? c : d);
  const arrow = (x) => x && a || b;
  if (a) return first;
  else if (b && c) return both;
  else return [mixed, call, deep, arrow(1)];
}
function f(x, y = x ?? 0) { return y; }
`;
sources.push({
  name: 'logical shapes',
  path: join(fixtures, 'js-shop', 'src', 'shapes.js'),
  text: shapes,
  presets: [],
});

// Jumps pathprof rewrites as statements of its own: out of a \`for…of\` (a break to a dispatch after the loop), a
// \`try\` whose \`finally\` needs to know how it was entered (wrapped in a second \`try\`), a derived constructor's
// \`return\` (reads \`this\` first).
sources.push({
  name: 'jump shapes',
  path: join(fixtures, 'js-shop', 'src', 'jumps.js'),
  text: `export function find(list, wanted, log) {
  outer: for (const row of list) {
    for (const x of row) {
      if (x === wanted) return x;
      if (x < 0) continue outer;
    }
  }
  try {
    if (log) return log();
  } finally {
    if (wanted) log?.();
  }
}
export class Tagged extends Array {
  constructor(n) {
    if (n < 0) return;
    super(n);
  }
}
`,
  presets: [],
});

test('the logical shapes keep exact path counts', () => {
  const values = [0, 1, null, { b: { c: 2 } }]; // falsy, truthy, nullish, an object with a chain
  const inputs = values.flatMap((a) =>
    values.flatMap((b) => values.flatMap((c) => values.map((d) => [a, b, c, d]))),
  );
  const program = shapes
    .replace('export function pick', 'module.exports = function pick')
    .replace(/\n}\nfunction f/, '\n};\nfunction f');
  checkPathModeOnSource(program, 'logical-shapes.js', inputs, 'logical shapes');
});

type Maps = Record<'statementMap' | 'fnMap' | 'branchMap', unknown>;

/** istanbul's maps of one file (statements, functions, branches with every location) under `plugins`. */
function istanbulMaps(
  path: string,
  text: string,
  presets: PluginItem[],
  plugins: ('istanbul' | 'pathprof')[],
): Maps {
  let coverage: Maps | undefined;
  const onCover = (_: string, c: Maps) => (coverage = c);
  transformSync(text, {
    filename: path,
    cwd: join(path, '..', '..'),
    babelrc: false,
    configFile: false,
    presets,
    plugins: plugins.map((p) =>
      p === 'istanbul' ? [istanbul, { exclude: [], onCover }] : [pathprof, { runtime: 'require' }],
    ),
  });
  const { statementMap, fnMap, branchMap } = coverage!;
  return { statementMap, fnMap, branchMap };
}

/**
 * babel-plugin-istanbul in the same Babel config as pathprof, in either order, sees the same statements,
 * functions and branches (every `??`, `&&` and `||` operand, defaults, conditions) with the same locations:
 * pathprof's rewrites keep each replaced node's location and keep logical expressions whole.
 */
describe('istanbul beside pathprof: the same coverage map', () => {
  test.each(sources)('$name', ({ path, text, presets }) => {
    const alone = istanbulMaps(path, text, presets, ['istanbul']);
    expect(Object.keys(alone.branchMap as object).length).toBeGreaterThan(0);
    expect(istanbulMaps(path, text, presets, ['pathprof', 'istanbul'])).toEqual(alone);
    expect(istanbulMaps(path, text, presets, ['istanbul', 'pathprof'])).toEqual(alone);
  });
});

/**
 * Each example project's jest suite with `--coverage`: babel-jest adds babel-plugin-istanbul after the
 * project's own plugins (the order that used to lose branches). With coverageProvider `babel`, istanbul's
 * coverage-final.json (every count of statements, functions and branches, and so lines) is the same with and
 * without pathprof. With `v8`, V8 counts the instrumented code and jest maps it back through source maps.
 */
(built ? describe : describe.skip)(
  'jest --coverage on the example projects, with and without pathprof',
  () => {
    const coverage = (name: keyof typeof projects, withPathprof: boolean, provider: 'babel' | 'v8') => {
      const out = mkdtempSync(join(tmpdir(), 'pathprof-istanbul-'));
      const babel = {
        babelrc: false,
        configFile: false,
        presets: projects[name].presets,
        plugins: withPathprof ? ['pathprof'] : [],
      };
      const config = {
        rootDir: join(fixtures, name),
        transform: { '\\.[jt]s$': ['babel-jest', babel] },
        setupFilesAfterEnv: withPathprof ? ['babel-plugin-pathprof/jest-setup'] : [],
        coverageProvider: provider,
        collectCoverageFrom: ['src/**'],
        coverageDirectory: join(out, 'coverage'),
        coverageReporters: ['json'],
        cacheDirectory: join(out, 'cache'),
      };
      const run = spawnSync(
        process.execPath,
        [jestBin, '--config', JSON.stringify(config), '--coverage', '--runInBand'],
        {
          cwd: join(fixtures, name),
          encoding: 'utf8',
          env: { ...process.env, PATHPROF_DIR: join(out, 'profiles') },
        },
      );
      try {
        expect(run.stderr).toMatch(/Tests: +\d+ passed/);
        expect(run.status).toBe(0);
        const map = JSON.parse(readFileSync(join(out, 'coverage', 'coverage-final.json'), 'utf8')) as Record<
          string,
          Record<string, unknown>
        >;
        if (!withPathprof) return { map, paths: null };
        const { profiles, errors } = readProfileDirectory(join(out, 'profiles'));
        expect(errors).toEqual([]);
        const paths = Object.fromEntries(mergeProfiles(profiles).map((f) => [f.key, decodedCounts(f)]));
        return { map, paths };
      } finally {
        rmSync(out, { recursive: true, force: true });
      }
    };

    // V8 counts the code that runs, pathprof's included, and jest maps its blocks back through the source map:
    // the functions and the statements are the same ones, but pathprof's own conditions show up as more
    // branches (and move some statement counts). Beside pathprof, use coverageProvider 'babel'. pathprof's own
    // counts are the same under either provider.
    test.each(Object.keys(projects) as (keyof typeof projects)[])(
      '%s: babel, every count identical; v8, the same functions and statements, more branches; path counts alike',
      (name) => {
        const alone = coverage(name, false, 'babel').map;
        const beside = coverage(name, true, 'babel');
        expect(Object.keys(beside.map).sort()).toEqual(Object.keys(alone).sort());
        for (const file of Object.keys(alone)) {
          const { s, f, b, statementMap, fnMap, branchMap } = alone[file];
          expect(beside.map[file]).toMatchObject({ s, f, b, statementMap, fnMap, branchMap });
        }

        const v8Alone = coverage(name, false, 'v8').map;
        const v8Beside = coverage(name, true, 'v8');
        expect(Object.keys(v8Beside.map).sort()).toEqual(Object.keys(v8Alone).sort());
        let moreBranches = 0;
        for (const file of Object.keys(v8Alone)) {
          const { f, fnMap, statementMap, b } = v8Alone[file] as Record<string, object>;
          expect(v8Beside.map[file]).toMatchObject({ f, fnMap, statementMap });
          if (Object.keys(v8Beside.map[file].b as object).length > Object.keys(b).length) moreBranches++;
        }
        expect(moreBranches).toBeGreaterThan(0);
        expect(Object.keys(beside.paths!).length).toBeGreaterThan(0);
        expect(v8Beside.paths).toEqual(beside.paths);
      },
    );
  },
);
