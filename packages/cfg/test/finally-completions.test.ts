import generateModule from '@babel/generator';
import * as t from '@babel/types';
import vm from 'node:vm';
import {
  buildFileCfgs,
  EdgeKind,
  freshNamesFor,
  insertEdgeCode,
  parseSource,
  type EdgeCodePlan,
} from '@pathprof/cfg';

const generate = (generateModule as unknown as { default?: typeof generateModule }).default ?? generateModule;

/** Code only on `done` edges: `log.push('done')`. Every other edge, `finally` exits included, has none. */
const doneOnly: EdgeCodePlan = {
  include: () => true,
  prologue: () => [],
  edgeCode: (cfg, edge) =>
    cfg.edgeKind[edge] === EdgeKind.Done
      ? [
          t.callExpression(t.memberExpression(t.identifier('log'), t.identifier('push')), [
            t.stringLiteral('done'),
          ]),
        ]
      : [],
  handlerEntry: () => [],
  exceptionalExit: () => [],
  parameterState: () => null,
  parameterPrologue: () => [],
};

// Found by a soak run: a `break` leaving a `for…of` through a `finally` whose exit carried no code of its
// own lost the flag that tells the code after the loop it was not the `done` exit.
test('a break through a finally is not the loop being done, even when the finally exit has no code', () => {
  const source = `function f(items) {
    for (const x of items) {
      try {
        if (x) break;
      } finally {
        log.push('finally');
      }
    }
    log.push('after');
  }`;
  const ast = parseSource(source, 'flag.js');
  insertEdgeCode(ast.program, freshNamesFor(ast), buildFileCfgs(ast.program, 'flag.js'), doneOnly);
  const run = (items: number[]) => {
    const context = vm.createContext({ log: [] as string[] });
    vm.runInContext(`${generate(ast).code}\nf(${JSON.stringify(items)});`, context);
    return context.log as string[];
  };
  expect(run([0])).toEqual(['finally', 'done', 'after']);
  expect(run([1])).toEqual(['finally', 'after']);
  expect(run([])).toEqual(['done', 'after']);
});

// Found by a fuzz run: a `return` leaving an inner `finally` whose exit carried no code entered an outer
// `finally` without recording its completion, so the outer exit's code for `return` did not run.
test('an inner finally exit records the completion of the outer finally it enters, even without code', () => {
  const source = `function f(x) {
    try {
      try {
        if (x) return 'early';
      } finally {
        log.push('inner');
      }
      log.push('body');
    } finally {
      log.push('outer');
    }
    return 'late';
  }`;
  const ast = parseSource(source, 'nested.js');
  const graphs = buildFileCfgs(ast.program, 'nested.js');
  const outer = (graphs[1].node as t.FunctionDeclaration).body.body[0] as t.TryStatement;
  const outerExitsOnly: EdgeCodePlan = {
    ...doneOnly,
    edgeCode: (cfg, edge) => {
      const site = cfg.edges[edge].site;
      if (site?.type !== 'finallyExit' || site.statement !== outer) return [];
      const label = t.stringLiteral(`exit ${site.completions.join(',')}`);
      return [t.callExpression(t.memberExpression(t.identifier('log'), t.identifier('push')), [label])];
    },
  };
  insertEdgeCode(ast.program, freshNamesFor(ast), graphs, outerExitsOnly);
  const run = (x: number) => {
    const context = vm.createContext({ log: [] as string[] });
    vm.runInContext(`${generate(ast).code}\nlog.push(f(${x}));`, context);
    return context.log as string[];
  };
  expect(run(1)).toEqual(['inner', 'outer', 'exit 2', 'early']);
  expect(run(0)).toEqual(['inner', 'body', 'outer', 'exit 0', 'late']);
});
