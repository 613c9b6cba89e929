import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readmeSetup } from './support/readme-setup';
import { ScratchProject } from './support/scratch-project';

const built = existsSync(join(__dirname, '..', 'dist', 'index.js'));

/**
 * The README's babel.config.js, as it is, instruments only under Babel's `test` environment: a production
 * build (`NODE_ENV=production`), or a command with no environment set, compiles the sources untouched.
 */
(built ? describe : describe.skip)("the README's Babel config in a build", () => {
  let project: ScratchProject;
  beforeAll(() => {
    project = new ScratchProject({
      'babel.config.js': readmeSetup().files['babel.config.js'],
      'src/sign.js': 'export function sign(x) {\n  return x > 0 ? 1 : x < 0 ? -1 : 0;\n}\n',
    });
  });
  afterAll(() => project.dispose());

  // Compiles the file in a fresh process, with the environment a build command would have.
  const build = (env: Record<string, string | undefined>) => {
    const run = spawnSync(
      process.execPath,
      ['-e', "process.stdout.write(require('@babel/core').transformFileSync('src/sign.js').code)"],
      {
        cwd: project.root,
        encoding: 'utf8',
        env: { ...process.env, NODE_ENV: undefined, BABEL_ENV: undefined, ...env },
      },
    );
    expect(run.stderr).toBe('');
    return run.stdout;
  };

  test.each([
    ['NODE_ENV=production', { NODE_ENV: 'production' }],
    ['BABEL_ENV=production', { BABEL_ENV: 'production' }],
    ['no environment set', {}],
  ])('%s: no instrumentation, the source as it was', (_, env) => {
    const code = build(env);
    expect(code).toBe('export function sign(x) {\n  return x > 0 ? 1 : x < 0 ? -1 : 0;\n}');
    expect(code).not.toMatch(/pathprof|_pp_/);
  });

  test('NODE_ENV=test (what jest sets): instrumented', () => {
    expect(build({ NODE_ENV: 'test' })).toMatch(/^import _pp_runtime from "babel-plugin-pathprof\/runtime";/);
  });
});
