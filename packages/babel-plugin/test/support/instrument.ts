import { transformSync } from '@babel/core';
import { join } from 'node:path';
import pathprof from '../../src';
import type { PluginOptions } from '../../src';

/** Where test sources pretend to live: under the working directory, so their key is `virtual/<name>`. */
export function virtualPath(name: string): string {
  return join(process.cwd(), 'virtual', name);
}

/**
 * After the plugin's `Program` enter, Babel walks the whole rewritten file for the other plugins of the pass.
 * With no other plugin that walk changes nothing and costs a third of the transform: the generated-program
 * suites, which instrument thousands of files, skip it (every other test keeps the walk users have).
 */
const aloneInThePass = () => ({ visitor: { Program: (path: { skip(): void }) => path.skip() } });

/**
 * Instruments `code` as a user's Babel config would, as a classic script (the tests run it with `vm`);
 * TypeScript and JSX are compiled in the same pass, after the plugin has seen the original source. `alone`
 * skips the walk other plugins would need (JavaScript only).
 */
export function instrument(
  code: string,
  name: string,
  options: PluginOptions = {},
  { alone = false } = {},
): string {
  const typescript = /\.tsx?$/.test(name);
  if (alone && /\.(tsx?|jsx)$/.test(name)) throw new Error(`${name}: only JavaScript is instrumented alone`);
  const result = transformSync(code, {
    filename: virtualPath(name),
    babelrc: false,
    configFile: false,
    sourceType: 'unambiguous',
    plugins: [[pathprof, { runtime: 'require', ...options }], ...(alone ? [aloneInThePass] : [])],
    presets: [
      ...(typescript
        ? [['@babel/preset-typescript', { allowDeclareFields: true, isTSX: name.endsWith('x') }]]
        : []),
      ...(/\.(tsx|jsx)$/.test(name) ? [['@babel/preset-react', { runtime: 'classic' }]] : []),
    ],
  });
  if (!result?.code) throw new Error(`no output for ${name}`);
  return result.code;
}
