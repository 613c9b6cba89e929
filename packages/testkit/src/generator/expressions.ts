import { type Ctx, type Helper, type ParamKind, varsOf } from './context';

/**
 * Every compound expression comes back parenthesized, so operands compose without precedence analysis (and
 * `??` never meets `||` unparenthesized, which is a syntax error).
 */

type Option = readonly [() => string, number];

const LITERALS = ['0', '1', '2', '3', '-1', "'s'", "'t'", 'true', 'false', 'null', 'undefined'];

export function literal(ctx: Ctx): string {
  return ctx.p.rng.pick(LITERALS);
}

/** An expression without operators: a literal or a read of something in scope. */
export function atom(ctx: Ctx): string {
  const { p } = ctx;
  const { rng } = p;
  const options: Option[] = [[() => literal(ctx), 2]];
  const vals = varsOf(ctx, 'val');
  if (vals.length > 0) options.push([() => rng.pick(vals).name, 5]);
  const objs = varsOf(ctx, 'obj');
  if (objs.length > 0) options.push([() => `${rng.pick(objs).name}.${rng.pick(['n', 'k'])}`, 1]);
  const caught = varsOf(ctx, 'caught');
  if (caught.length > 0) {
    options.push([
      () => (rng.chance(0.5) ? `show(${rng.pick(caught).name})` : `${rng.pick(caught).name}?.code`),
      1,
    ]);
  }
  if (ctx.fn.thisAccess !== 'none') options.push([() => 'this.tag', 1.5]);
  const evaled = varsOf(ctx, 'evaled');
  if (evaled.length > 0) {
    const read = () => rng.pick(evaled).name;
    options.push([() => ((e) => `(typeof ${e} === 'undefined' ? 'none' : ${e})`)(read()), 2]);
  }
  if (ctx.fn.args) options.push([() => rng.pick(['arguments.length', `arguments[${rng.int(3)}]`]), 0.5]);
  return p.choose(options)();
}

/** A value expression of nesting at most `budget`. */
export function expr(ctx: Ctx, budget: number): string {
  if (budget <= 0) return atom(ctx);
  const b = budget - 1;
  const { p } = ctx;
  const { rng } = p;
  const options: Option[] = [
    [() => atom(ctx), 3],
    [() => arithmetic(ctx, b), p.weight('arithmetic', 1.5)],
    [() => `(${test(ctx, b)} ? ${expr(ctx, b)} : ${expr(ctx, b)})`, p.weight('conditional', 1.2)],
    [() => `(${expr(ctx, b)} ${rng.pick(['&&', '||', '??'])} ${expr(ctx, b)})`, p.weight('logical', 1.5)],
    [() => optionalChain(ctx, b), p.weight('optional', 1.2)],
    [() => `(${sideEffect(ctx, b)}, ${expr(ctx, b)})`, p.weight('sequence', 0.4)],
    [
      () =>
        `${rng.chance(0.3) ? 'String.raw' : ''}\`${rng.pick(['', 'v'])}\${${expr(ctx, b)}}:\${${expr(ctx, b)}}\``,
      p.weight('template', 0.5),
    ],
    [() => directEval(ctx), p.weight('eval', 0.15)],
    [() => aggregate(ctx, b), p.weight('aggregate', 0.5)],
  ];
  if (assignTargets(ctx).length > 0) {
    options.push([() => `(${logicalAssignment(ctx, b)})`, p.weight('logicalAssign', 0.5)]);
  }
  if (callable(ctx).length > 0) options.push([() => helperCall(ctx, b), p.weight('call', 0.8)]);
  options.push([() => `check(${expr(ctx, b)})`, p.weight('call', 0.3)]);
  const closures = varsOf(ctx, 'closure');
  if (closures.length > 0) {
    const call = () => `${rng.pick(closures).name}${rng.chance(0.3) ? '?.' : ''}(${expr(ctx, b)})`;
    options.push([call, p.weight('closure', 0.8)]);
  }
  if (ctx.fn.generator) options.push([() => `(yield ${expr(ctx, b)})`, p.weight('yield', 0.6)]);
  if (ctx.fn.async) options.push([() => `(await ${expr(ctx, b)})`, p.weight('await', 0.6)]);
  if (ctx.catchable) options.push([() => implicitError(ctx, b), p.weight('implicitError', 0.4)]);
  return p.choose(options)();
}

/**
 * A direct `eval`: of a value in scope (the code it runs must see the same scopes), or declaring a fresh
 * `var` and giving its value. Sloppy code declares that `var` where the `eval` runs: in a parameter list's
 * scope, a function's (also from a block), which the code after it reads under `typeof`.
 */
export function directEval(ctx: Ctx): string {
  const { p } = ctx;
  const vals = varsOf(ctx, 'val');
  if (vals.length > 0 && p.rng.chance(0.4)) return `eval(${JSON.stringify(p.rng.pick(vals).name)})`;
  const e = p.name('e');
  const code = `eval(${JSON.stringify(`var ${e} = ${literal(ctx)}; ${e}`)})`;
  ctx.vars.push({ name: e, kind: 'evaled', mutable: false });
  return code;
}

/** A condition: comparisons and logical combinations of them, sometimes with side effects. */
export function test(ctx: Ctx, budget: number): string {
  const { p } = ctx;
  const { rng } = p;
  if (budget <= 0) return rng.chance(0.5) ? comparison(ctx, 0) : atom(ctx);
  const b = budget - 1;
  return p.choose<() => string>([
    [() => comparison(ctx, b), 3],
    [() => `(${test(ctx, b)} ${rng.pick(['&&', '||'])} ${test(ctx, b)})`, p.weight('logical', 2)],
    [() => `(${expr(ctx, b)} ?? ${test(ctx, b)})`, p.weight('logical', 0.6)],
    [() => `!(${expr(ctx, b)})`, 0.6],
    [() => optionalChain(ctx, b), p.weight('optional', 0.8)],
    [() => `out(${expr(ctx, b)})`, p.weight('output', 0.3)],
    [() => expr(ctx, b), 1],
  ])();
}

function comparison(ctx: Ctx, budget: number): string {
  const op = ctx.p.rng.pick(['<', '>', '<=', '>=', '===', '!==', '==']);
  return `(${expr(ctx, budget)} ${op} ${expr(ctx, budget)})`;
}

function arithmetic(ctx: Ctx, budget: number): string {
  const { rng } = ctx.p;
  if (rng.chance(0.2)) return `(${rng.pick(['!', '-', 'typeof '])}(${expr(ctx, budget)}))`;
  return `(${expr(ctx, budget)} ${rng.pick(['+', '-', '*', '%'])} ${expr(ctx, budget)})`;
}

function aggregate(ctx: Ctx, budget: number): string {
  const parts = [expr(ctx, budget), expr(ctx, budget)];
  return ctx.p.rng.chance(0.5) ? `[${parts.join(', ')}]` : `({ p: ${parts[0]}, q: ${parts[1]} })`;
}

/**
 * An expression evaluated for its effect, as the first operand of a sequence. Stored values go through the
 * program's `keep`, which clips strings and replaces objects: a loop doubling a string would otherwise grow it
 * exponentially.
 */
export function sideEffect(ctx: Ctx, budget: number): string {
  const { rng } = ctx.p;
  const mutable = ctx.vars.filter((v) => v.kind === 'val' && v.mutable);
  if (mutable.length > 0 && rng.chance(0.4)) return `${rng.pick(mutable).name} = keep(${expr(ctx, budget)})`;
  if (assignTargets(ctx).length > 0 && rng.chance(0.3)) return logicalAssignment(ctx, budget);
  return `out(${expr(ctx, budget)})`;
}

/** What `&&=`, `||=` and `??=` may assign: `let` values, properties of local objects and of class instances. */
export function assignTargets(ctx: Ctx): string[] {
  const targets = ctx.vars.filter((v) => v.kind === 'val' && v.mutable).map((v) => v.name);
  for (const o of varsOf(ctx, 'obj'))
    targets.push(`${o.name}.k`, `${o.name}.n`, `${o.name}['k']`, `${o.name}.r.c`);
  if (ctx.fn.thisAccess === 'write') targets.push('this.tag');
  return targets;
}

export function logicalAssignment(ctx: Ctx, budget: number): string {
  const { rng } = ctx.p;
  const target = rng.pick(assignTargets(ctx));
  const op = rng.pick(['&&=', '||=', '??=']);
  // `r.c` holds `{ d }` or null: keeping that shape keeps the chains `optionalChain` builds on it safe.
  const value = target.endsWith('.r.c') ? `{ d: keep(${expr(ctx, budget)}) }` : `keep(${expr(ctx, budget)})`;
  return `${target} ${op} ${value}`;
}

/**
 * An optional chain whose every plain `.` reads a property of a value known to be an object at that point of
 * the chain: `?.` is placed wherever the value may be null or undefined, so the chain never throws.
 */
export function optionalChain(ctx: Ctx, budget: number): string {
  const { p } = ctx;
  const { rng } = p;
  const arg = () => expr(ctx, budget);
  const options: Option[] = [];
  for (const { name: o } of varsOf(ctx, 'obj')) {
    const forms = [
      () => `${o}?.n`,
      () => `${o}?.r.c?.d`,
      () => `${o}.r.c?.d`,
      () => `${o}.r?.c?.['d']`,
      () => `${o}.m?.()`,
      () => `${o}?.m()`,
      () => `${o}.f?.(${arg()})`,
      () => `${o}?.['k']`,
      // Parenthesised, the chain still calls with its last member's object as `this`.
      () => `(${o}?.m)()`,
      () => `(${o}?.['m'])()`,
      () => `(${o}?.m)\`t\${${arg()}}\``,
      () => `(${o}?.r.g)()`,
      () => `(${o}.r?.g)()`,
      () => `(${o}?.r?.['g'])\`\``,
    ];
    options.push([() => rng.pick(forms)(), 2]);
  }
  for (const { name: q } of varsOf(ctx, 'maybeObj')) {
    const forms = [
      () => `${q}?.n`,
      () => `${q}?.r.c?.d`,
      () => `${q}?.m()`,
      () => `${q}?.m?.()`,
      () => `${q}?.f?.(${arg()})`,
      () => `${q}?.['k']`,
      () => `(${q}?.m)?.()`,
      () => `(${q}?.r.g)?.()`,
    ];
    options.push([() => rng.pick(forms)(), 3]);
  }
  for (const { name: a } of varsOf(ctx, 'arr')) {
    options.push([() => rng.pick([`${a}?.[${rng.int(4)}]`, `${a}?.length`]), 1]);
  }
  const vals = varsOf(ctx, 'val');
  if (vals.length > 0) {
    options.push([() => `${rng.pick(vals).name}${rng.pick(['?.x', '?.[0]', '?.length'])}`, 1]);
  }
  if (ctx.fn.thisAccess !== 'none') options.push([() => 'this?.tag', 0.5]);
  options.push([() => `${literal(ctx)}?.x`, 0.2]);
  return `(${p.choose(options)()})`;
}

/**
 * An expression that throws a TypeError when its test fails: a property read of undefined or a call of null.
 * The engine words these messages after the source text, so they only go where a local `catch` takes them
 * and `show` prints the error's name alone.
 */
export function implicitError(ctx: Ctx, budget: number): string {
  const { rng } = ctx.p;
  const maybe = varsOf(ctx, 'maybeObj');
  // A parenthesised chain that short-circuits is called all the same: its arguments, then the TypeError.
  if (maybe.length > 0 && rng.chance(0.25)) return `(${rng.pick(maybe).name}?.m)(${expr(ctx, budget)})`;
  const cond = test(ctx, budget);
  if (rng.chance(0.5)) {
    const objs = varsOf(ctx, 'obj');
    const obj = objs.length > 0 ? rng.pick(objs).name : `{ n: ${expr(ctx, budget)} }`;
    return `(${cond} ? ${obj} : undefined).n`;
  }
  const closures = varsOf(ctx, 'closure');
  const x = ctx.p.name('x');
  const fn = closures.length > 0 ? rng.pick(closures).name : `(${x}) => ${x}`;
  return `(${cond} ? ${fn} : null)(${expr(ctx, budget)})`;
}

/** Helpers that can be called for a value here: async ones only where their promise can be awaited. */
export function callable(ctx: Ctx): Helper[] {
  return ctx.p.helpers.filter((h) => {
    if (h.kind === 'generator' || h.kind === 'asyncGenerator') return false;
    return h.kind !== 'async' || ctx.fn.async;
  });
}

/** Prefers the current function itself now and then, so bounded recursion is common. */
function pickHelper(ctx: Ctx, candidates: readonly Helper[]): Helper {
  const { self } = ctx.fn;
  if (self !== undefined && candidates.includes(self) && ctx.p.rng.chance(0.3)) return self;
  return ctx.p.rng.pick(candidates);
}

/**
 * A call of another helper with one less depth, guarded so the recursion stops at depth 0; the entry has no
 * depth parameter and passes its constant depth unguarded.
 */
export function helperCall(ctx: Ctx, budget: number): string {
  const h = pickHelper(ctx, callable(ctx));
  const call = h.kind === 'async' ? `await ${rawCall(ctx, h, budget)}` : rawCall(ctx, h, budget);
  const d = ctx.fn.depthParam;
  return d === undefined ? call : `(${d} > 0 ? ${call} : ${atom(ctx)})`;
}

/** An iterable over a generator helper's values, or a short array where depth has run out. */
export function generatorSource(
  ctx: Ctx,
  kinds: readonly Helper['kind'][],
  budget: number,
): string | undefined {
  const gens = ctx.p.helpers.filter((h) => kinds.includes(h.kind));
  if (gens.length === 0) return undefined;
  const call = rawCall(ctx, pickHelper(ctx, gens), budget);
  const d = ctx.fn.depthParam;
  return d === undefined ? call : `(${d} > 0 ? ${call} : [${expr(ctx, budget)}])`;
}

/** The call itself, with the receiver its kind needs: methods keep `this`, also when called through `?.`. */
export function rawCall(ctx: Ctx, h: Helper, budget: number): string {
  const { rng } = ctx.p;
  const d = ctx.fn.depthParam;
  const args = [d === undefined ? String(ctx.p.entryDepth) : `${d} - 1`];
  // Leaving out trailing optional arguments makes their defaults apply.
  let passed = h.params.length;
  while (passed > 0 && h.params[passed - 1] !== 'plain' && rng.chance(0.3)) passed--;
  for (const kind of h.params.slice(0, passed)) args.push(argument(ctx, kind, budget));
  const list = args.join(', ');
  switch (h.kind) {
    case 'method':
      return rng.pick([
        `${h.owner}.${h.name}(${list})`,
        `${h.owner}?.${h.name}(${list})`,
        `${h.owner}.${h.name}?.(${list})`,
      ]);
    case 'classMethod':
      return `new ${h.owner}(${rng.chance(0.3) ? '' : atom(ctx)}).${h.name}(${list})`;
    default:
      return `${h.name}(${list})`;
  }
}

function argument(ctx: Ctx, kind: ParamKind, budget: number): string {
  if (kind !== 'pattern') return expr(ctx, budget);
  // A destructuring parameter only ever receives an object or undefined: destructuring null would throw.
  return ctx.p.choose<() => string>([
    [() => `{ x: ${expr(ctx, budget)}, y: [${expr(ctx, budget)}] }`, 2],
    [() => `{ x: ${expr(ctx, budget)} }`, 1],
    [() => '{}', 0.5],
    [() => 'undefined', 0.5],
  ])();
}

/**
 * The literal of a local object, in the one shape the chains above rely on: `r` is always an object, `r.c`
 * and `f` may be missing, and `m` (and `r.g`) read `this`, so calling them through `?.` shows whether the
 * receiver survives.
 */
export function objectLiteral(ctx: Ctx, arrowCtx: (params: string[]) => Ctx): string {
  const x = ctx.p.name('x');
  return [
    '{',
    `  n: ${expr(ctx, 1)},`,
    `  k: ${expr(ctx, 1)},`,
    `  r: { c: ${test(ctx, 1)} ? { d: ${expr(ctx, 1)} } : null, g() { return this.c === null; } },`,
    `  f: ${test(ctx, 1)} ? (${x}) => ${expr(arrowCtx([x]), 1)} : undefined,`,
    '  m() {',
    '    return this.k ?? this.n;',
    '  },',
    // A computed key runs in the enclosing function, before the object exists (calls, awaits and yields in
    // it belong to that function, not to the method it names).
    `  ['q' + ${expr(ctx, 1)}]() {`,
    '    return this.n;',
    '  },',
    '}',
  ].join('\n');
}
