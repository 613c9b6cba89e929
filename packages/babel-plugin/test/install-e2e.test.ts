import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PackedInstall, packWorkspaces } from './support/packed-install';
import { readmeSetup } from './support/readme-setup';

// npm pack once (~1 s); per project, copying its tools (~60 MB for jest) and `npm install` take 5–30 s
// depending on the disk, the test run 1–3 s.
jest.setTimeout(240_000);

const cart = `function total(items, coupon) {
  let sum = 0;
  for (const item of items) sum += item.price * (item.quantity ?? 1);
  if (coupon && sum >= coupon.minimum) sum -= coupon.amount;
  return sum;
}
module.exports = { total };
`;
const esmCart = cart.replace('module.exports = { total };', 'export { total };');
const cases = `test('no coupon', () => expect(total([{ price: 2 }, { price: 3, quantity: 2 }])).toBe(8));
test('coupon applies', () => expect(total([{ price: 10 }], { minimum: 5, amount: 3 })).toBe(7));
test('empty cart', () => expect(total([], { minimum: 5, amount: 3 })).toBe(0));
`;
// Three calls: two items then none with no coupon, one item with a coupon that applies, none with one that does
// not; each loop iteration is a path of its own (from the entry or from the back edge).
const expectedPaths = [
  '1 for (const i: loop: done, leaves the loop, coupon: false, return sum;: return',
  '1 for (const i: loop: done, leaves the loop, coupon: true, sum >= coupo: false, return sum;: return',
  '1 for (const i: loop: done, leaves the loop, coupon: true, sum >= coupo: true, return sum;: return',
  '1 for (const i: loop: next item, item.quantit: not null or undefined, for (const i: loop: next iteration',
  '2 for (const i: loop: next item, item.quantit: null or undefined, for (const i: loop: next iteration',
];

// The oldest Babel 7 pathprof supports (the peer range's lower bound), as a project locked to it has it: its
// @babel/core with the parser, traverse, generator, types and template of its time.
const babel720 = {
  '@babel/core': 'babel-core-7.20',
  '@babel/generator': 'babel-generator-7.20',
  '@babel/parser': 'babel-parser-7.20',
  '@babel/template': 'babel-template-7.18',
  '@babel/traverse': 'babel-traverse-7.20',
  '@babel/types': 'babel-types-7.20',
};

let packs: string;
let tarballs: string[];
beforeAll(() => {
  packs = mkdtempSync(join(tmpdir(), 'pathprof-packs-'));
  tarballs = [...packWorkspaces(packs).values()];
});
afterAll(() => rmSync(packs, { recursive: true, force: true }));

/**
 * What a user does, from the README: install pathprof (here the tarballs of `npm pack --workspaces`, npm
 * fetching nothing, so our packages resolve among themselves) into an existing project far from this
 * repository, add the README's babel.config.js (and jest.config.js) as they are, run the project's tests, then
 * `pathprof-report`: the counts are the calls the tests made.
 */
interface UserProject {
  title: string;
  /** Its own devDependencies, installed before pathprof. */
  tools: string[];
  files: Record<string, string>;
  test: readonly [string, string[]];
  /** The README's files the project takes (by name): its set-up for this runner. */
  readme: string[];
  /** src/cart.js as this project writes it (CommonJS unless said). */
  source?: string;
  env: Record<string, string>;
  /** Where this repository has the release of @babel/core the project has. */
  babel: string;
  substitutes: Record<string, string>;
  /** More of the README this project follows, each a test run after its tests (in the same installation). */
  more?: Record<string, (project: PackedInstall) => void>;
}

interface ReportJson {
  files: {
    file: string;
    executedPaths: number;
    functions: {
      name: string;
      activations: number;
      potentialPaths: number;
      paths: { count: number; decisions: { code: string; outcome: string }[] }[];
    }[];
  }[];
}

/** `pathprof-report json` in the project, which must succeed saying nothing on stderr. */
function reportJson(project: PackedInstall): ReportJson {
  const report = project.run('pathprof-report', ['json']);
  expect(report.stderr).toBe('');
  expect(report.status).toBe(0);
  return JSON.parse(report.stdout) as ReportJson;
}

/** The paths `total` took in src/cart.js, each as its count and decisions (sorted). */
function totalPaths(json: ReportJson): string[] {
  const cart = json.files.find((f) => f.file === 'src/cart.js')!;
  const total = cart.functions.find((f) => f.name === 'total')!;
  return total.paths
    .map((p) => `${p.count} ${p.decisions.map((d) => `${d.code.slice(0, 12)}: ${d.outcome}`).join(', ')}`)
    .sort();
}

// A source file no test loads, and a Vitest config asking for it (README: Beside your other tools).
const unused = 'export function larger(a, b) {\n  return a > b ? a : b;\n}\n';
const vitestAllConfig = `export default {
  test: {
    coverage: {
      provider: 'custom',
      customProviderModule: 'babel-plugin-pathprof/vitest',
      pathprof: { all: true },
    },
  },
};
`;
const vitestNamesConfig = `export default {
  test: {
    coverage: { provider: 'custom', customProviderModule: 'babel-plugin-pathprof/vitest' },
    setupFiles: ['babel-plugin-pathprof/vitest-setup'],
  },
};
`;
// The executed paths of total in \`show --tests\`, in path order: each with the tests that took it. The first
// iteration from the entry without a quantity, in two tests; the cart without items; the second iteration,
// with a quantity; leaving the loop without a coupon, then with one that applies.
const takenBy = [
  'taken by: test/cart.test.js › no coupon ×1',
  'test/cart.test.js › coupon applies ×1',
  'taken by: test/cart.test.js › empty cart ×1',
  'taken by: test/cart.test.js › no coupon ×1',
  'taken by: test/cart.test.js › no coupon ×1',
  'taken by: test/cart.test.js › coupon applies ×1',
];

/**
 * A Vitest project: Vitest reads no Babel config, the provider instruments with the plugin (and needs
 * @babel/core). `release` is another release of Vitest than the repository's (4), an alias installed here:
 * `vitest-2` (Vite 5), `vitest-3`, `vitest-5` (which asks for Node 22; it runs on 20).
 */
function vitestProject(release?: string): UserProject {
  const manifest = require(`${release ?? 'vitest'}/package.json`);
  // From Vitest 5 on, Vite is a peer: the project installs it beside Vitest.
  const vite = manifest.peerDependencies?.vite && !manifest.peerDependenciesMeta?.vite?.optional;
  return {
    title: `a Vitest ${manifest.version} project`,
    tools: ['vitest', ...(vite ? ['vite'] : []), '@babel/core'],
    files: {
      'test/cart.test.js': `import { expect, test } from 'vitest';\nimport { total } from '../src/cart.js';\n${cases}`,
      'src/unused.js': unused,
      'vitest.all.config.js': vitestAllConfig,
    },
    source: esmCart,
    test: ['vitest', ['run', '--coverage']],
    readme: ['vitest.config.js'],
    env: { NO_COLOR: '1' },
    babel: '@babel/core',
    substitutes: release ? { vitest: release } : {},
    more: {
      'all: true in coverage.pathprof lists the file no test loaded, every path unexecuted': (project) => {
        const args = ['run', '--coverage', '--config', 'vitest.all.config.js'];
        const tests = project.run('vitest', args, { NO_COLOR: '1' });
        expect(tests.status).toBe(0);
        expect(tests.stdout).toMatch(/^src\/unused\.js +3 +0 +0\.0% /m);
        const json = reportJson(project);
        // Neither the tests nor Vitest's configs: the selection's files, the loaded one counted as before.
        expect(json.files.map((f) => [f.file, f.executedPaths])).toEqual([
          ['src/cart.js', 6],
          ['src/unused.js', 0],
        ]);
        expect(json.files[1].functions.map((f) => [f.name, f.potentialPaths, f.activations])).toEqual([
          ['<program>', 1, 0],
          ['larger', 2, 0],
        ]);
        expect(totalPaths(json)).toEqual(expectedPaths);
      },
      'the setup file with PATHPROF_TEST_NAMES=1, in threads without isolation: each path and its tests': (
        project,
      ) => {
        // Written here: while it exists, it is a source file of the project that no test loads.
        project.write('vitest.names.config.js', vitestNamesConfig);
        const args = [
          'run',
          '--coverage',
          '--config',
          'vitest.names.config.js',
          '--pool=threads',
          '--isolate=false',
        ];
        const tests = project.run('vitest', args, { NO_COLOR: '1', PATHPROF_TEST_NAMES: '1' });
        expect(tests.status).toBe(0);
        const show = project.run('pathprof-report', ['show', 'src/cart.js:total', '--tests'], {
          NO_COLOR: '1',
        });
        expect(show.stderr).toBe('');
        const executed = show.stdout.split('\n  not executed:')[0];
        expect(executed.match(/^ +(taken by: )?test\/.* ×\d+$/gm)?.map((line) => line.trim())).toEqual(
          takenBy,
        );
      },
    },
  };
}

describe.each<UserProject>([
  {
    title: 'a jest project',
    tools: ['jest', 'babel-jest', '@babel/core'],
    files: { 'test/cart.test.js': `const { total } = require('../src/cart');\n${cases}` },
    test: ['jest', []],
    readme: ['babel.config.js', 'jest.config.js'],
    env: {}, // jest sets NODE_ENV=test itself
    babel: '@babel/core',
    substitutes: {},
  },
  {
    title: 'a jest project testing in jsdom',
    tools: ['jest', 'babel-jest', '@babel/core', 'jest-environment-jsdom'],
    files: {
      'test/cart.test.js': `/** @jest-environment jsdom */\nconst { total } = require('../src/cart');\ntest('a DOM', () => expect(typeof document.createElement).toBe('function'));\n${cases}`,
    },
    test: ['jest', []],
    readme: ['babel.config.js', 'jest.config.js'],
    env: {},
    babel: '@babel/core',
    substitutes: {},
  },
  vitestProject(),
  vitestProject('vitest-2'),
  vitestProject('vitest-3'),
  vitestProject('vitest-5'),
  {
    // npx pathprof mocha: the command's own hook compiles the tests and the sources (no --require of the
    // project's), with the plugin although NODE_ENV is not test.
    title: 'a mocha project under npx pathprof',
    tools: ['mocha', '@babel/register', '@babel/core'],
    files: {
      '.mocharc.json': '{ "ui": "tdd" }\n',
      'test/cart.test.js': `const assert = require('node:assert');\nconst { total } = require('../src/cart');\nconst expect = (value) => ({ toBe: (wanted) => assert.strictEqual(value, wanted) });\n${cases}`,
    },
    test: ['pathprof', ['mocha']],
    readme: ['babel.config.js'],
    env: {},
    babel: '@babel/core',
    substitutes: {},
    more: {
      'npx pathprof node: a plain Node program, its exit code kept, a new run': (project) => {
        project.write(
          'main.js',
          "const { total } = require('./src/cart');\nconst sum = total([{ price: 4, quantity: 3 }], { minimum: 20, amount: 5 });\nconsole.log(sum);\nprocess.exitCode = 3;\n",
        );
        const run = project.run('pathprof', ['node', 'main.js'], { NO_COLOR: '1' });
        expect(run.stderr).toBe('');
        expect(run.status).toBe(3);
        expect(run.stdout).toMatch(/^12\nFile \/ function/);
        // One item with its quantity, then a coupon whose minimum the sum misses; mocha's run is gone.
        expect(totalPaths(reportJson(project))).toEqual([
          '1 for (const i: loop: done, leaves the loop, coupon: true, sum >= coupo: false, return sum;: return',
          '1 for (const i: loop: next item, item.quantit: not null or undefined, for (const i: loop: next iteration',
        ]);
      },
      "calling contexts with the README's babel.config.js: the contexts tree, folded stacks and paths per context":
        (project) => {
          const readme = readmeSetup();
          const config = readme.variants['babel.config.js'].find((text) => text.includes('contexts: true'))!;
          project.write('babel.config.js', config);
          try {
            const main =
              "const { total } = require('./src/cart');\nfor (const coupon of [null, { minimum: 1, amount: 1 }]) total([{ price: 2 }], coupon);\n";
            project.write('contexts.js', main);
            const run = project.run('pathprof', ['node', 'contexts.js'], { NO_COLOR: '1' });
            expect(run.stderr).toBe('');
            expect(run.status).toBe(0);
            const tree = project.run('pathprof-report', ['contexts'], { NO_COLOR: '1' });
            expect(tree.stderr).toBe('');
            // The program required the cart, then called total twice: a context under the program's.
            expect(tree.stdout).toMatch(/^Calling contexts: 4 calls in 3 contexts of 2 files$/m);
            expect(tree.stdout).toMatch(/^ +2 +2 +total +src\/cart\.js:1 *$/m);
            const folded = project.run('pathprof-report', ['folded']);
            expect(folded.stdout).toContain('<program> (contexts.js:1);total (src/cart.js:1) 2\n');
            // Paths per context: the report's path figures are the paths summed over the contexts.
            expect(totalPaths(reportJson(project))).toEqual([
              '1 for (const i: loop: done, leaves the loop, coupon: false, return sum;: return',
              '1 for (const i: loop: done, leaves the loop, coupon: true, sum >= coupo: true, return sum;: return',
              '2 for (const i: loop: next item, item.quantit: null or undefined, for (const i: loop: next iteration',
            ]);
          } finally {
            project.write('babel.config.js', readmeSetup().files['babel.config.js']);
          }
        },
    },
  },
  {
    // Jest 30 needs Babel 7.22 (its preset's import-attributes syntax plugin): this project runs mocha over
    // @babel/register, with NODE_ENV=test for the README's `env.test`.
    title: 'a mocha project locked to Babel 7.20',
    tools: ['mocha', '@babel/register', '@babel/core'],
    files: {
      '.mocharc.json': '{ "require": "@babel/register", "ui": "tdd" }\n',
      'test/cart.test.js': `const assert = require('node:assert');\nconst { total } = require('../src/cart');\nconst expect = (value) => ({ toBe: (wanted) => assert.strictEqual(value, wanted) });\n${cases}`,
    },
    test: ['mocha', []],
    readme: ['babel.config.js'],
    env: { NODE_ENV: 'test' },
    babel: 'babel-core-7.20',
    substitutes: babel720,
  },
])(
  'installed from the packed tarballs into $title',
  ({ tools, files, test: [runner, args], readme: taken, source, env, babel, substitutes, more }) => {
    let project: PackedInstall;
    beforeAll(() => {
      const readme = readmeSetup();
      // The README installs the one user-facing package; unpublished, it comes with its siblings' tarballs.
      expect(readme.install).toBe('npm install --save-dev babel-plugin-pathprof');
      const setup = Object.fromEntries(taken.map((name) => [name, readme.files[name]]));
      project = new PackedInstall({
        files: { ...setup, ...files, 'src/cart.js': source ?? cart },
        tools,
        tarballs,
        substitutes,
      });
    });
    afterAll(() => project.dispose());

    test('the plugin, its runtime and the report resolve inside the project, next to its own Babel', () => {
      const resolve = (request: string) =>
        project.run(process.execPath, ['-p', `require.resolve(${JSON.stringify(request)})`]);
      for (const request of ['babel-plugin-pathprof', 'babel-plugin-pathprof/runtime', '@pathprof/report']) {
        const run = resolve(request);
        expect(run.stderr).toBe('');
        expect(realpathSync(run.stdout.trim()).startsWith(realpathSync(project.root))).toBe(true);
      }
      // The project's Babel, and what it transforms with: the older releases where substituted.
      const core = project.run(process.execPath, ['-p', "require('@babel/core').version"]);
      expect(core.stdout.trim()).toBe(require(`${babel}/package.json`).version);
      // Babel's from the project's @babel/core, a tool's from the project.
      for (const [name, alias] of Object.entries(substitutes)) {
        const from = name.startsWith('@babel/') ? "require.resolve('@babel/core')" : "'.'";
        const version = `require(require.resolve('${name}/package.json', { paths: [${from}] })).version`;
        expect(project.run(process.execPath, ['-p', version]).stdout.trim()).toBe(
          require(`${alias}/package.json`).version,
        );
      }
      expect(JSON.parse(readFileSync(project.path('package.json'), 'utf8')).devDependencies).toHaveProperty(
        'babel-plugin-pathprof',
      );
    });

    test('the tests with the README set-up, then pathprof-report: exact counts', () => {
      const tests = project.run(runner, [...args], env);
      expect(`${tests.stdout}${tests.stderr}`).toMatch(
        /Tests: +[34] passed, [34] total|[34] passed \([34]\)|3 passing/,
      );
      expect(tests.status).toBe(0);
      const json = reportJson(project);
      expect(json.files.map((f) => f.file)).toEqual(['src/cart.js']);
      const functions = Object.fromEntries(json.files[0].functions.map((f) => [f.name, f]));
      expect(functions['<program>'].activations).toBe(1);
      expect(functions.total.activations).toBe(3);
      expect(totalPaths(json)).toEqual(expectedPaths);
      const text = project.run('pathprof-report', []);
      expect(text.status).toBe(0);
      expect(text.stdout).toMatch(/src\/cart\.js +\d+ +6 /);
    });

    for (const [name, check] of Object.entries(more ?? {})) test(name, () => check(project));
  },
);
