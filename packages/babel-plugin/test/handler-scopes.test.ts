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

/** The scopes `run` makes Babel crawl (the outermost crawls: a crawl inside another returns at once). */
function crawls(run: () => void): Scope[] {
  const crawl = Scope.prototype.crawl;
  const crawled: Scope[] = [];
  let depth = 0;
  Scope.prototype.crawl = function (this: Scope) {
    if (depth === 0) crawled.push(this);
    depth++;
    try {
      crawl.call(this);
    } finally {
      depth--;
    }
  };
  try {
    run();
  } finally {
    Scope.prototype.crawl = crawl;
  }
  return crawled;
}

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
    const crawled = crawls(() =>
      transformSync(source, {
        filename: virtualPath('scopes.js'),
        babelrc: false,
        configFile: false,
        plugins: [[pathprof, { runtime: 'require' }], probe(seen)],
      }),
    );
    seen.crawledTryBlocks = crawled.filter(
      ({ path }) => path.key === 'block' && path.parentPath?.isTryStatement(),
    ).length;
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

  test('through a module transform, no declaration of the source is crawled again, and the exports work', () => {
    const classes = `
export class Shape {
  area() {
    return 0;
  }
}
export default class Square extends Shape {
  constructor(side) {
    super();
    this.side = side;
  }
  area() {
    function squared(v) {
      return v * v;
    }
    return squared(this.side);
  }
}
export function total(shapes) {
  let sum = 0;
  for (const shape of shapes) sum += shape.area();
  return sum;
}
`;
    let code = '';
    const crawled = crawls(() => {
      code = transformSync(classes, {
        filename: virtualPath('shapes.js'),
        babelrc: false,
        configFile: false,
        plugins: [[pathprof, { runtime: 'require' }]],
        presets: [['@babel/preset-env', { targets: { node: '20' }, modules: 'commonjs' }]],
      })!.code!;
    })
      // Source nodes have locations; what Babel or we add has none.
      .flatMap(({ path }) => (path.node.loc ? [`${path.node.type} in ${path.parent.type}`] : []));
    // The program, before our pass; a scope directly in a function body, now under the handler's block, on its own.
    expect(crawled).toEqual([
      'Program in File',
      'FunctionDeclaration in BlockStatement',
      'ForOfStatement in BlockStatement',
    ]);
    const module = { exports: {} as Record<string, unknown> };
    const require = (name: string) => (name.includes('runtime') ? jest.requireActual(name) : {});
    vm.runInNewContext(code, { module, exports: module.exports, require });
    const {
      total,
      Shape,
      default: Square,
    } = module.exports as {
      total(shapes: unknown[]): number;
      Shape: new () => unknown;
      default: new (side: number) => unknown;
    };
    expect(total([new Square(3), new Shape()])).toBe(9);
  });
});
