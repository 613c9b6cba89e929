import { parse } from '@babel/parser';
import type * as t from '@babel/types';
import { type GeneratedProgram, generateProgram, Random, TIMEOUT, runPlain } from '@pathprof/testkit';

const SEEDS = 300;
const BASE_SEED = 7100;

const programs: GeneratedProgram[] = Array.from({ length: SEEDS }, (_, i) =>
  generateProgram(new Random(BASE_SEED + i)),
);

type Ancestors = readonly t.Node[];

/** The innermost ancestor that matches (lib ES2022 has no `findLast`). */
function innermost(ancestors: Ancestors, match: (node: t.Node) => boolean): t.Node | undefined {
  for (let i = ancestors.length - 1; i >= 0; i--) if (match(ancestors[i])) return ancestors[i];
  return undefined;
}

/** Visits every node with its ancestors, innermost last. */
function walk(
  node: t.Node,
  visit: (node: t.Node, ancestors: Ancestors) => void,
  ancestors: t.Node[] = [],
): void {
  visit(node, ancestors);
  ancestors.push(node);
  for (const [key, value] of Object.entries(node)) {
    if (key === 'loc' || key === 'extra' || key.endsWith('Comments')) continue;
    for (const child of Array.isArray(value) ? value : [value]) {
      if (isNode(child)) walk(child, visit, ancestors);
    }
  }
  ancestors.pop();
}

function isNode(value: unknown): value is t.Node {
  return (
    typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string'
  );
}

const LOOPS = new Set([
  'ForStatement',
  'WhileStatement',
  'DoWhileStatement',
  'ForInStatement',
  'ForOfStatement',
]);
const FUNCTIONS = new Set([
  'FunctionDeclaration',
  'FunctionExpression',
  'ArrowFunctionExpression',
  'ObjectMethod',
  'ClassMethod',
]);
const JUMPS = new Set(['BreakStatement', 'ContinueStatement', 'ReturnStatement', 'ThrowStatement']);

/** The ancestors inside the innermost enclosing function, outermost first. */
function inFunction(ancestors: Ancestors): Ancestors {
  let i = ancestors.length - 1;
  while (i >= 0 && !FUNCTIONS.has(ancestors[i].type)) i--;
  return ancestors.slice(i + 1);
}

/** Whether `node` lies in the given part of a try statement of its own function. */
function inTryPart(
  ancestors: Ancestors,
  node: t.Node,
  part: 'block' | 'handler' | 'finalizer',
  withFinally: boolean,
) {
  const chain = [...inFunction(ancestors), node];
  return chain.some((a, i) => {
    if (a.type !== 'TryStatement' || (withFinally && a.finalizer === null)) return false;
    return chain[i + 1] === a[part];
  });
}

function isTestOf(parent: t.Node | undefined, node: t.Node): boolean {
  if (parent === undefined) return false;
  switch (parent.type) {
    case 'IfStatement':
    case 'WhileStatement':
    case 'DoWhileStatement':
    case 'ForStatement':
    case 'ConditionalExpression':
      return parent.test === node;
    default:
      return false;
  }
}

const isBranch = (node: t.Node | null | undefined) =>
  node?.type === 'ConditionalExpression' || node?.type === 'LogicalExpression';

/** The chain of member/call links below an optional chain's outermost node. */
function chainLinks(node: t.Node): t.Node[] {
  const links: t.Node[] = [];
  let current: t.Node = node;
  for (;;) {
    links.push(current);
    if (current.type === 'OptionalMemberExpression' || current.type === 'MemberExpression')
      current = current.object;
    else if (current.type === 'OptionalCallExpression' || current.type === 'CallExpression')
      current = current.callee;
    else return links;
  }
}

/** The index among the ancestors of the labeled statement a jump targets, or -1 for an unlabeled jump. */
function labelTarget(node: t.BreakStatement | t.ContinueStatement, ancestors: Ancestors): number {
  return ancestors.findIndex((a) => a.type === 'LabeledStatement' && a.label.name === node.label?.name);
}

const isDirectEval = (n: t.Node) =>
  n.type === 'CallExpression' && n.callee.type === 'Identifier' && n.callee.name === 'eval';

type Feature = (node: t.Node, ancestors: Ancestors, generators: ReadonlySet<string>) => boolean;

/** Every construct the generator promises, recognized in the AST. */
const FEATURES: Record<string, Feature> = {
  'if/else': (n) => n.type === 'IfStatement' && !!n.alternate && n.alternate.type !== 'IfStatement',
  'else-if chain': (n) => n.type === 'IfStatement' && n.alternate?.type === 'IfStatement',
  'conditional expression': (n) => n.type === 'ConditionalExpression',
  ...Object.fromEntries(
    (['&&', '||', '??'] as const).flatMap((op) => [
      [
        `${op} as value`,
        ((n, a) => n.type === 'LogicalExpression' && n.operator === op && !isTestOf(a.at(-1), n)) as Feature,
      ],
      [
        `${op} as test`,
        ((n, a) => n.type === 'LogicalExpression' && n.operator === op && isTestOf(a.at(-1), n)) as Feature,
      ],
      [
        `${op}= on a local`,
        ((n) =>
          n.type === 'AssignmentExpression' &&
          n.operator === `${op}=` &&
          n.left.type === 'Identifier') as Feature,
      ],
      [
        `${op}= on a property`,
        ((n) =>
          n.type === 'AssignmentExpression' &&
          n.operator === `${op}=` &&
          n.left.type === 'MemberExpression') as Feature,
      ],
    ]),
  ),
  'nested logical': (n) =>
    n.type === 'LogicalExpression' &&
    (n.left.type === 'LogicalExpression' || n.right.type === 'LogicalExpression'),
  'optional member': (n) => n.type === 'OptionalMemberExpression' && n.optional && !n.computed,
  'optional computed member': (n) => n.type === 'OptionalMemberExpression' && n.optional && n.computed,
  'optional call f?.()': (n) =>
    n.type === 'OptionalCallExpression' && n.optional && n.callee.type === 'Identifier',
  'optional method call o.m?.()': (n) =>
    n.type === 'OptionalCallExpression' && n.optional && /MemberExpression$/.test(n.callee.type),
  'method call through o?.m()': (n) =>
    n.type === 'OptionalCallExpression' &&
    !n.optional &&
    n.callee.type === 'OptionalMemberExpression' &&
    n.callee.optional,
  'chain a?.b.c?.d': (n, a) => {
    if (n.type !== 'OptionalMemberExpression' || !n.optional || a.at(-1)?.type === 'OptionalMemberExpression')
      return false;
    const links = chainLinks(n).slice(1);
    const plain = links.findIndex((l) => l.type === 'OptionalMemberExpression' && !l.optional);
    return (
      plain >= 0 && links.slice(plain + 1).some((l) => l.type === 'OptionalMemberExpression' && l.optional)
    );
  },
  'optional chain in a loop test': (n, a) => {
    if (!/^Optional/.test(n.type)) return false;
    return a.some((loop, i) => LOOPS.has(loop.type) && 'test' in loop && loop.test === (a[i + 1] ?? n));
  },
  'sequence expression': (n) => n.type === 'SequenceExpression',
  'branch in call argument': (n) => n.type === 'CallExpression' && n.arguments.some(isBranch),
  'branch in template literal': (n) => n.type === 'TemplateLiteral' && n.expressions.some(isBranch),
  'branch in object literal': (n) => n.type === 'ObjectProperty' && isBranch(n.value as t.Node),
  'branch in array literal': (n) => n.type === 'ArrayExpression' && n.elements.some(isBranch),
  for: (n) => n.type === 'ForStatement',
  'for without test': (n) => n.type === 'ForStatement' && n.test === null,
  while: (n) => n.type === 'WhileStatement',
  'do-while': (n) => n.type === 'DoWhileStatement',
  'for-in': (n) => n.type === 'ForInStatement',
  'for-of over an array': (n) =>
    n.type === 'ForOfStatement' && /ArrayExpression|Identifier/.test(n.right.type),
  'for-of over a generator': (n, _, gens) =>
    n.type === 'ForOfStatement' &&
    !n.await &&
    [n.right, n.right.type === 'ConditionalExpression' ? n.right.consequent : n.right].some(
      (r) => r.type === 'CallExpression' && r.callee.type === 'Identifier' && gens.has(r.callee.name),
    ),
  'loop with a single-statement body': (n) =>
    LOOPS.has(n.type) && (n as t.Loop).body.type !== 'BlockStatement',
  break: (n) => n.type === 'BreakStatement' && n.label === null,
  continue: (n) => n.type === 'ContinueStatement' && n.label === null,
  ...Object.fromEntries(
    (['BreakStatement', 'ContinueStatement'] as const).map((type) => [
      `labeled ${type === 'BreakStatement' ? 'break' : 'continue'} out of a nested loop`,
      ((n, a) => {
        if (n.type !== type || n.label === null) return false;
        const target = labelTarget(n, a);
        return target >= 0 && a.slice(target + 2).some((x) => LOOPS.has(x.type));
      }) as Feature,
    ]),
  ),
  'break out of a labeled block': (n, a) =>
    n.type === 'BreakStatement' &&
    n.label !== null &&
    a[labelTarget(n, a)]?.type === 'LabeledStatement' &&
    (a[labelTarget(n, a)] as t.LabeledStatement).body.type === 'BlockStatement',
  'switch fallthrough': (n) =>
    n.type === 'SwitchStatement' &&
    n.cases
      .slice(0, -1)
      .some((c) => c.consequent.length > 0 && !JUMPS.has(c.consequent[c.consequent.length - 1].type)),
  'default first': (n) => n.type === 'SwitchStatement' && n.cases.length > 1 && n.cases[0].test === null,
  'default in the middle': (n) =>
    n.type === 'SwitchStatement' && n.cases.slice(1, -1).some((c) => c.test === null),
  'default last': (n) =>
    n.type === 'SwitchStatement' && n.cases.length > 1 && n.cases[n.cases.length - 1].test === null,
  'empty case': (n) => n.type === 'SwitchCase' && n.consequent.length === 0,
  'break in a case': (n, a) =>
    n.type === 'BreakStatement' && n.label === null && a.at(-1)?.type === 'SwitchCase',
  'continue from inside a switch': (n, a) => {
    if (n.type !== 'ContinueStatement') return false;
    const loop = innermost(a, (x) => LOOPS.has(x.type));
    return loop !== undefined && a.slice(a.indexOf(loop)).some((x) => x.type === 'SwitchStatement');
  },
  'return with value': (n) => n.type === 'ReturnStatement' && n.argument !== null,
  'return without value': (n) => n.type === 'ReturnStatement' && n.argument === null,
  'return inside a loop': (n, a) =>
    n.type === 'ReturnStatement' && inFunction(a).some((x) => LOOPS.has(x.type)),
  'throw of an Error': (n) => n.type === 'ThrowStatement' && n.argument.type === 'NewExpression',
  'throw of a plain value': (n) => n.type === 'ThrowStatement' && n.argument.type !== 'NewExpression',
  'try/catch': (n) => n.type === 'TryStatement' && n.handler !== null && n.finalizer === null,
  'try/finally': (n) => n.type === 'TryStatement' && n.handler === null && n.finalizer !== null,
  'try/catch/finally': (n) => n.type === 'TryStatement' && n.handler !== null && n.finalizer !== null,
  'nested try': (n, a) => n.type === 'TryStatement' && inFunction(a).some((x) => x.type === 'TryStatement'),
  ...Object.fromEntries(
    [...JUMPS].flatMap((type) =>
      (['block', 'handler'] as const).map((part) => [
        `${type.replace('Statement', '').toLowerCase()} in a try ${part === 'block' ? 'block' : 'handler'} routed through finally`,
        ((n, a) => n.type === type && inTryPart(a, n, part, true)) as Feature,
      ]),
    ),
  ),
  'return inside finally': (n, a) => n.type === 'ReturnStatement' && inTryPart(a, n, 'finalizer', false),
  'catch without binding': (n) => n.type === 'CatchClause' && n.param === null,
  'catch with a name': (n) => n.type === 'CatchClause' && n.param?.type === 'Identifier',
  'catch with a pattern': (n) => n.type === 'CatchClause' && n.param?.type === 'ObjectPattern',
  'call of null in a try block': (n, a) =>
    n.type === 'CallExpression' &&
    n.callee.type === 'ConditionalExpression' &&
    n.callee.alternate.type === 'NullLiteral' &&
    inTryPart(a, n, 'block', false),
  'property of undefined in a try block': (n, a) =>
    n.type === 'MemberExpression' &&
    n.object.type === 'ConditionalExpression' &&
    n.object.alternate.type === 'Identifier' &&
    n.object.alternate.name === 'undefined' &&
    inTryPart(a, n, 'block', false),
  'yield inside try/finally': (n, a) => n.type === 'YieldExpression' && inTryPart(a, n, 'block', true),
  'yield*': (n) => n.type === 'YieldExpression' && n.delegate,
  'generator .return()': (n) =>
    n.type === 'CallExpression' &&
    n.callee.type === 'MemberExpression' &&
    n.callee.property.type === 'Identifier' &&
    n.callee.property.name === 'return',
  'generator .throw()': (n) =>
    n.type === 'CallExpression' &&
    n.callee.type === 'MemberExpression' &&
    n.callee.property.type === 'Identifier' &&
    n.callee.property.name === 'throw',
  'await inside try/catch': (n, a) => n.type === 'AwaitExpression' && inTryPart(a, n, 'block', false),
  'for await over an async generator': (n) => n.type === 'ForOfStatement' && n.await,
  'function declaration': (n) => n.type === 'FunctionDeclaration' && !n.generator && !n.async,
  'arrow function': (n) => n.type === 'ArrowFunctionExpression',
  'object method': (n) => n.type === 'ObjectMethod',
  'class method': (n) => n.type === 'ClassMethod' && n.kind === 'method',
  'generator function': (n) => n.type === 'FunctionDeclaration' && n.generator && !n.async,
  'async function': (n) =>
    (n.type === 'FunctionDeclaration' || n.type === 'ArrowFunctionExpression') && n.async && !n.generator,
  'async generator': (n) => n.type === 'FunctionDeclaration' && n.generator && n.async,
  'call between functions': (n, a) => {
    if (n.type !== 'CallExpression' || n.callee.type !== 'Identifier') return false;
    const fn = innermost(a, (x) => x.type === 'FunctionDeclaration');
    return fn?.type === 'FunctionDeclaration' && /^f\d/.test(n.callee.name) && fn.id?.name !== n.callee.name;
  },
  'recursive call': (n, a) => {
    if (n.type !== 'CallExpression' || n.callee.type !== 'Identifier') return false;
    const fn = innermost(a, (x) => x.type === 'FunctionDeclaration');
    return fn?.type === 'FunctionDeclaration' && fn.id?.name === n.callee.name;
  },
  'closure in a function': (n, a) =>
    n.type === 'ArrowFunctionExpression' && a.some((x) => FUNCTIONS.has(x.type)),
  'this in a method': (n, a) =>
    n.type === 'ThisExpression' &&
    innermost(a, (x) => FUNCTIONS.has(x.type) && x.type !== 'ArrowFunctionExpression')?.type.endsWith(
      'Method',
    ) === true,
  arguments: (n) => n.type === 'Identifier' && n.name === 'arguments',
  'default parameter': (n, a) => n.type === 'AssignmentPattern' && FUNCTIONS.has(a.at(-1)?.type ?? ''),
  'parenthesised optional chain called': (n) =>
    n.type === 'CallExpression' && n.callee.type === 'OptionalMemberExpression',
  'parenthesised optional chain as a tag': (n) =>
    n.type === 'TaggedTemplateExpression' && n.tag.type === 'OptionalMemberExpression',
  'tagged template': (n) => n.type === 'TaggedTemplateExpression' && n.tag.type === 'MemberExpression',
  'direct eval in sloppy code': (n, a) =>
    isDirectEval(n) && !(a[0] as t.File).program.directives.some((d) => d.value.value === 'use strict'),
  'direct eval in a parameter default': (n, a) =>
    isDirectEval(n) && a.some((x, i) => x.type === 'AssignmentPattern' && FUNCTIONS.has(a[i - 1]?.type)),
  'direct eval in a nested block': (n, a) =>
    isDirectEval(n) && inFunction(a).filter((x) => x.type === 'BlockStatement').length > 1,
  'destructuring with defaults': (n, a) =>
    n.type === 'AssignmentPattern' &&
    /Pattern$/.test(a.at(-1)?.type ?? '') &&
    a.at(-1)?.type !== 'AssignmentPattern',
};

/** Removes from `missing` the features that `program` has. */
function findFeatures(program: t.File, missing: Set<string>): void {
  const generators = new Set<string>();
  walk(program, (n) => {
    if (n.type === 'FunctionDeclaration' && n.generator && !n.async && n.id) generators.add(n.id.name);
  });
  walk(program, (n, a) => {
    for (const name of missing) if (FEATURES[name](n, a, generators)) missing.delete(name);
  });
}

describe('generateProgram', () => {
  test('programs are scripts that parse, terminate and end in a value or a caught error', () => {
    let values = 0;
    let runs = 0;
    for (const program of programs) {
      expect(() => parse(program.source, { sourceType: 'script' })).not.toThrow();
      for (const args of program.inputs) {
        const result = runPlain(program.source, args, { timeoutMs: 1000 });
        runs++;
        const text = 'value' in result ? String(result.value) : result.error;
        // A TypeError is meant only where a local catch takes it; references to undeclared names never.
        if ('error' in result)
          expect(result.error).not.toMatch(/^(Timeout|Pending|TypeError|ReferenceError|SyntaxError)/);
        expect(text).not.toMatch(/ReferenceError|SyntaxError/);
        if ('value' in result) values++;
      }
    }
    // Most runs get to return their log, so instrumented runs have a full log to be compared on.
    expect(values / runs).toBeGreaterThan(0.75);
  });

  test('the same seed gives the same program, which gives the same results', () => {
    programs.forEach((program, i) => {
      expect(generateProgram(new Random(BASE_SEED + i))).toEqual(program);
      if (i % 25 === 0) {
        for (const args of program.inputs)
          expect(runPlain(program.source, args)).toEqual(runPlain(program.source, args));
      }
    });
  });

  test('the programs together cover every construct', () => {
    const missing = new Set(Object.keys(FEATURES));
    for (const program of programs) {
      if (missing.size === 0) break;
      findFeatures(parse(program.source, { sourceType: 'script' }), missing);
    }
    expect([...missing]).toEqual([]);
  });

  test('options bias the constructs', () => {
    const count = (options: Parameters<typeof generateProgram>[1], pattern: RegExp) =>
      Array.from(
        { length: 20 },
        (_, i) => generateProgram(new Random(i), options).source.match(pattern)?.length ?? 0,
      ).reduce((a, b) => a + b);
    expect(count({ weights: { try: 5 } }, /\btry\b/g)).toBeGreaterThan(2 * count({}, /\btry\b/g));
    expect(count({ weights: { switch: 0 } }, /\bswitch\b/g)).toBe(0);
    expect(count({ allowAsync: false }, /\basync\b/g)).toBe(0);
    expect(count({ asyncRate: 1 }, /\basync function\* /g)).toBeGreaterThan(0);
  });
});

test('runPlain installs globals, awaits promises and describes errors', () => {
  const source = `module.exports = async (x) => { if (x) throw new RangeError('no'); await null; return probe.tag + 1; };`;
  expect(runPlain(source, [false], { globals: { probe: { tag: 41 } } })).toEqual({ value: 42 });
  expect(runPlain(source, [true])).toEqual({ error: 'RangeError: no' });
  expect(runPlain('module.exports = () => { throw { code: 1 }; };', [])).toEqual({
    error: 'thrown {"code":1}',
  });
  const spin = runPlain('module.exports = () => { for (;;); };', [], { timeoutMs: 50 });
  expect('error' in spin && spin.error.startsWith(TIMEOUT)).toBe(true);
});
