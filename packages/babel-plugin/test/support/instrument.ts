import { transformSync, type TransformOptions } from '@babel/core';
import { join } from 'node:path';
import pathprof from '../../src';
import type { PluginOptions } from '../../src';

/** Where test sources pretend to live: under the working directory, so their key is `virtual/<name>`. */
export function virtualPath(name: string): string {
  return join(process.cwd(), 'virtual', name);
}

/**
 * Test programs carry no source map: Babel would otherwise search every program's text for one. Babel takes
 * `false` for that; its type declarations only list a map. The output is run, not read: printed compact, it
 * costs 11% less to transform (no indentation of deeply nested generated programs).
 */
const forTests = { inputSourceMap: false, compact: true } as unknown as TransformOptions;

/**
 * Instruments `code` as a user's Babel config would, parsed as a classic script unless it has import or export
 * (`sourceType`; the tests run it with `vm` either way); TypeScript and JSX are compiled in the same pass,
 * after the plugin has seen the original source.
 */
export function instrument(
  code: string,
  name: string,
  options: PluginOptions = {},
  sourceType: 'unambiguous' | 'module' = 'unambiguous',
): string {
  const typescript = /\.tsx?$/.test(name);
  const result = transformSync(code, {
    filename: virtualPath(name),
    babelrc: false,
    configFile: false,
    sourceType,
    ...forTests,
    plugins: [[pathprof, { runtime: 'require', ...options }]],
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
