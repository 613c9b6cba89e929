import { transformSync } from '@babel/core';

/** TypeScript and JSX fixtures run after Babel strips types and compiles JSX; plain JavaScript runs as is. */
export function toScript(code: string, filename: string): string {
  if (!/\.(tsx?|jsx)$/.test(filename)) return code;
  const result = transformSync(code, {
    filename,
    babelrc: false,
    configFile: false,
    presets: [
      [
        '@babel/preset-typescript',
        { allExtensions: true, allowDeclareFields: true, isTSX: filename.endsWith('x') },
      ],
      ['@babel/preset-react', { runtime: 'classic' }],
    ],
  });
  if (!result?.code) throw new Error(`could not compile ${filename}`);
  return result.code;
}
