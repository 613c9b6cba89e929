import { transformSync } from '@babel/core';
import pathprof from '../src';
import { virtualPath } from './support/instrument';

/**
 * An ES module in TypeScript loads the runtime with an `import`; @babel/preset-typescript removes imports
 * whose bindings it sees no use of, so the plugin must make the use inside its init() known.
 */
test('preset-typescript keeps the runtime import of an ES module', () => {
  const code = transformSync(
    "import type { T } from './t';\nexport function f(x: T) { return x ? 1 : 2; }\n",
    {
      filename: virtualPath('module.ts'),
      babelrc: false,
      configFile: false,
      plugins: [pathprof],
      presets: ['@babel/preset-typescript'],
    },
  )!.code!;
  expect(code).toMatch(/^import _pp_runtime from "babel-plugin-pathprof\/runtime";$/m);
  expect(code).not.toMatch(/from '\.\/t'/);
});
