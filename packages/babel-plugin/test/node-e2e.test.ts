import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { transformFileSync, type PluginItem } from '@babel/core';
import { mergeProfiles, readProfileDirectory, type FileProfile } from '@pathprof/runtime';
import { decodedCounts, derivedEdgeKinds } from './support/decoded-counts';
import { ScratchProject } from './support/scratch-project';

const built = existsSync(join(__dirname, '..', 'dist', 'index.js'));
const math = `
function sign(x) {
  if (x > 0) return 'positive';
  if (x < 0) return 'negative';
  return 'zero';
}
function sum(list) {
  let s = 0;
  for (const v of list) s += v;
  return s;
}
function risky(x) {
  return x.value;
}
module.exports = { sign, sum, risky };
`;

/** A real Node program, compiled on the fly by @babel/register with `plugins: ['pathprof']`, writes its profile. */
(built ? describe : describe.skip)('a Node program with the plugin in babel.config.js', () => {
  let project: ScratchProject;
  beforeAll(() => {
    project = new ScratchProject({
      'babel.config.js': "module.exports = { plugins: ['pathprof'] };\n",
      'src/math.js': math,
      'main.js': `require('@babel/register')({ cwd: __dirname, extensions: ['.js'], only: [/src/] });
const { sign, sum, risky } = require('./src/math');
console.log([1, -2, 0, 7].map(sign).join(','), sum([1, 2, 3]), sum([]));
try { risky(null); } catch (e) { console.log(e.name); }
`,
    });
  });
  afterAll(() => project.dispose());

  test('writes exact path counts to PATHPROF_DIR, atomically, and they decode to source paths', () => {
    const out = project.path('profiles');
    const run = spawnSync(process.execPath, ['main.js'], {
      cwd: project.root,
      env: { ...process.env, PATHPROF_DIR: out },
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('positive,negative,zero,positive 6 0\nTypeError\n');
    expect(readdirSync(out).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    const { profiles, errors } = readProfileDirectory(out);
    expect(errors).toEqual([]);
    expect(profiles).toHaveLength(1);
    const [file] = mergeProfiles(profiles);
    expect(file.key).toBe('src/math.js');
    const counts = decodedCounts(file);
    expect(counts.sign).toEqual({
      'entry true return': 2,
      'entry false true return': 1,
      'entry false false return': 1,
    });
    expect(counts.risky).toEqual({ 'entry exception': 1 });
    expect(counts['<program>']).toEqual({ 'entry normal': 1 });
    // sum([1, 2, 3]): into the loop and around once, around twice more, out; sum([]): straight through.
    expect(counts.sum).toEqual({
      'entry normal next loop-back': 1,
      '(after backedge) next loop-back': 2,
      '(after backedge) done return': 1,
      'entry normal done return': 1,
    });
  });

  test('without PATHPROF_DIR the profile goes to the configured directory (.pathprof)', () => {
    const run = spawnSync(process.execPath, ['main.js'], {
      cwd: project.root,
      encoding: 'utf8',
      env: { ...process.env, PATHPROF_DIR: '' },
    });
    expect(run.status).toBe(0);
    expect(
      readdirSync(project.path('.pathprof')).filter((n) =>
        /^pathprof-[0-9a-z]+-\d+-\d+-\d+-\w+\.json$/.test(n),
      ),
    ).toHaveLength(1);
  });

  test('an ES module importing the runtime counts too', () => {
    writeFileSync(project.path('src/math.mjs'), math.replace('module.exports =', 'export'));
    const compiled = transformFileSync(project.path('src/math.mjs'), {
      cwd: project.root,
      plugins: ['pathprof'],
      configFile: false,
    })!.code!;
    expect(compiled).toMatch(/^import _pp_runtime from "babel-plugin-pathprof\/runtime";/);
    writeFileSync(project.path('math.mjs'), compiled);
    writeFileSync(
      project.path('main.mjs'),
      "import { sign } from './math.mjs';\nconsole.log(sign(3), sign(-3));\n",
    );
    const out = project.path('esm-profiles');
    const run = spawnSync(process.execPath, ['main.mjs'], {
      cwd: project.root,
      env: { ...process.env, PATHPROF_DIR: out },
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    const [file] = mergeProfiles(readProfileDirectory(out).profiles);
    expect(decodedCounts(file).sign).toEqual({ 'entry true return': 1, 'entry false true return': 1 });
  });

  /** Starts `script` (a file of the project), waits for its "ready" line, sends `signal`; resolves at its end. */
  const interrupt = (script: string, out: string, signal: NodeJS.Signals) =>
    new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string }>((resolve) => {
      const child = spawn(process.execPath, [script], {
        cwd: project.root,
        env: { ...process.env, PATHPROF_DIR: out },
      });
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => {
        const before = !stdout.includes('ready\n');
        stdout += chunk.toString();
        if (before && stdout.includes('ready\n')) child.kill(signal);
      });
      child.on('exit', (code, ended) => resolve({ code, signal: ended, stdout }));
    });
  const prelude = `require('@babel/register')({ cwd: __dirname, extensions: ['.js'], only: [/src/] });
const { sign } = require('./src/math');
sign(1); sign(-1);
`;

  test('a process ended by a signal writes its counts and still ends by that signal', async () => {
    writeFileSync(project.path('wait.js'), `${prelude}console.log('ready');\nsetInterval(() => {}, 1000);\n`);
    const out = project.path('signal-profiles');
    const ended = await interrupt('wait.js', out, 'SIGTERM');
    expect(ended).toMatchObject({ code: null, signal: 'SIGTERM' });
    const [file] = mergeProfiles(readProfileDirectory(out).profiles);
    expect(decodedCounts(file).sign).toEqual({ 'entry true return': 1, 'entry false true return': 1 });
  });

  test("a program's own signal handler keeps it running; what it counts afterwards is written at exit", async () => {
    writeFileSync(
      project.path('graceful.js'),
      `${prelude}process.on('SIGINT', () => { sign(0); setTimeout(() => { sign(2); console.log('bye'); }, 50); });
console.log('ready');
setTimeout(() => {}, 2000);
`,
    );
    const out = project.path('graceful-profiles');
    const ended = await interrupt('graceful.js', out, 'SIGINT');
    expect(ended).toMatchObject({ code: 0, signal: null });
    expect(ended.stdout).toBe('ready\nbye\n');
    const [file] = mergeProfiles(readProfileDirectory(out).profiles);
    expect(decodedCounts(file).sign).toEqual({
      'entry true return': 2,
      'entry false true return': 1,
      'entry false false return': 1,
    });
  });

  test("process.exit() from an 'exit' listener added before ours (tape sets its exit code so) still writes the counts", () => {
    writeFileSync(
      project.path('exits-in-listener.js'),
      `process.on('exit', (code) => process.exit(code || 3));\n${prelude}`,
    );
    const out = project.path('exit-listener-profiles');
    const run = spawnSync(process.execPath, ['exits-in-listener.js'], {
      cwd: project.root,
      env: { ...process.env, PATHPROF_DIR: out },
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(3);
    const [file] = mergeProfiles(readProfileDirectory(out).profiles);
    expect(decodedCounts(file).sign).toEqual({ 'entry true return': 1, 'entry false true return': 1 });
  });

  /**
   * In a module cycle the other module runs first and may call this one's hoisted functions before any of
   * its body (the preamble with the counter array) ran: they, and the functions inside them, register the
   * file themselves and count. A class's methods run only after the body made the class.
   */
  test.each([
    ['as ES modules', 'mjs', [], 'array'],
    ['compiled to CommonJS', 'js', ['@babel/plugin-transform-modules-commonjs'], 'array'],
    // The hash tables are read from a `var` of the preamble too.
    ['as ES modules, in a hash table', 'mjs', [], 'hash'],
  ])('functions called before their module body ran count, %s', (_label, ext, plugins, storage) => {
    const sources = {
      a: `import { fromB } from './b.${ext}';
export function early(x) {
  if (x > 0) return 'positive';
  return 'other';
}
export function nested(x) {
  const twice = (v) => (v > 0 ? v * 2 : 0);
  return twice(x);
}
class Late {
  name() {
    return 'late';
  }
}
console.log(fromB, early(-1), nested(1), new Late().name());
`,
      b: `import { early, nested } from './a.${ext}';
export const fromB = early(1) + nested(2);
`,
    };
    const pathprof = ['pathprof', storage === 'hash' ? { hashThreshold: 1 } : {}];
    const { stdout, a } = runCycle(project, `cycle-${storage}-${ext}`, ext, sources, [pathprof, ...plugins]);
    expect(stdout).toBe('positive4 other 2 late\n');
    expect(decodedCounts(a).early).toEqual({ 'entry true return': 1, 'entry false return': 1 });
  });

  /**
   * A module's `const` read by its hoisted function may be in its temporal dead zone when the cycle's other
   * module calls the function first: the read keeps its exceptional edge (non-throwing-code.ts: a module
   * that imports has no quiet start), so the path that threw is counted.
   */
  test.each([
    ['as ES modules', 'mjs', []],
    ['compiled to CommonJS', 'js', ['@babel/plugin-transform-modules-commonjs']],
  ])('a module constant read before its module body ran, %s', (_label, ext, plugins) => {
    const sources = {
      // Imports run first wherever they stand.
      a: `const LIMIT = 2;
import { fromB } from './b.${ext}';
export function readLimit() {
  return LIMIT;
}
console.log(fromB, readLimit());
`,
      b: `import { readLimit } from './a.${ext}';
let seen;
try {
  seen = readLimit();
} catch (e) {
  seen = e.name;
}
export const fromB = seen;
`,
    };
    const run = runCycle(project, `cycle-const-${ext}`, ext, sources, [['pathprof', {}], ...plugins]);
    expect(run.stdout).toBe('ReferenceError 2\n');
    expect(decodedCounts(run.a).readLimit).toEqual({ 'entry return': 1, 'entry exception': 1 });
  });

  /**
   * Edge mode counts in module variables the body declares (`var v = 0`): code that can run before the body, a
   * hoisted function and what it creates, must count in the array instead, or what it counted before the
   * body would be NaN, then reset by the declaration. Code the body creates (a class, an arrow) counts in
   * the variables. The same counts whichever way the cycle is loaded.
   */
  test.each([
    ['as ES modules', 'mjs', []],
    ['compiled to CommonJS', 'js', ['@babel/plugin-transform-modules-commonjs']],
  ])('edge mode: functions called before their module body ran count, %s', (_label, ext, plugins) => {
    const sources = {
      a: `import { fromB } from './b.${ext}';
export function early(x) {
  const pick = (y) => (y > 0 ? 'positive' : 'other');
  return pick(x);
}
class Later {
  sign(x) {
    return x > 0 ? 1 : x < 0 ? -1 : 0;
  }
}
const later = new Later();
const twice = (x) => (x > 1 ? 2 * x : x);
console.log(fromB, early(-1), early(2), later.sign(fromB.length), later.sign(-1), twice(3));
`,
      b: `import { early } from './a.${ext}';
export const fromB = early(1) + early(0);
`,
    };
    const run = runCycle(project, `cycle-edge-${ext}`, ext, sources, [
      ['pathprof', { mode: 'edge' }],
      ...plugins,
    ]);
    expect(run.compiledA).toMatch(/_pp_take/); // the body's code does count in variables
    expect(run.stdout).toBe('positiveother other positive 1 -1 6\n');
    const counts = derivedEdgeKinds(run.a);
    // early and pick ran twice from b before a's body, twice after.
    expect(counts).toEqual({
      '<program>': { activations: 1, entry: 1, normal: 1 },
      early: { activations: 4, entry: 4, return: 4 },
      pick: { activations: 4, entry: 4, true: 2, false: 2, normal: 4, return: 4 },
      'Later.sign': { activations: 2, entry: 2, true: 2, false: 1, normal: 3, return: 2 },
      twice: { activations: 1, entry: 1, true: 1, normal: 1, return: 1 },
    });
  });
});

/**
 * A module cycle (`a` imports `b`, which calls into `a` before a's body runs): each source compiled with
 * `plugins` into `project`'s folder `name` (as CommonJS when `ext` is `js`), `a` run with node; its output, a's
 * compiled code and a's merged profile.
 */
function runCycle(
  project: ScratchProject,
  name: string,
  ext: string,
  sources: Record<'a' | 'b', string>,
  plugins: PluginItem[],
): { stdout: string; compiledA: string; a: FileProfile } {
  const dir = project.path(name);
  mkdirSync(dir, { recursive: true });
  if (ext === 'js') writeFileSync(join(dir, 'package.json'), '{ "type": "commonjs" }\n');
  let compiledA = '';
  for (const [file, source] of Object.entries(sources)) {
    const path = join(dir, `${file}.${ext}`);
    writeFileSync(path, source);
    const compiled = transformFileSync(path, {
      cwd: project.root,
      plugins,
      configFile: false,
    })!.code!;
    if (file === 'a') compiledA = compiled;
    writeFileSync(path, compiled);
  }
  const out = project.path(`${name}-profiles`);
  const run = spawnSync(process.execPath, [`a.${ext}`], {
    cwd: dir,
    env: { ...process.env, PATHPROF_DIR: out },
    encoding: 'utf8',
  });
  expect(run.stderr).toBe('');
  const files = mergeProfiles(readProfileDirectory(out).profiles);
  return { stdout: run.stdout, compiledA, a: files.find((f) => f.key === `${name}/a.${ext}`)! };
}
