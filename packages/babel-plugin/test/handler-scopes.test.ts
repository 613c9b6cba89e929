import { transformSync, type PluginObj } from '@babel/core';
import { Scope } from '@babel/traverse';
import vm from 'node:vm';
import pathprof from '../src';
import { virtualPath } from './support/instrument';

const source = `
export function total(n) {
  const fns = [];
  for (let i = 0; i < n; i++) fns.push(() => i);
  let sum = 0;
  for (const f of fns) sum += f();
  return sum;
}
`;

/** What a plugin after ours sees at the handler's `try` block: who owns `sum`, and whether it was crawled. */
function probe(seen: { blockOwns: string[]; functionOwns: boolean; crawledTryBlocks: number }): PluginObj {
  return {
    visitor: {
      TryStatement(path) {
        if (!path.parentPath.parentPath?.isFunctionDeclaration()) return;
        const block = path.get('block');
        seen.blockOwns = Object.keys(block.scope.bindings).filter((name) => !name.startsWith('_pp'));
        seen.functionOwns = !!block.scope.parent.getOwnBinding('sum');
      },
    },
  };
}

describe('handler scopes', () => {
  test('a plugin after ours finds the handler block scoped as the body was, without crawling it', () => {
    const seen = { blockOwns: [] as string[], functionOwns: true, crawledTryBlocks: 0 };
    const crawl = jest.spyOn(Scope.prototype, 'crawl');
    try {
      transformSync(source, {
        filename: virtualPath('scopes.js'),
        babelrc: false,
        configFile: false,
        plugins: [[pathprof, { runtime: 'require' }], probe(seen)],
      });
      seen.crawledTryBlocks = crawl.mock.contexts.filter(
        ({ path }: Scope) =>
          path.listKey === undefined && path.key === 'block' && path.parentPath?.isTryStatement(),
      ).length;
    } finally {
      crawl.mockRestore();
    }
    expect(seen).toEqual({ blockOwns: ['fns', 'sum'], functionOwns: false, crawledTryBlocks: 0 });
  });

  test('block scoping for old engines gives the same results through the instrumented code', () => {
    const compile = (plugins: unknown[]) =>
      transformSync(source, {
        filename: virtualPath('scopes.js'),
        babelrc: false,
        configFile: false,
        plugins: plugins as never,
        presets: [['@babel/preset-env', { targets: { ie: '11' }, modules: 'commonjs' }]],
      })!.code!;
    const run = (code: string) => {
      const module = { exports: {} as { total(n: number): number } };
      const require = (name: string) => (name.includes('runtime') ? jest.requireActual(name) : {});
      vm.runInNewContext(code, { module, exports: module.exports, require });
      return [0, 1, 5].map((n) => module.exports.total(n));
    };
    const instrumented = compile([[pathprof, { runtime: 'require' }]]);
    expect(instrumented).toMatch(/_loop/);
    expect(run(instrumented)).toEqual([0, 0, 10]);
    expect(run(compile([]))).toEqual([0, 0, 10]);
  });
});
