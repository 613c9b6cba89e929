import { transformSync } from '@babel/core';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { ScratchProject } from './support/scratch-project';
import { pathsOf } from './support/paths-of';
import { runProfiled } from './support/run-profiled';

const built = existsSync(join(__dirname, '..', 'dist', 'index.js'));

// Imports that make TypeScript add its helpers (`esModuleInterop`), a re-export (a getter on `exports`), an
// object rest (`__rest` below ES2018), async functions and methods (`__awaiter` below ES2017, with `__generator`
// below ES2015), an enum and a namespace (each an IIFE given `E || (exports.E = E = {})`).
const source = `import * as util from 'node:util';
import fs from 'node:fs';
import { EventEmitter } from 'node:events';
export { format } from 'node:util';

export async function describe(x: number, options?: { sign?: boolean }): Promise<string> {
  const { sign, ...rest } = options ?? {};
  const shown = await Promise.resolve(x > 0 ? x : -x);
  return util.format('%s%d %d', sign ? (x < 0 ? '-' : '+') : '', shown, Object.keys(rest).length);
}

export class Store {
  async has(name: string): Promise<boolean> {
    return fs.existsSync(name) || name === '';
  }
}

export const twice = async (n: number) => {
  const one = await describe(n);
  return one + one;
};

export enum Color { Red, Green = 'g' }
export namespace Shapes {
  export const sides = (n: number) => (n > 2 ? n : 0);
}

export class Tally extends Store {
  get size(): number {
    return 1;
  }
}

function sealed(): ClassDecorator {
  return () => undefined;
}
@sealed()
export class Watcher {
  constructor(readonly events: EventEmitter) {}
}
`;

const main = `const { describe, Store, twice } = require('./compiled/lib.js');
(async () => {
  const shown = [await describe(3), await describe(-2, { sign: true }), await describe(4, { sign: true })];
  shown.push(String(await new Store().has('')), await twice(1));
  console.log(shown.join(' '));
})();
`;

/**
 * ts-jest's way of handing TypeScript's output to Babel: the output, its inline map, under the `.ts` name. The
 * code the compiler added outside the map (its helpers) is not reported: `<program>` has the source's
 * decisions only (none here: two paths, normal and exceptional, where 7 helpers made 98,380), and each async
 * function is one function, at its place in the source, with its own decisions, counted exactly, where below
 * ES2017 its body was a generator on a line the map does not cover (not profiled at all).
 */
type Target = 'ES5' | 'ES2015' | 'ES2016' | 'ES2017' | 'ES2022';

/** The source's functions as the report names and places them, whatever TypeScript's target. */
function reported(target: Target): string[] {
  // Below ES2015 a class is functions in a wrapper function, the compiler's, with a constructor it writes when
  // the class has none; they are named as the class's members.
  const store = target === 'ES5' ? ['Store.constructor 12', 'Store.has 13'] : ['Store.has 13'];
  const tally = target === 'ES5' ? ['Tally.constructor 28', 'get Tally.size 29'] : ['get Tally.size 29'];
  return [
    '<program> 1',
    'describe 6',
    ...store,
    'twice 18',
    // The enum's function is TypeScript's; the namespace's is its body.
    'namespace Shapes 24',
    'Shapes.sides 25',
    ...tally,
    'sealed 34',
    '<anonymous> 35',
    'Watcher.constructor 39',
  ];
}

(built ? describe : describe.skip)('code a compiler added, outside the input source map', () => {
  let project: ScratchProject;
  beforeAll(() => {
    project = new ScratchProject({ 'src/lib.ts': source, 'main.js': main });
  });
  afterAll(() => project.dispose());

  /** The source compiled by TypeScript at `target` as ts-jest does, instrumented in `mode`, as compiled/lib.js. */
  const compile = (target: Target, options: object = {}): void => {
    const out = ts.transpileModule(source, {
      fileName: 'lib.ts',
      compilerOptions: {
        module: ts.ModuleKind.CommonJS,
        target: ts.ScriptTarget[target],
        esModuleInterop: true,
        experimentalDecorators: true,
        emitDecoratorMetadata: true,
        inlineSourceMap: true,
        inlineSources: true,
      },
    });
    const code = transformSync(out.outputText, {
      filename: project.path('src/lib.ts'),
      cwd: project.root,
      babelrc: false,
      configFile: false,
      plugins: [['pathprof', { runtime: 'require', ...options }]],
    })!.code!;
    mkdirSync(project.path('compiled'), { recursive: true });
    writeFileSync(project.path('compiled/lib.js'), code);
  };

  test.each([['ES5'], ['ES2015'], ['ES2016'], ['ES2017'], ['ES2022']] as const)('target %s', (target) => {
    compile(target);
    const profiles = project.path(`profiles-${target}`);
    const { stdout, report, problems } = runProfiled(project, profiles);
    expect(stdout).toBe('3 0 -2 0 +4 0 true 1 01 0\n');
    expect(problems).toEqual([]);
    const functions = report.files[0].functions;
    expect(functions.map((f) => `${f.name} ${f.location.start.line}`)).toEqual(reported(target));
    // A derived class's constructor TypeScript writes (`return _super !== null && _super.apply(this, arguments)
    // || this;`) has no decisions of the source.
    if (target === 'ES5')
      expect(functions.find((f) => f.name === 'Tally.constructor')!.potentialPaths).toBe(1);
    // The source's top level has no decisions: one path, and its exceptional one (`Watcher`'s decorator metadata
    // tests whether the imported `EventEmitter` is a function: TypeScript's, not the source's).
    const program = functions[0];
    expect([program.potentialPaths, program.exceptionPaths.potentialPaths]).toEqual([1, 1]);
    const [describeFn, has, twice] = ['describe', 'Store.has', 'twice'].map((name) =>
      functions.find((f) => f.name === name)!,
    );
    // Below ES2015 the body is __generator's state machine, run once per step between awaits.
    const steps = target === 'ES5' ? 2 : 1;
    expect([describeFn.activations, has.activations, twice.activations]).toEqual([4 * steps, 1, steps]);
    if (target === 'ES5') return;
    expect(pathsOf(has)).toEqual([
      "1 fs.existsSync(name) || name === '': false, return fs.existsSync(name) || name === '';: return",
    ]);
    // Its awaits, yields of a generator below ES2017, are not decisions (no generator's return() path).
    const format = "return util.format('%s%d %d', sign ? (x < 0 ? '-' : '+') : …: return";
    // TypeScript's `??` below ES2020 is two comparisons (`!== null`, `!== void 0`) its map places at one point:
    // each quotes the `??` it came from.
    const nullish =
      target === 'ES2022'
        ? ['options ?? {}: not null or undefined', 'options ?? {}: null or undefined']
        : ['options ?? {}: true, options ?? {}: true', 'options ?? {}: true, options ?? {}: false'];
    expect(pathsOf(describeFn)).toEqual([
      `1 ${nullish[0]}, x > 0: false, sign: true, x < 0: true, ${format}`,
      `1 ${nullish[0]}, x > 0: true, sign: true, x < 0: false, ${format}`,
      `2 ${nullish[1]}, x > 0: true, sign: false, ${format}`,
    ]);
  });

  // The other modes build the same graphs: the shells dropped, the bodies' yields awaits, the helpers straight.
  test.each([
    ['ES5', 'interprocedural'],
    ['ES2015', 'interprocedural'],
    ['ES5', 'contexts'],
    ['ES2015', 'contexts'],
  ] as const)('target %s, %s mode: runs as plain and reads back', (target, mode) => {
    compile(target, { mode });
    const { stdout, files, problems } = runProfiled(project, project.path(`profiles-${target}-${mode}`));
    expect(stdout).toBe('3 0 -2 0 +4 0 true 1 01 0\n');
    expect(problems).toEqual([]);
    expect(files.map((f) => f.key)).toEqual(['src/lib.ts']);
    expect(files[0].meta.functions.map((f) => `${f.name} ${f.range[0]}`)).toEqual(reported(target));
  });
});
