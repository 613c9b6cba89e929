import { transformSync } from '@babel/core';
import istanbul from 'babel-plugin-istanbul';

/** `code` instrumented by babel-plugin-istanbul as a user's config would, counting into `__coverage__`. */
export function instrumentWithIstanbul(code: string, filename: string): string {
  const result = transformSync(code, {
    filename,
    babelrc: false,
    configFile: false,
    sourceType: 'unambiguous',
    plugins: [[istanbul, { cwd: process.cwd(), exclude: [], useInlineSourceMaps: false }]],
  });
  if (!result?.code) throw new Error(`istanbul gave no output for ${filename}`);
  return result.code;
}
