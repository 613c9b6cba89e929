import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { isMetadataFile } from '@pathprof/runtime';
import type { PathReport } from '../src';
import { missingBabelPackages } from '../src/run-command';
import { built, fixtures, report } from './support/runs';

// Each test starts processes (the command, mocha, the CLI): seconds alone, longer beside the whole suite.
jest.setTimeout(60_000);

const repository = join(__dirname, '..', '..', '..');
const pathprofBin = join(__dirname, '..', 'bin', 'pathprof.js');
const shop = join(fixtures, 'js-shop');

/** `npx pathprof ARGS` in `cwd`: npx puts the project's node_modules/.bin on PATH. */
function pathprof(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  return spawnSync(process.execPath, [pathprofBin, ...args], {
    cwd,
    env: {
      ...process.env,
      PATH: `${join(repository, 'node_modules', '.bin')}${delimiter}${process.env.PATH}`,
      PATHPROF_DIR: '',
      NO_COLOR: '1',
      ...env,
    },
    encoding: 'utf8',
  });
}

/** Each executed path of a function as its decisions (`code → outcome`), with its count. */
function executed(json: PathReport, file: string, name: string): Record<string, number> {
  const fn = json.files.find((f) => f.file === file)!.functions.find((f) => f.name === name)!;
  return Object.fromEntries(
    fn.paths
      .filter((p) => p.count > 0)
      .map((p) => [p.decisions.map((d) => `${d.code} → ${d.outcome}`).join('; '), p.count]),
  );
}

/** Runs `body` in a new project directory under the repository's tmp/ (its node_modules resolve), then removes it. */
function inScratchProject(prefix: string, body: (project: string) => void): void {
  const base = join(repository, 'tmp');
  mkdirSync(base, { recursive: true });
  const project = mkdtempSync(join(base, prefix));
  try {
    body(project);
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}

/** `pathprof <command>` like c8 and nyc: a fresh run, profiling on in every Node process, the report. */
(built ? describe : describe.skip)('npx pathprof COMMAND', () => {
  afterEach(() => rmSync(join(shop, '.pathprof'), { recursive: true, force: true }));

  test('plain node: exact counts, the report printed, the exit code kept, a rerun replaces the run', () => {
    // Twice: the second run replaces the first (a count of 2 anywhere would mean the runs were added).
    for (let attempt = 0; attempt < 2; attempt++) {
      const run = pathprof(shop, ['node', 'scripts/quote.js', '3']);
      expect(run.status).toBe(3);
      expect(run.stdout).toMatch(/^total 90, zone eu\nFile \/ function/);
      expect(run.stdout).toMatch(/^ {2}discount +13 +5 +1 +20\.0% +0\/5 +#2 ×1$/m);
      expect(run.stderr).toBe('');
      const profiles = readdirSync(join(shop, '.pathprof')).filter((n) => n.startsWith('pathprof-'));
      expect(profiles.filter((n) => !isMetadataFile(n))).toHaveLength(1);
      const json = JSON.parse(report('js-shop', ['json']).stdout) as PathReport;
      expect(executed(json, 'src/cart.js', 'discount')).toEqual({
        "coupon → true; coupon.kind === 'percent' → true; return Math.round((sum * coupon.value) / 100); → return": 1,
      });
      // apple × 2 counted, bread × 0 skipped, then out of the loop: one path each, once (not twice on the rerun).
      expect(Object.values(executed(json, 'src/cart.js', 'total'))).toEqual([1, 1, 1]);
      expect(executed(json, 'src/catalog.js', 'shippingZone')).toEqual({
        "case 'FR': → matches; case 'FR': → falls through to the next case; return 'eu'; → return": 1,
      });
    }
  });

  test('mocha (its own @babel/register hook): exact counts; a failing suite keeps its exit code', () => {
    const run = pathprof(shop, ['mocha']);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('2 passing');
    expect(run.stdout).toMatch(/^ {2}shippingZone +\d+ +4 +2 /m);
    const json = JSON.parse(report('js-shop', ['json']).stdout) as PathReport;
    expect(executed(json, 'src/catalog.js', 'shippingZone')).toEqual({
      "case 'FR': → does not match; case 'DE': → matches; return 'eu'; → return": 1,
      "case 'FR': → does not match; case 'DE': → does not match; case 'US': → matches; return 'americas'; → return": 1,
    });
    const again = pathprof(shop, ['mocha', '--grep', 'parses', '--invert'], { PATHPROF_ACCUMULATE: '1' });
    expect(again.status).toBe(0);
    // Accumulated on purpose: the second mocha run added its shippingZone calls to the first's.
    const both = JSON.parse(report('js-shop', ['json']).stdout) as PathReport;
    expect(Object.values(executed(both, 'src/catalog.js', 'shippingZone'))).toEqual([2, 2]);
    const failing = pathprof(shop, ['mocha', '--grep', 'no such test', '--fail-zero']);
    expect(failing.status).toBe(1);
  });

  test('a project whose Babel config lacks the plugin is profiled all the same; no profile is said; a missing command is 127', () => {
    inScratchProject('command-', (project) => {
      writeFileSync(join(project, 'babel.config.js'), 'module.exports = {};\n');
      writeFileSync(join(project, 'sign.js'), 'module.exports = (x) => (x > 0 ? 1 : x < 0 ? -1 : 0);\n');
      writeFileSync(
        join(project, 'main.js'),
        "const sign = require('./sign');\nconsole.log(sign(4), sign(-4));\n",
      );
      const run = pathprof(project, ['node', 'main.js']);
      expect(run.status).toBe(0);
      expect(run.stdout).toMatch(/^1 -1\n/);
      // sign(4) and sign(-4): two of the arrow's six paths.
      expect(run.stdout).toMatch(/^ {2}module\.exports +1 +3 +2 +66\.7% +0\/3 +#1 ×1, #5 ×1$/m);
      expect(existsSync(join(project, '.pathprof', 'run.json'))).toBe(true);
      const nothing = pathprof(project, ['node', '-e', 'process.exit(5)']);
      expect(nothing.status).toBe(5);
      expect(nothing.stderr).toContain(`pathprof: node wrote no profile into ${join(project, '.pathprof')}`);
      // Vitest's own transform is past the hooks: its coverage provider is what profiles it.
      writeFileSync(join(project, 'vitest'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
      expect(pathprof(project, ['./vitest', 'run']).stderr).toMatch(
        /^pathprof: vitest wrote no profile into .*: Vitest compiles the project's files itself, .*customProviderModule: 'babel-plugin-pathprof\/vitest'/,
      );
      const missing = pathprof(project, ['no-such-command-anywhere']);
      expect(missing.status).toBe(127);
      expect(missing.stderr).toBe('pathprof: command not found: no-such-command-anywhere\n');
    });
  });

  test('@babel/register and @babel/core are looked for from the project and from the plugin, as the hook looks', () => {
    // Nothing resolves from a directory outside the repository (the plugin's own is inside it, where both do).
    const outside = mkdtempSync(join(tmpdir(), 'pathprof-no-babel-'));
    try {
      expect(missingBabelPackages(outside, outside)).toEqual(['@babel/register', '@babel/core']);
      expect(missingBabelPackages(shop, outside)).toEqual([]);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  test('an ES module project ("type": "module") is profiled through the module loader hook', () => {
    inScratchProject('command-esm-', (project) => {
      writeFileSync(join(project, 'package.json'), '{ "type": "module" }\n');
      writeFileSync(join(project, 'babel.config.json'), '{}\n');
      writeFileSync(join(project, 'sign.js'), 'export const sign = (x) => (x > 0 ? 1 : x < 0 ? -1 : 0);\n');
      writeFileSync(
        join(project, 'main.js'),
        "import { sign } from './sign.js';\nconsole.log(sign(4), sign(-4), sign(9));\n",
      );
      const run = pathprof(project, ['node', 'main.js']);
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(run.stdout).toMatch(/^1 -1 1\n/);
      // sign(4) and sign(9) take one path, sign(-4) another.
      expect(run.stdout).toMatch(/^ {2}sign +1 .* #1 ×2, #5 ×1$/m);
    });
  });

  test('compiled files are cached across processes (both hooks): a hit loads no Babel; a changed source or config is compiled again', () => {
    inScratchProject('command-cache-', (project) => {
      writeFileSync(join(project, 'package.json'), '{ "type": "module" }\n');
      writeFileSync(join(project, 'babel.config.json'), '{}\n');
      mkdirSync(join(project, 'node_modules'));
      const sources = (signs: string, twice: string) => {
        writeFileSync(join(project, 'sign.js'), `export const sign = (x) => ${signs};\n`);
        writeFileSync(join(project, 'twice.cjs'), `module.exports = (x) => ${twice};\n`);
      };
      sources('(x > 0 ? 1 : x < 0 ? -1 : 0)', '(x > 2 ? 2 * x : x)');
      writeFileSync(
        join(project, 'main.js'),
        "import { createRequire } from 'node:module';\nimport { sign } from './sign.js';\n" +
          "const twice = createRequire(import.meta.url)('./twice.cjs');\nconsole.log(sign(4), sign(-4), twice(3));\n",
      );
      const cache = join(project, 'node_modules', '.cache', 'pathprof');
      /** What a second process reads is what the first stored: changed here, it runs changed. */
      const tamper = () => {
        const entries = readdirSync(cache).map((name) => join(cache, name));
        const entry = (registered: string) => {
          const found = entries.filter((file) =>
            readFileSync(file, 'utf8').includes(`registerFile(\\"${registered}\\"`),
          );
          expect(found).toHaveLength(1);
          return found[0];
        };
        const code = (file: string, replacement: string) =>
          writeFileSync(
            file,
            JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), code: replacement }),
          );
        code(entry('sign.js'), 'export const sign = () => 7;\n');
        code(entry('twice.cjs'), 'module.exports = () => 8;\n');
      };
      const first = pathprof(project, ['node', 'main.js']);
      expect(first.stderr).toBe('');
      expect(first.stdout).toMatch(/^1 -1 6\n/);
      tamper();
      // A @babel/core that cannot load, of the same version: a process whose files are all cached never loads
      // Babel (nor the plugin), in the main thread (CommonJS) or the module hooks' (ES modules).
      const fake = join(project, 'node_modules', '@babel', 'core');
      mkdirSync(fake, { recursive: true });
      const { version } = JSON.parse(readFileSync(require.resolve('@babel/core/package.json'), 'utf8')) as {
        version: string;
      };
      writeFileSync(
        join(fake, 'package.json'),
        JSON.stringify({ name: '@babel/core', version, main: 'index.js' }),
      );
      writeFileSync(join(fake, 'index.js'), "throw new Error('@babel/core loaded');\n");
      const second = pathprof(project, ['node', 'main.js']);
      expect(second.stderr).toBe('');
      expect(second.stdout).toMatch(/^7 7 8\n/);
      rmSync(join(project, 'node_modules', '@babel'), { recursive: true });
      // A changed source is compiled again.
      sources('(x > 0 ? 1 : x < 0 ? -1 : +0)', '(x > 2 ? x * 2 : x)');
      const third = pathprof(project, ['node', 'main.js']);
      expect(third.stdout).toMatch(/^1 -1 6\n/);
      tamper();
      // So is a file under a changed config.
      writeFileSync(join(project, 'babel.config.json'), '{ "comments": true }\n');
      const fourth = pathprof(project, ['node', 'main.js']);
      expect(fourth.stdout).toMatch(/^1 -1 6\n/);
    });
  });

  test('a programmable config: its output is compiled again when a module it requires or the environment changes', () => {
    inScratchProject('command-cache-js-', (project) => {
      mkdirSync(join(project, 'node_modules'));
      writeFileSync(join(project, 'babel.config.js'), "module.exports = require('./babel-options.js');\n");
      writeFileSync(join(project, 'babel-options.js'), 'module.exports = {};\n');
      writeFileSync(join(project, 'sign.js'), 'module.exports = (x) => (x > 0 ? 1 : -1);\n');
      writeFileSync(join(project, 'main.js'), "console.log(require('./sign')(4));\n");
      const cache = join(project, 'node_modules', '.cache', 'pathprof');
      const tamper = () => {
        const [entry] = readdirSync(cache)
          .map((name) => join(cache, name))
          .filter((file) => readFileSync(file, 'utf8').includes('registerFile(\\"sign.js\\"'));
        writeFileSync(
          entry,
          JSON.stringify({ ...JSON.parse(readFileSync(entry, 'utf8')), code: 'module.exports = () => 7;\n' }),
        );
      };
      expect(pathprof(project, ['node', 'main.js']).stdout).toMatch(/^1\n/);
      tamper();
      expect(pathprof(project, ['node', 'main.js']).stdout).toMatch(/^7\n/);
      // What the config requires is no config file, yet Babel read it: the entry depends on it.
      writeFileSync(join(project, 'babel-options.js'), 'module.exports = { comments: true };\n');
      expect(pathprof(project, ['node', 'main.js']).stdout).toMatch(/^1\n/);
      tamper();
      // A programmable config may read any variable.
      expect(pathprof(project, ['node', 'main.js'], { READ_BY_THE_CONFIG: '1' }).stdout).toMatch(/^1\n/);
    });
  });

  test("the project's own hook with a function among its options: keyed on Babel's options, cached all the same", () => {
    inScratchProject('command-cache-function-', (project) => {
      mkdirSync(join(project, 'node_modules'));
      mkdirSync(join(project, 'src'));
      writeFileSync(join(project, 'babel.config.json'), '{}\n');
      writeFileSync(
        join(project, 'hook.js'),
        "require('@babel/register')({ cwd: __dirname, only: [(file) => file.includes('src')] });\n",
      );
      writeFileSync(join(project, 'src', 'sign.js'), 'exports.sign = (x) => (x > 0 ? 1 : -1);\n');
      writeFileSync(
        join(project, 'main.js'),
        "require('./hook');\nconsole.log(require('./src/sign').sign(3));\n",
      );
      const cache = join(project, 'node_modules', '.cache', 'pathprof');
      const first = pathprof(project, ['node', 'main.js']);
      expect(first.stderr).toBe('');
      // sign(3): one of its two paths.
      expect(first.stdout).toMatch(/^1\n/);
      expect(first.stdout).toMatch(/^ {2}exports\.sign +1 .* #\d+ ×1$/m);
      const [entry] = readdirSync(cache)
        .map((name) => join(cache, name))
        .filter((file) => readFileSync(file, 'utf8').includes('registerFile(\\"src/sign.js\\"'));
      writeFileSync(
        entry,
        JSON.stringify({ ...JSON.parse(readFileSync(entry, 'utf8')), code: 'exports.sign = () => 7;\n' }),
      );
      expect(pathprof(project, ['node', 'main.js']).stdout).toMatch(/^7\n/);
      writeFileSync(join(project, 'babel.config.json'), '{ "comments": true }\n');
      expect(pathprof(project, ['node', 'main.js']).stdout).toMatch(/^1\n/);
    });
  });

  test('stack traces read by the program show the frames the same files give without pathprof (fastify-plugin names plugins from them)', () => {
    inScratchProject('command-stack-', (project) => {
      writeFileSync(join(project, 'babel.config.json'), '{}\n');
      // A counter ahead of the frame's line: the compiled file's positions differ from the source's.
      writeFileSync(
        join(project, 'plugin.js'),
        "let count = 0;\nfunction plugin(fn) {\n  if (fn) count++;\n  return new Error('x').stack.split('\\n').slice(1, 3).join('\\n');\n}\nmodule.exports = plugin;\n",
      );
      writeFileSync(
        join(project, 'main.js'),
        "const fp = require('./plugin');\nconsole.log(fp(() => {}));\n",
      );
      const frames = (args: string[]) =>
        spawnSync(process.execPath, args, { cwd: project, encoding: 'utf8' }).stdout;
      const framesUnder = (args: string[]) =>
        `${pathprof(project, args).stdout.split('\n').slice(0, 2).join('\n')}\n`;
      // Uncompiled, V8 names the function (`at plugin`), where the maps' names would say `at fp`.
      const plain = frames(['main.js']);
      expect(plain).toMatch(
        /^ +at plugin \(.*plugin\.js:4:10\)\n +at Object\.<anonymous> \(.*main\.js:2:13\)\n$/,
      );
      expect(framesUnder(['node', 'main.js'])).toBe(plain);
      // A project that compiles with @babel/register itself gets the frames its hook gives.
      const ownHook = frames(['--require', '@babel/register', 'main.js']);
      expect(ownHook).toMatch(/^ +at fp \(/);
      expect(framesUnder(['node', '--require', '@babel/register', 'main.js'])).toBe(ownHook);
      // ES modules (compiled in the hooks' thread) at their sources' positions too, named by their URLs.
      writeFileSync(
        join(project, 'plugin.mjs'),
        "let count = 0;\nexport function plugin(fn) {\n  if (fn) count++;\n  return new Error('x').stack.split('\\n').slice(1, 3).join('\\n');\n}\n",
      );
      writeFileSync(
        join(project, 'main.mjs'),
        "import { plugin as fp } from './plugin.mjs';\nconsole.log(fp(() => {}));\n",
      );
      const module = frames(['main.mjs']);
      expect(module).toMatch(/^ +at plugin \(file:.*plugin\.mjs:4:10\)\n +at file:.*main\.mjs:2:13\n$/);
      expect(framesUnder(['node', 'main.mjs'])).toBe(module);
      // An ES module that require() loads (mocha requires its specs first) goes through the CommonJS hook.
      mkdirSync(join(project, 'esm'));
      writeFileSync(join(project, 'esm', 'package.json'), '{ "type": "module" }\n');
      writeFileSync(join(project, 'esm', 'plugin.js'), readFileSync(join(project, 'plugin.mjs')));
      writeFileSync(
        join(project, 'requires.js'),
        "const { plugin } = require('./esm/plugin.js');\n\nconsole.log(plugin(() => {}));\n",
      );
      const required = frames(['requires.js']);
      expect(required).toMatch(
        /^ +at plugin \(file:.*esm\/plugin\.js:4:10\)\n +at Object\.<anonymous> \(.*requires\.js:3:13\)\n$/,
      );
      expect(framesUnder(['node', 'requires.js'])).toBe(required);
      // Frames of Node's own code and the first line of Node's own errors as V8 and Node write them.
      writeFileSync(
        join(project, 'immediate.js'),
        "let count = 0;\nsetImmediate(() => {\n  count++;\n  try {\n    require('node:fs').readFileSync({});\n  } catch (error) {\n    console.log(error.stack.split('\\n')[0]);\n  }\n  console.log(new Error('x').stack.split('\\n').slice(1, 3).join('\\n'));\n});\n",
      );
      const immediate = frames(['immediate.js']);
      expect(immediate).toMatch(
        /^TypeError \[ERR_INVALID_ARG_TYPE\]: .*\n +at Immediate\._onImmediate \(.*immediate\.js:9:15\)\n +at process\.processImmediate \(node:internal/,
      );
      expect(
        `${pathprof(project, ['node', 'immediate.js']).stdout.split('\n').slice(0, 3).join('\n')}\n`,
      ).toBe(immediate);
      // A stack through require(): Node's loader frames, not the require hook's wrappers of them (pirates').
      writeFileSync(
        join(project, 'at-load.js'),
        "let count = 0;\nif (process) count++;\nmodule.exports = new Error('x').stack.split('\\n').slice(1).join('\\n');\n",
      );
      writeFileSync(
        join(project, 'loads.js'),
        "Error.stackTraceLimit = Infinity;\nconsole.log(require('./at-load.js'));\n",
      );
      const loading = frames(['loads.js']);
      expect(loading).toMatch(
        /^ +at Object\.<anonymous> \(.*at-load\.js:3:18\)\n +at Module\._compile \(node:/,
      );
      const lines = loading.split('\n').length - 1;
      expect(
        `${pathprof(project, ['node', 'loads.js']).stdout.split('\n').slice(0, lines).join('\n')}\n`,
      ).toBe(loading);
    });
  });

  test("node --test: a failing test's location is its line in the source (test files load as written)", () => {
    inScratchProject('command-node-test-location-', (project) => {
      writeFileSync(join(project, 'babel.config.json'), '{}\n');
      mkdirSync(join(project, 'node_modules'));
      writeFileSync(join(project, 'sign.js'), 'exports.sign = (x) => (x > 0 ? 1 : x < 0 ? -1 : 0);\n');
      // node:test takes a test's location from V8's position of its test() call, which no source map
      // reaches: Babel's reprinting of a file (here the blank lines between statements) moves it.
      const body =
        "\nconst assert = require('node:assert');\n\n\nconst { sign } = require('./sign.js');\n\n\ntest('signs', () => {\n  assert.equal(sign(2), 2);\n});\n";
      writeFileSync(join(project, 'a.test.js'), `const test = require('node:test');\n${body}`);
      writeFileSync(
        join(project, 'b.test.mjs'),
        `import test from 'node:test';\nimport { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\n${body}`,
      );
      const locations = (text: string) => text.match(/^ *location: .*$/gm);
      const plain = spawnSync(process.execPath, ['--test'], { cwd: project, encoding: 'utf8' }).stdout;
      expect(locations(plain)).toEqual([
        expect.stringMatching(/a\.test\.js:9:1'$/),
        expect.stringMatching(/b\.test\.mjs:11:1'$/),
      ]);
      const run = pathprof(project, ['node', '--test']);
      expect(run.status).toBe(1);
      expect(locations(run.stdout)).toEqual(locations(plain));
      expect(run.stdout).toMatch(/^ {2}exports\.sign +1 /m);
    });
  });

  test("a TypeScript module another loader compiles after ours (tsx's) loads as without pathprof", () => {
    inScratchProject('command-ts-loader-', (project) => {
      writeFileSync(join(project, 'package.json'), '{ "type": "module" }\n');
      mkdirSync(join(project, 'node_modules'));
      writeFileSync(
        join(project, 'sign.ts'),
        'export const sign = (x: number): number => (x > 0 ? 1 : -1);\n',
      );
      writeFileSync(join(project, 'main.js'), "import { sign } from './sign.ts';\nconsole.log(sign(2));\n");
      // tsx in miniature: registered after pathprof's hook, it asks ours for a .ts module, then strips its types.
      writeFileSync(
        join(project, 'strip-types.mjs'),
        `export async function load(url, context, nextLoad) {
  if (!url.endsWith('.ts')) return nextLoad(url, context);
  const { source } = await nextLoad(url, { ...context, format: 'module' });
  return { format: 'module', source: String(source).replace(/: number/g, ''), shortCircuit: true };
}
`,
      );
      writeFileSync(
        join(project, 'register.mjs'),
        "import { register } from 'node:module';\nregister('./strip-types.mjs', import.meta.url);\n",
      );
      const args = ['--import', './register.mjs', 'main.js'];
      expect(spawnSync(process.execPath, args, { cwd: project, encoding: 'utf8' }).stdout).toBe('1\n');
      const run = pathprof(project, ['node', ...args]);
      expect(run.stderr).not.toMatch(/SyntaxError/);
      expect(run.stdout).toMatch(/^1\n/);
    });
  });

  test('node --test: a process per test file (ES modules and CommonJS), their counts added up', () => {
    inScratchProject('command-node-test-', (project) => {
      writeFileSync(join(project, 'package.json'), '{ "type": "module" }\n');
      writeFileSync(
        join(project, 'babel.config.json'),
        '{ "plugins": [["pathprof", { "include": ["src/**"] }]] }\n',
      );
      mkdirSync(join(project, 'node_modules'));
      mkdirSync(join(project, 'src'));
      writeFileSync(
        join(project, 'src', 'sign.js'),
        'export const sign = (x) => (x > 0 ? 1 : x < 0 ? -1 : 0);\n',
      );
      mkdirSync(join(project, 'test'));
      const check = (calls: string) =>
        `import test from 'node:test';\nimport assert from 'node:assert';\nimport { sign } from '../src/sign.js';\n` +
        `test('signs', () => { ${calls} });\n`;
      writeFileSync(
        join(project, 'test', 'a.test.js'),
        check('assert.equal(sign(2), 1); assert.equal(sign(-2), -1);'),
      );
      // CommonJS requiring the ES module (Node's require(esm)): through the CommonJS hook.
      writeFileSync(
        join(project, 'test', 'b.test.cjs'),
        "const test = require('node:test');\nconst assert = require('node:assert');\n" +
          "test('signs', () => { const { sign } = require('../src/sign.js'); assert.equal(sign(3), 1); assert.equal(sign(0), 0); });\n",
      );
      const run = pathprof(project, ['node', '--test']);
      expect(run.status).toBe(0);
      expect(run.stdout).toMatch(/^# pass 2$/m);
      // sign(2) and sign(3) one path, sign(-2) and sign(0) one each: both processes' counts.
      expect(run.stdout).toMatch(/^ {2}sign +1 .* #1 ×2, #\d+ ×1, #\d+ ×1$/m);
    });
  });

  test("mocha with the project's own @babel/register hook and the plugin under env.test only", () => {
    inScratchProject('command-env-', (project) => {
      // The README's set-up: pathprof for tests only; mocha does not set NODE_ENV=test.
      writeFileSync(
        join(project, 'babel.config.js'),
        "module.exports = { env: { test: { plugins: ['pathprof'] } } };\n",
      );
      mkdirSync(join(project, 'src'));
      writeFileSync(join(project, 'src', 'sign.js'), 'exports.sign = (x) => (x > 0 ? 1 : -1);\n');
      writeFileSync(
        join(project, 'hook.js'),
        "require('@babel/register')({ cwd: __dirname, only: [/src/] });\n",
      );
      mkdirSync(join(project, 'spec'));
      writeFileSync(
        join(project, 'spec', 'sign.spec.js'),
        "const assert = require('node:assert');\nconst { sign } = require('../src/sign');\nit('signs', () => { assert.equal(sign(2), 1); assert.equal(sign(-2), -1); });\n",
      );
      writeFileSync(join(project, '.mocharc.json'), '{ "require": "./hook.js", "spec": "spec/*.spec.js" }\n');
      const run = pathprof(project, ['mocha']);
      expect(run.status).toBe(0);
      // sign(2) and sign(-2): each of its two paths once.
      expect(run.stdout).toMatch(/^ {2}exports\.sign +1 .* #1 ×1, #3 ×1$/m);
    });
  });
});
