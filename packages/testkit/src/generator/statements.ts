import { type Ctx, type Helper, type Var, braces, indent, varsOf } from './context';
import {
  assignTargets,
  callable,
  directEval,
  expr,
  generatorSource,
  helperCall,
  implicitError,
  literal,
  logicalAssignment,
  objectLiteral,
  optionalChain,
  rawCall,
  sideEffect,
  test,
} from './expressions';

type Option = readonly [() => string, number];

export const val = (name: string, mutable = false): Var => ({ name, kind: 'val', mutable });

/**
 * `count` statements in a new block scope: declarations made here are visible to the statements after them and
 * nowhere else. Only the last statement may be an unconditional jump, so no statement is unreachable.
 */
export function statements(ctx: Ctx, count: number, lastMayJump = true): string[] {
  const inner: Ctx = { ...ctx, vars: [...ctx.vars] };
  const lines: string[] = [];
  for (let i = 0; i < count; i++) lines.push(statement(inner, false, lastMayJump && i === count - 1));
  return lines;
}

function blockSize(ctx: Ctx): number {
  return ctx.p.rng.chance(0.35) ? 2 : 1;
}

/** The body of an if or a loop: usually a block, sometimes one statement without braces. */
function body(ctx: Ctx): string {
  if (ctx.p.rng.chance(0.2)) return statement(ctx, true, true);
  return braces(statements(ctx, blockSize(ctx)));
}

/**
 * One statement. A `single` statement stands where a block could (an if's branch, a loop's body), so it may not
 * declare anything and is never an `if`, whose `else` would attach to the wrong `if`. Only a `last` statement
 * may jump unconditionally.
 */
function statement(ctx: Ctx, single: boolean, last: boolean): string {
  const { p, fn } = ctx;
  const inner: Ctx = { ...ctx, depth: ctx.depth - 1 };
  // Jumps out of a try block or handler that has a finally are the interesting paths through the finalizer.
  const jumpBoost = ctx.routed ? 3 : 1;
  const options: Option[] = [[() => output(ctx), p.weight('output', 3)]];
  if (assignTargets(ctx).length > 0) {
    options.push([() => `${logicalAssignment(ctx, 1)};`, p.weight('logicalAssign', 0.8)]);
  }
  if (!single) {
    options.push([() => declare(ctx), p.weight('declare', 1)]);
    options.push([() => destructure(ctx), p.weight('destructuring', 0.3)]);
    options.push([() => closure(ctx), p.weight('closure', 0.3)]);
    if (ctx.depth > 0) options.push([() => ifStatement(inner), p.weight('if', 2.5)]);
  }
  if (ctx.depth > 0) {
    options.push(
      [() => forStatement(inner), p.weight('for', 0.7)],
      [() => whileStatement(inner), p.weight('while', 0.6)],
      [() => doWhileStatement(inner), p.weight('doWhile', 0.4)],
      [() => forInStatement(inner), p.weight('forIn', 0.3)],
      [() => forOfStatement(inner), p.weight('forOf', 0.6)],
      [() => switchStatement(inner), p.weight('switch', 0.7)],
      [() => tryStatement(inner), p.weight('try', 1.2)],
      [() => labeledBlock(inner), p.weight('labeled', 0.25)],
    );
  }
  if (ctx.frames.some((f) => f.kind !== 'block' || f.label !== undefined)) {
    options.push([() => breakStatement(ctx, last), p.weight('break', jumpBoost)]);
  }
  if (ctx.frames.some((f) => f.kind === 'loop')) {
    // `continue` from inside a switch jumps past the switch to the enclosing loop.
    const inSwitch = ctx.frames[ctx.frames.length - 1].kind === 'switch' ? 2 : 1;
    options.push([() => continueStatement(ctx, last), p.weight('continue', 0.8 * jumpBoost * inSwitch)]);
  }
  if (fn.canReturn) options.push([() => returnStatement(ctx, last), p.weight('return', 0.5 * jumpBoost)]);
  options.push([() => throwStatement(ctx, last), p.weight('throw', 0.3 * jumpBoost)]);
  if (callable(ctx).length > 0) options.push([() => `out(${helperCall(ctx, 1)});`, p.weight('call', 0.8)]);
  const generators = p.helpers.filter((h) => h.kind === 'generator');
  if (generators.length > 0) {
    options.push([() => driveGenerator(ctx, p.rng.pick(generators)), p.weight('drive', 0.25)]);
  }
  if (fn.generator) options.push([() => yieldStatement(ctx), p.weight('yield', ctx.routed ? 3 : 1)]);
  if (fn.async) options.push([() => awaitStatement(ctx), p.weight('await', ctx.catchable ? 2 : 0.7)]);
  if (ctx.catchable) options.push([() => `out(${implicitError(ctx, 1)});`, p.weight('implicitError', 1)]);
  options.push([() => `${directEval(ctx)};`, p.weight('eval', 0.2)]);
  return p.choose(options)();
}

function output(ctx: Ctx): string {
  const { rng } = ctx.p;
  const mutable = ctx.vars.filter((v) => v.kind === 'val' && v.mutable);
  if (mutable.length > 0 && rng.chance(0.35)) {
    const v = rng.pick(mutable).name;
    return rng.pick([`${v} = keep(${expr(ctx, 2)});`, `${v} -= ${expr(ctx, 1)};`, `${v}++;`]);
  }
  const caught = varsOf(ctx, 'caught');
  if (caught.length > 0 && rng.chance(0.4)) return `out(${rng.pick(caught).name});`;
  return `out(${expr(ctx, 2)});`;
}

/** A declaration statement; the declared variable is in scope for the statements after it. */
function declare(ctx: Ctx): string {
  const { p } = ctx;
  const options: Array<readonly [() => [Var, string], number]> = [
    [() => declareValue(ctx), 4],
    [
      () => {
        const v = p.name('v');
        return [val(v), `const ${v} = ${expr(ctx, 2)};`];
      },
      1.5,
    ],
    [() => declareObject(ctx), 1.2],
    [
      () => {
        const a = p.name('a');
        return [
          { name: a, kind: 'arr', mutable: false },
          `const ${a} = [${expr(ctx, 1)}, ${expr(ctx, 1)}, ${expr(ctx, 1)}];`,
        ];
      },
      1,
    ],
  ];
  const objs = varsOf(ctx, 'obj');
  if (objs.length > 0) {
    const maybeObj = (): [Var, string] => {
      const q = p.name('q');
      return [
        { name: q, kind: 'maybeObj', mutable: false },
        `const ${q} = ${test(ctx, 1)} ? ${p.rng.pick(objs).name} : null;`,
      ];
    };
    options.push([maybeObj, 2]);
  }
  const [v, code] = p.choose(options)();
  ctx.vars.push(v);
  return code;
}

/**
 * A `let` value. Values are declared as computed, but every later assignment goes through the program's `keep`,
 * which clips strings and replaces objects: a loop doubling a string would otherwise grow it exponentially.
 */
export function declareValue(ctx: Ctx): [Var, string] {
  const v = ctx.p.name('v');
  return [val(v, true), `let ${v} = ${expr(ctx, 2)};`];
}

export function declareObject(ctx: Ctx): [Var, string] {
  const o = ctx.p.name('o');
  const code = `const ${o} = ${objectLiteral(ctx, (params) => closureCtx(ctx, params, true))};`;
  return [{ name: o, kind: 'obj', mutable: false }, code];
}

function destructure(ctx: Ctx): string {
  const { p } = ctx;
  const { rng } = p;
  const [v1, v2] = [p.name('v'), p.name('v')];
  // Each pattern with the source it destructures: the shapes match, so no default is needed to avoid a throw.
  const options: Array<readonly [() => [string, string], number]> = [
    [
      () => {
        const arrs = varsOf(ctx, 'arr');
        const source = arrs.length > 0 && rng.chance(0.6) ? rng.pick(arrs).name : `[${expr(ctx, 1)}]`;
        return [`[${v1} = ${expr(ctx, 1)}, ${v2} = ${v1}]`, source];
      },
      1,
    ],
    [
      // Holes, a rest element, and generators: destructuring stops them early, which runs their `finally`.
      () => {
        const source = generatorSource(ctx, ['generator'], 1) ?? `[${expr(ctx, 1)}, ${expr(ctx, 1)}]`;
        const pattern = rng.pick([
          `[${v1} = ${expr(ctx, 1)}, , ${v2} = ${expr(ctx, 1)}]`,
          `[, ${v1} = ${expr(ctx, 1)}, ...${v2}]`,
          `[${v1}, ${v2} = ${expr(ctx, 1)}]`,
          `[{ x: ${v1} = ${expr(ctx, 1)} } = {}, ${v2} = ${expr(ctx, 1)}]`,
        ]);
        return [pattern, source];
      },
      1,
    ],
    [
      () => [
        `{ x: ${v1} = ${literal(ctx)}, y: [${v2} = ${expr(ctx, 1)}] = [] }`,
        `${test(ctx, 1)} ? { x: ${expr(ctx, 1)}, y: [${expr(ctx, 1)}] } : {}`,
      ],
      1,
    ],
  ];
  const objs = varsOf(ctx, 'obj');
  if (objs.length > 0) {
    options.push([
      () => [`{ n: ${v1} = ${expr(ctx, 1)}, k: ${v2} = ${expr(ctx, 1)} }`, rng.pick(objs).name],
      1,
    ]);
  }
  const [pattern, source] = p.choose(options)();
  const mutable = rng.chance(0.5);
  ctx.vars.push(val(v1, mutable), val(v2, mutable));
  return `${mutable ? 'let' : 'const'} ${pattern} = ${source};`;
}

/**
 * The context of a closure's body: no enclosing loops or handlers, one level of nesting. An arrow sees its
 * function's `this` and `arguments`; a function expression has its own (and is never called as a method).
 */
export function closureCtx(ctx: Ctx, params: readonly string[], arrow: boolean): Ctx {
  return {
    p: ctx.p,
    fn: {
      self: undefined,
      generator: false,
      async: false,
      thisAccess: arrow && ctx.fn.thisAccess !== 'none' ? 'read' : 'none',
      args: arrow ? ctx.fn.args : true,
      depthParam: ctx.fn.depthParam,
      canReturn: true,
    },
    vars: [...ctx.vars, ...params.map((name) => val(name))],
    frames: [],
    depth: Math.min(ctx.depth, 1),
    catchable: false,
    routed: false,
  };
}

function closure(ctx: Ctx): string {
  const { p } = ctx;
  const [c, x, y] = [p.name('c'), p.name('x'), p.name('y')];
  const blockBody = (inner: Ctx) =>
    braces([...statements(inner, blockSize(inner), false), `return ${expr(inner, 1)};`]);
  const code = p.choose<() => string>([
    [() => `const ${c} = (${x}) => ${expr(closureCtx(ctx, [x], true), 2)};`, 1],
    [
      () => {
        const fallback = expr(closureCtx(ctx, [x], true), 1);
        return `const ${c} = (${x}, ${y} = ${fallback}) => ${blockBody(closureCtx(ctx, [x, y], true))};`;
      },
      1,
    ],
    [() => `const ${c} = function (${x}) ${blockBody(closureCtx(ctx, [x], false))};`, 1],
  ])();
  ctx.vars.push({ name: c, kind: 'closure', mutable: false });
  // Called right away half the time, so closures that end a block are not all dead.
  return p.rng.chance(0.5) ? `${code}\nout(${c}(${expr(ctx, 1)}));` : code;
}

function ifStatement(ctx: Ctx): string {
  const { rng } = ctx.p;
  let code = `if (${test(ctx, 2)}) ${body(ctx)}`;
  const elseIfs = rng.chance(0.35) ? rng.range(1, 2) : 0;
  for (let i = 0; i < elseIfs; i++) code += ` else if (${test(ctx, 2)}) ${body(ctx)}`;
  if (rng.chance(0.5)) code += ` else ${body(ctx)}`;
  return code;
}

function loopLabel(ctx: Ctx): string | undefined {
  return ctx.p.chance('labeled', 0.35) ? ctx.p.name('L') : undefined;
}

function loopCtx(ctx: Ctx, label: string | undefined, vars: readonly Var[]): Ctx {
  return { ...ctx, vars: [...ctx.vars, ...vars], frames: [...ctx.frames, { kind: 'loop', label }] };
}

const labeled = (label: string | undefined, code: string) =>
  label === undefined ? code : `${label}: ${code}`;

/** Every loop runs at most a few times: its counter is not assignable, and `continue` still counts. */
function forStatement(ctx: Ctx): string {
  const { p } = ctx;
  const { rng } = p;
  const [i, n, label] = [p.name('i'), rng.range(1, 4), loopLabel(ctx)];
  const inner = loopCtx(ctx, label, [val(i)]);
  if (rng.chance(0.15)) {
    const lines = [`if (${i} >= ${n}) break;`, ...statements(inner, blockSize(inner))];
    return labeled(label, `for (let ${i} = 0; ; ${i}++) ${braces(lines)}`);
  }
  const cond = rng.chance(0.35) ? `${i} < ${n} && ${test(inner, 1)}` : `${i} < ${n}`;
  const update = rng.chance(0.2) ? `${i}++, ${sideEffect(inner, 1)}` : `${i}++`;
  return labeled(label, `for (let ${i} = 0; ${cond}; ${update}) ${body(inner)}`);
}

function whileStatement(ctx: Ctx): string {
  const { p } = ctx;
  const { rng } = p;
  const [w, n, label] = [p.name('w'), rng.range(1, 4), loopLabel(ctx)];
  const inner = loopCtx(ctx, label, [val(w)]);
  if (rng.chance(0.15)) {
    const lines = [`if (${w}++ >= ${n}) break;`, ...statements(inner, blockSize(inner))];
    return braces([`let ${w} = 0;`, labeled(label, `while (true) ${braces(lines)}`)]);
  }
  const count = `${w}++ < ${n}`;
  let cond = count;
  if (rng.chance(0.5)) {
    const extra = rng.chance(0.4) ? optionalChain(inner, 1) : test(inner, 1);
    cond = rng.chance(0.5) ? `${count} && ${extra}` : `${extra} && ${count}`;
  }
  return braces([`let ${w} = 0;`, labeled(label, `while (${cond}) ${body(inner)}`)]);
}

function doWhileStatement(ctx: Ctx): string {
  const { p } = ctx;
  const { rng } = p;
  const [c, n, label] = [p.name('c'), rng.range(1, 4), loopLabel(ctx)];
  const inner = loopCtx(ctx, label, [val(c)]);
  const cond = rng.chance(0.4) ? `++${c} < ${n} && ${test(inner, 1)}` : `++${c} < ${n}`;
  return braces([`let ${c} = 0;`, labeled(label, `do ${body(inner)} while (${cond});`)]);
}

/** The head of a for-in/for-of: a new binding, or an existing `let` value the loop assigns to. */
function loopHead(ctx: Ctx, name: string): [string, Var[]] {
  const { rng } = ctx.p;
  const mutable = ctx.vars.filter((v) => v.kind === 'val' && v.mutable);
  if (mutable.length > 0 && rng.chance(0.2)) return [rng.pick(mutable).name, []];
  return rng.chance(0.7) ? [`const ${name}`, [val(name)]] : [`let ${name}`, [val(name, true)]];
}

/** Iterates over a fresh object or an array nobody writes to: properties added during for-in are unspecified. */
function forInStatement(ctx: Ctx): string {
  const { p } = ctx;
  const { rng } = p;
  const label = loopLabel(ctx);
  const options: Option[] = [[() => `{ b: ${expr(ctx, 1)}, 2: ${expr(ctx, 1)}, a: ${expr(ctx, 1)} }`, 2]];
  const vals = varsOf(ctx, 'val');
  if (vals.length > 0) options.push([() => `{ ...${rng.pick(vals).name} }`, 2]);
  const arrs = varsOf(ctx, 'arr');
  if (arrs.length > 0) options.push([() => rng.pick(arrs).name, 1]);
  const objs = varsOf(ctx, 'obj');
  if (objs.length > 0) options.push([() => `{ ...${rng.pick(objs).name} }`, 1]);
  const source = p.choose(options)();
  const [head, vars] = loopHead(ctx, p.name('k'));
  return labeled(label, `for (${head} in ${source}) ${body(loopCtx(ctx, label, vars))}`);
}

function forOfStatement(ctx: Ctx): string {
  const { p } = ctx;
  const { rng } = p;
  const label = loopLabel(ctx);
  const isAwait = ctx.fn.async && rng.chance(0.4);
  if (rng.chance(0.15)) {
    // Destructuring with defaults in the head, over elements of the matching shape.
    const [x, y] = [p.name('x'), p.name('y')];
    const source = `[[${expr(ctx, 1)}], [${expr(ctx, 1)}, ${expr(ctx, 1)}], []]`;
    const inner = loopCtx(ctx, label, [val(x), val(y)]);
    return labeled(label, `for (const [${x} = ${expr(ctx, 1)}, ${y}] of ${source}) ${body(inner)}`);
  }
  const options: Option[] = [[() => `[${expr(ctx, 1)}, ${expr(ctx, 1)}, ${expr(ctx, 1)}]`, 2]];
  const arrs = varsOf(ctx, 'arr');
  if (arrs.length > 0) options.push([() => rng.pick(arrs).name, 1]);
  const vals = varsOf(ctx, 'val');
  if (vals.length > 0) {
    const v = rng.pick(vals).name;
    options.push([() => `(Array.isArray(${v}) ? ${v} : [${v}])`, 1.5]);
  }
  options.push([() => "'ab'", 0.3]);
  // An iterable whose closing can throw: the `return()` a jump out of the loop calls runs its `finally`. A
  // generator method of its own, so its values are literals (the context's `await`s and names are not its).
  options.push([
    () =>
      `{ *[Symbol.iterator]() { try { yield ${rng.int(4)}; yield 's${rng.int(4)}'; } finally { ` +
      `if (${rng.chance(0.7)}) throw new RangeError('closed'); } } }`,
    0.8,
  ]);
  const gens = generatorSource(ctx, isAwait ? ['generator', 'asyncGenerator'] : ['generator'], 1);
  if (gens !== undefined) options.push([() => gens, isAwait ? 4 : 2]);
  if (isAwait) options.push([() => `[${expr(ctx, 1)}, Promise.resolve(${expr(ctx, 1)})]`, 1]);
  const source = p.choose(options)();
  const [head, vars] = loopHead(ctx, p.name('x'));
  const keyword = isAwait ? 'for await' : 'for';
  return labeled(label, `${keyword} (${head} of ${source}) ${body(loopCtx(ctx, label, vars))}`);
}

function caseTest(ctx: Ctx): string {
  const { rng } = ctx.p;
  return rng.chance(0.15) ? expr(ctx, 1) : rng.pick(['0', '1', '2', '3', "'s'", 'true', 'null']);
}

/** Clauses end in `break`, fall through, are empty, or end in whatever jump the generator picks. */
function switchStatement(ctx: Ctx): string {
  const { p } = ctx;
  const { rng } = p;
  const n = rng.range(2, 5);
  const defaultAt = rng.chance(0.8) ? rng.int(n) : -1;
  const label = p.chance('labeled', 0.1) ? p.name('S') : undefined;
  const inner: Ctx = { ...ctx, frames: [...ctx.frames, { kind: 'switch', label }] };
  const vals = varsOf(ctx, 'val');
  const discriminant =
    vals.length > 0 && rng.chance(0.5) ? `${rng.pick(vals).name} % ${rng.range(2, 4)}` : expr(ctx, 1);
  const clauses: string[] = [];
  for (let j = 0; j < n; j++) {
    const head = j === defaultAt ? 'default:' : `case ${caseTest(ctx)}:`;
    const shape = p.choose([
      ['empty', 1],
      ['break', 2],
      ['fallthrough', 1.2],
      ['open', 1],
    ] as const);
    let lines = shape === 'empty' ? [] : statements(inner, rng.range(1, 2), shape === 'open');
    if (shape === 'break') lines.push('break;');
    if (lines.length > 0 && rng.chance(0.2)) lines = [braces(lines)];
    clauses.push([head, ...lines.map(indent)].join('\n'));
  }
  return labeled(label, `switch (${discriminant}) ${braces(clauses)}`);
}

/**
 * Catch bindings: none, a name (only ever shown through `show`), or a pattern that reads `name` and `code` —
 * never `message`, whose wording the engine derives from the source text for built-in errors.
 */
function tryStatement(ctx: Ctx): string {
  const { p } = ctx;
  const form = p.choose([
    ['catch', 1],
    ['finally', 1],
    ['both', 1.2],
  ] as const);
  const hasCatch = form !== 'finally';
  const hasFinally = form !== 'catch';
  const routed = ctx.routed || hasFinally;
  const block = statements({ ...ctx, catchable: ctx.catchable || hasCatch, routed }, blockSize(ctx) + 1);
  let code = `try ${braces(block)}`;
  if (hasCatch) {
    const handler: Ctx = { ...ctx, routed, vars: [...ctx.vars] };
    const first: string[] = [];
    let param = '';
    const binding = p.choose([
      ['none', 1],
      ['name', 2],
      ['pattern', 1],
    ] as const);
    if (binding === 'name') {
      const e = p.name('e');
      param = ` (${e})`;
      handler.vars.push({ name: e, kind: 'caught', mutable: false });
      first.push(`out(${e});`);
    } else if (binding === 'pattern') {
      const [name, codeVar] = [p.name('n'), p.name('c')];
      param = ` ({ name: ${name}, code: ${codeVar} = ${literal(ctx)} })`;
      handler.vars.push(val(name), val(codeVar));
      first.push(`out(${name});`);
    }
    code += ` catch${param} ${braces([...first, ...statements(handler, blockSize(ctx))])}`;
  }
  if (hasFinally) {
    // A return in a finalizer overrides whatever completion the try or catch had.
    const overrides = ctx.fn.canReturn && p.chance('return', 0.3);
    const lines = statements(ctx, blockSize(ctx), !overrides);
    if (overrides) lines.push(`if (${test(ctx, 1)}) return ${expr(ctx, 1)};`);
    code += ` finally ${braces(lines)}`;
  }
  return code;
}

function labeledBlock(ctx: Ctx): string {
  const { p } = ctx;
  const label = p.name('B');
  const lines = statements(
    { ...ctx, frames: [...ctx.frames, { kind: 'block', label }] },
    blockSize(ctx),
    false,
  );
  lines.splice(p.rng.int(lines.length + 1), 0, `if (${test(ctx, 1)}) break ${label};`);
  return `${label}: ${braces(lines)}`;
}

/** A jump, guarded by a condition unless it ends its block. */
function jump(ctx: Ctx, code: string, last: boolean): string {
  return last && ctx.p.rng.chance(0.4) ? code : `if (${test(ctx, 1)}) ${code}`;
}

/**
 * Half the time a labeled target when there is one, mostly not the innermost labeled statement (`labels` go
 * outermost first), so jumps out of nested loops and blocks are common.
 */
function jumpTarget(ctx: Ctx, unlabeled: boolean, labels: readonly string[]): string {
  const { rng } = ctx.p;
  if (labels.length === 0 || (unlabeled && rng.chance(0.5))) return '';
  const outer = labels.slice(0, -1);
  return ` ${rng.pick(outer.length > 0 && rng.chance(0.7) ? outer : labels)}`;
}

function breakStatement(ctx: Ctx, last: boolean): string {
  const unlabeled = ctx.frames.some((f) => f.kind !== 'block');
  const labels = ctx.frames.flatMap((f) => (f.label === undefined ? [] : [f.label]));
  return jump(ctx, `break${jumpTarget(ctx, unlabeled, labels)};`, last);
}

function continueStatement(ctx: Ctx, last: boolean): string {
  const loops = ctx.frames.filter((f) => f.kind === 'loop');
  const labels = loops.flatMap((f) => (f.label === undefined ? [] : [f.label]));
  return jump(ctx, `continue${jumpTarget(ctx, true, labels)};`, last);
}

function returnStatement(ctx: Ctx, last: boolean): string {
  return jump(ctx, ctx.p.rng.chance(0.25) ? 'return;' : `return ${expr(ctx, 2)};`, last);
}

function throwStatement(ctx: Ctx, last: boolean): string {
  const { p } = ctx;
  const n = p.rng.int(10);
  // Never null or undefined: catch clauses destructure what they catch.
  const value = p.choose<() => string>([
    [() => `new Error('e${n}')`, 2],
    [() => `new RangeError('r${n}')`, 1],
    [() => String(n), 1],
    [() => `'s${n}'`, 0.5],
    [() => `{ code: ${expr(ctx, 1)} }`, 1],
  ])();
  return jump(ctx, `throw ${value};`, last);
}

/**
 * Steps a generator by hand, sometimes calling `.throw()` or `.return()` on it while it is suspended, and shows
 * every step: the values, the completion, or the error that escaped it.
 */
export function driveGenerator(ctx: Ctx, h: Helper): string {
  const { p } = ctx;
  const { rng } = p;
  const [it, st, k, e] = [p.name('it'), p.name('st'), p.name('k'), p.name('e')];
  const at = rng.int(3);
  const step = p.choose([
    [`${k} === ${at} ? ${it}.throw(new Error('injected')) : ${it}.next(${k})`, 1],
    [`${k} === ${at} ? ${it}.return(${expr(ctx, 1)}) : ${it}.next(${k})`, 1],
    [`${it}.next(${k})`, 0.5],
  ] as const);
  const lines = [
    `const ${it} = ${rawCall(ctx, h, 1)};`,
    `let ${st} = ${it}.next();`,
    `for (let ${k} = 0; !${st}.done && ${k} < 6; ${k}++) {`,
    `  out(${st}.value);`,
    `  ${st} = ${step};`,
    '}',
    `out(${st}.value);`,
  ];
  const code = `try ${braces(lines)} catch (${e}) ${braces([`out(${e});`])}`;
  const d = ctx.fn.depthParam;
  return d === undefined ? code : `if (${d} > 0) ${braces([code])}`;
}

function yieldStatement(ctx: Ctx): string {
  const { p } = ctx;
  const { rng } = p;
  const options: Option[] = [
    [() => `yield ${expr(ctx, 1)};`, 2],
    [() => `out(yield ${expr(ctx, 1)});`, 1],
    [() => `yield* [${expr(ctx, 1)}, ${expr(ctx, 1)}];`, 0.6],
  ];
  const mutable = ctx.vars.filter((v) => v.kind === 'val' && v.mutable);
  if (mutable.length > 0) options.push([() => `${rng.pick(mutable).name} = keep(yield ${expr(ctx, 1)});`, 1]);
  const source = generatorSource(ctx, ctx.fn.async ? ['generator', 'asyncGenerator'] : ['generator'], 1);
  if (source !== undefined)
    options.push([() => rng.pick([`yield* ${source};`, `out(yield* ${source});`]), 1]);
  return p.choose(options)();
}

function awaitStatement(ctx: Ctx): string {
  const { p } = ctx;
  const { rng } = p;
  const options: Option[] = [
    [() => `out(await ${expr(ctx, 1)});`, 2],
    [() => `if (${test(ctx, 1)}) await Promise.reject(new Error('rejected'));`, 1],
    [() => 'await null;', 0.3],
  ];
  const mutable = ctx.vars.filter((v) => v.kind === 'val' && v.mutable);
  if (mutable.length > 0) options.push([() => `${rng.pick(mutable).name} = keep(await ${expr(ctx, 1)});`, 1]);
  return p.choose(options)();
}
