import { transformSync } from '@babel/core';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import type { FileMetadata } from '../src/metadata';
import { istanbulCoverages, loadProfiledFiles, pathReport, Problems } from '@pathprof/report';
import { readmeSetup } from './support/readme-setup';
import { ScratchProject } from './support/scratch-project';
import { pathsOf } from './support/paths-of';
import { runProfiled } from './support/run-profiled';

const built = existsSync(join(__dirname, '..', 'dist', 'index.js'));

const shapes = `type Shape = { kind: 'circle'; r: number } | { kind: 'square'; side: number };

export function area(shape: Shape, scale?: number): number {
  const factor: number = scale ?? 1;
  if (shape.kind === 'circle') return Math.PI * shape.r * shape.r * factor;
  return shape.side * shape.side * factor;
}
`;
const main = `const { area } = require('./compiled/shapes.js');
console.log([area({ kind: 'circle', r: 1 }), area({ kind: 'square', side: 2 }, 3), area({ kind: 'square', side: 1 })].map(Math.round).join(' '));
`;

// area's three calls: each path once, as the TypeScript source has it.
const areaPaths = [
  "1 scale ?? 1: not null or undefined, shape.kind === 'circle': false, return shape.side * shape.side * factor;: return",
  "1 scale ?? 1: null or undefined, shape.kind === 'circle': false, return shape.side * shape.side * factor;: return",
  "1 scale ?? 1: null or undefined, shape.kind === 'circle': true, return Math.PI * shape.r * shape.r * factor;: return",
];

/**
 * Code that TypeScript compiled before Babel saw it is reported against the TypeScript source: tsc's output
 * with a `.map` file beside it, and ts-jest's (an inline map with the source in it, under the `.ts` name).
 * The profile's key, hash and locations are the original's, so the report reads the `.ts` file and quotes
 * its code; counts are exact.
 */
(built ? describe : describe.skip)('code compiled before Babel, with a source map', () => {
  let project: ScratchProject;
  beforeAll(() => {
    project = new ScratchProject({ 'src/shapes.ts': shapes, 'main.js': main });
  });
  afterAll(() => project.dispose());

  const compile = (inline: boolean) =>
    ts.transpileModule(shapes, {
      fileName: 'shapes.ts',
      compilerOptions: {
        module: ts.ModuleKind.CommonJS,
        target: ts.ScriptTarget.ES2022,
        ...(inline ? { inlineSourceMap: true, inlineSources: true } : { sourceMap: true }),
      },
    });

  test.each([
    ['tsc output in dist/ with shapes.js.map', false],
    ['ts-jest: an inline map, compiled under the .ts name', true],
  ])('%s', (_, inline) => {
    const out = compile(inline);
    let input: string;
    let filename: string;
    if (inline) {
      input = out.outputText;
      filename = project.path('src/shapes.ts');
    } else {
      filename = project.path('dist/shapes.js');
      mkdirSync(dirname(filename), { recursive: true });
      writeFileSync(filename, out.outputText);
      const map = JSON.parse(out.sourceMapText!);
      writeFileSync(`${filename}.map`, JSON.stringify({ ...map, sources: ['../src/shapes.ts'] }));
      input = out.outputText;
    }
    const code = transformSync(input, {
      filename,
      cwd: project.root,
      babelrc: false,
      configFile: false,
      plugins: [['pathprof', { runtime: 'require' }]],
    })!.code!;
    expect(code).toContain('registerFile("src/shapes.ts"');
    mkdirSync(project.path('compiled'), { recursive: true });
    writeFileSync(project.path('compiled/shapes.js'), code);
    const profiles = project.path(`profiles-${inline}`);
    const { stdout, report, problems } = runProfiled(project, profiles);
    expect(stdout).toBe('3 12 1\n');
    expect(problems).toEqual([]);
    expect(report.files.map((f) => f.file)).toEqual(['src/shapes.ts']);
    const fn = report.files[0].functions.find((f) => f.name === 'area')!;
    expect(fn.location.start.line).toBe(3); // its column is where the map puts it: at `export`
    expect(fn.activations).toBe(3);
    // The decisions quote the TypeScript source, where the types shifted every column.
    expect(pathsOf(fn)).toEqual(areaPaths);

    // Its statements and branches were the compiled code's (tsc's exports): the exports say so rather than
    // derive them from the .ts, whose graphs differ ('is not the graph its source gives now', ts-pattern's suite).
    const exported = new Problems();
    expect(istanbulCoverages(loadProfiledFiles([profiles], [project.root], exported), exported)).toEqual([]);
    expect(exported.messages).toEqual([
      expect.stringMatching(
        /^src\/shapes\.ts: profiled from code compiled before Babel \(ts-jest, tsc.*; skipped$/,
      ),
    ]);
  });
});

/**
 * ts-jest with `sourceMap: false` in its tsconfig hands Babel the compiled code under the `.ts` name with no map:
 * the paths cannot be placed in the source. The plugin says so once, the metadata marks the file, and the
 * report skips it saying why and what to change (it said "source changed since it was instrumented (rerun the
 * tests)", which rerunning never fixed: class-validator's whole suite).
 */
(built ? test : test.skip)(
  'code compiled with no source map: a warning, and the report says why it skips it',
  () => {
    const project = new ScratchProject({ 'src/shapes.ts': shapes, 'main.js': main });
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const out = ts.transpileModule(shapes, {
        fileName: 'shapes.ts',
        compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
      });
      const code = transformSync(out.outputText, {
        filename: project.path('src/shapes.ts'),
        cwd: project.root,
        babelrc: false,
        configFile: false,
        plugins: [['pathprof', { runtime: 'require' }]],
      })!.code!;
      expect(warn.mock.calls.map(([message]) => String(message))).toEqual([
        expect.stringMatching(
          /^pathprof: src\/shapes\.ts \(and any other file like it\) came to Babel compiled, with no source map/,
        ),
      ]);
      mkdirSync(project.path('compiled'), { recursive: true });
      writeFileSync(project.path('compiled/shapes.js'), code);
      const { stdout, problems } = runProfiled(project, project.path('profiles'));
      expect(stdout).toBe('3 12 1\n');
      expect(problems).toEqual([
        expect.stringMatching(/^src\/shapes\.ts: compiled before Babel with no source map .*; skipped$/),
      ]);
    } finally {
      warn.mockRestore();
      project.dispose();
    }
  },
);

/**
 * TypeScript's helpers (`__importStar` and the functions it needs, with `esModuleInterop`), which its map does
 * not cover, are left uninstrumented: profiled, they were functions at lines the 4-line source does not have.
 */
test("the compiler's helpers, outside the map, are not profiled; the source's functions are", () => {
  const source = `import * as util from 'node:util';
export function show(x: number): string {
  return util.format('%d', x > 0 ? x : -x);
}
`;
  const out = ts.transpileModule(source, {
    fileName: 'show.ts',
    compilerOptions: {
      module: ts.ModuleKind.CommonJS,
      target: ts.ScriptTarget.ES2022,
      esModuleInterop: true,
      inlineSourceMap: true,
      inlineSources: true,
    },
  });
  expect(out.outputText).toContain('__importStar');
  // ts-jest's way: the output, with its inline map, under the .ts file's name.
  const project = new ScratchProject({ 'show.ts': source });
  let result;
  try {
    result = transformSync(out.outputText, {
      filename: project.path('show.ts'),
      cwd: project.root,
      babelrc: false,
      configFile: false,
      plugins: [['pathprof', { runtime: 'require' }]],
    })!;
  } finally {
    project.dispose();
  }
  const { meta } = (result.metadata as unknown as { pathprof: { profile: { meta: FileMetadata } } }).pathprof
    .profile;
  expect(meta.compiledBefore).toBe(true);
  expect(meta.functions.map((f) => `${f.name} ${f.range[0]}`)).toEqual(['<program> 1', 'show 2']);
});

/**
 * A real ts-jest run with `babelConfig: true` (ts-jest compiles, then hands its output and inline map to
 * babel-jest) and the README's Babel and jest set-up: the profile is the TypeScript file's, read and quoted
 * by the report, with exact counts.
 */
(built ? describe : describe.skip)('ts-jest with babelConfig', () => {
  let project: ScratchProject;
  beforeAll(() => {
    const readme = readmeSetup();
    project = new ScratchProject({
      'babel.config.js': readme.files['babel.config.js'],
      // The README's ts-jest set-up, as written.
      'jest.config.js': readme.variants['jest.config.js'].find((text) => text.includes('ts-jest'))!,
      'tsconfig.json':
        '{ "compilerOptions": { "target": "ES2022", "module": "commonjs", "isolatedModules": true } }\n',
      'src/shapes.ts': shapes,
      'test/shapes.test.ts': `import { expect, test } from '@jest/globals';
import { area } from '../src/shapes';
test('areas', () => {
  expect([area({ kind: 'circle', r: 1 }), area({ kind: 'square', side: 2 }, 3), area({ kind: 'square', side: 1 })].map(Math.round)).toEqual([3, 12, 1]);
});
`,
    });
  });
  afterAll(() => project.dispose());

  test('the TypeScript source is profiled: its paths, counted exactly, quoted from the .ts file', () => {
    const profiles = project.path('profiles');
    const run = spawnSync(process.execPath, [require.resolve('jest/bin/jest'), '--ci', '--no-cache'], {
      cwd: project.root,
      env: { ...process.env, PATHPROF_DIR: profiles },
      encoding: 'utf8',
    });
    expect(run.stderr).toMatch(/Tests: +1 passed, 1 total/);
    expect(run.status).toBe(0);
    const problems = new Problems();
    const report = pathReport(loadProfiledFiles([profiles], [project.root], problems), problems.messages);
    expect(problems.messages).toEqual([]);
    expect(report.files.map((f) => f.file)).toEqual(['src/shapes.ts']);
    expect(pathsOf(report.files[0].functions.find((f) => f.name === 'area')!)).toEqual(areaPaths);
  });
});
