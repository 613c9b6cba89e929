import { type PluginObj, transformSync, types as t } from '@babel/core';
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mergeProfiles, readProfileDirectory } from '@pathprof/runtime';
import { decodedCounts } from './support/decoded-counts';
import { ScratchProject } from './support/scratch-project';

const built = existsSync(join(__dirname, '..', 'dist', 'index.js'));

/**
 * A project's own ESM-to-CommonJS step, as a real one has it: every `import` must be a default import, which
 * becomes a plain `require` (no interop helper); anything else is an error naming the import.
 */
function defaultImportsToRequire(): PluginObj {
  return {
    name: 'default-imports-to-require',
    visitor: {
      ImportDeclaration(path) {
        const [specifier, ...rest] = path.node.specifiers;
        if (!t.isImportDefaultSpecifier(specifier) || rest.length) {
          throw path.buildCodeFrameError('only `import name from "module"` is supported');
        }
        const call = t.callExpression(t.identifier('require'), [path.node.source]);
        path.replaceWith(t.variableDeclaration('const', [t.variableDeclarator(specifier.local, call)]));
      },
    },
  };
}

const source = `import helper from './helper.js';
export function sign(x) {
  if (x > 0) return helper('positive');
  if (x < 0) return helper('negative');
  return helper('zero');
}
`;

/**
 * The runtime import pathprof adds to an ES module is a default import, so such a plugin takes it like the
 * file's own imports, in either order in the config, and the result runs under plain `require` and counts.
 */
(built ? describe : describe.skip)('a plugin that accepts only default imports', () => {
  let project: ScratchProject;
  beforeAll(() => {
    project = new ScratchProject({
      'helper.js': 'module.exports = (word) => word.toUpperCase();\n',
      'main.js': "const { sign } = require('./sign.js');\nconsole.log([2, -1, 0, 5].map(sign).join(' '));\n",
    });
  });
  afterAll(() => project.dispose());

  test.each([
    ['after pathprof', true],
    ['before pathprof', false],
  ])('%s: compiles, runs under plain require and counts exactly', (_, pathprofFirst) => {
    const plugins = pathprofFirst
      ? ['pathprof', defaultImportsToRequire]
      : [defaultImportsToRequire, 'pathprof'];
    const code = transformSync(source, {
      filename: project.path('src/sign.mjs'),
      cwd: project.root,
      babelrc: false,
      configFile: false,
      plugins: [...plugins, '@babel/plugin-transform-modules-commonjs'],
    })!.code!;
    expect(code).toMatch(/const _pp_runtime = require\("babel-plugin-pathprof\/runtime"\);/);
    expect(code).not.toMatch(/^import /m);
    writeFileSync(project.path('sign.js'), code);
    const out = project.path(`profiles-${pathprofFirst}`);
    const run = spawnSync(process.execPath, ['main.js'], {
      cwd: project.root,
      env: { ...process.env, PATHPROF_DIR: out },
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('POSITIVE NEGATIVE ZERO POSITIVE\n');
    const [file] = mergeProfiles(readProfileDirectory(out).profiles);
    expect(decodedCounts(file).sign).toEqual({
      'entry true return': 2,
      'entry false true return': 1,
      'entry false false return': 1,
    });
  });
});
