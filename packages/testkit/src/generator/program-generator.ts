import type { Random } from '../random';
import {
  type Construct,
  type Ctx,
  type FnInfo,
  type Helper,
  type HelperKind,
  type ParamKind,
  ProgramState,
  braces,
} from './context';
import { directEval, expr, literal, rawCall } from './expressions';
import { declareObject, declareValue, driveGenerator, statements, val } from './statements';

export interface ProgramOptions {
  /** How deeply compound statements nest in a function body (default 3). */
  maxDepth?: number;
  /** How many statements the top level of each function body has (default 3). */
  size?: number;
  /** How many functions besides the entry, generators and async functions (default 2 to 5). */
  helpers?: number;
  /** Whether a program may be async, with an async entry whose promise the caller awaits (default true). */
  allowAsync?: boolean;
  /** How often a program is async where allowed (default 0.2). */
  asyncRate?: number;
  /** How often a program has a generator function (default 0.7). */
  generatorRate?: number;
  /**
   * Multipliers of how often each construct is generated: `{ try: 4 }` makes try statements four times as
   * likely, `{ switch: 0 }` leaves switches out.
   */
  weights?: Partial<Record<Construct, number>>;
}

export interface GeneratedProgram {
  /** A CommonJS script that assigns the entry function to `module.exports`. */
  source: string;
  /** The entry's signature, e.g. `async function main(p1, p2 = 1)`. */
  entry: string;
  /** Argument lists to call the entry with. */
  inputs: unknown[][];
}

/**
 * How many helper activations one call of the entry may make. Depth parameters already bound every call chain;
 * this bounds the fan-out, which loops around calls would otherwise multiply at every level.
 */
const FUEL = 200;

/**
 * Runtime support every program defines. `show` prints only the name of a TypeError: the engine words its
 * message after the source text (`o.f is not a function`), which instrumentation changes. `keep` clips every
 * value a statement stores, so a loop that doubles a string or nests an array cannot grow it exponentially.
 * `tick` starts every helper and spends the fuel. `check` throws on some numbers: a leaf that throws, which
 * interprocedural paths cross (the exception leaves the callee and lands in a caller's handler).
 */
const PRELUDE = `let log = [];
let fuel = 0;
function show(v) {
  if (v instanceof Error) return v instanceof TypeError ? v.name : v.name + ':' + v.message;
  if (typeof v === 'function') return 'fn';
  return typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v);
}
function out(v) {
  log.push(show(v));
  return v;
}
function keep(v) {
  if (typeof v === 'string') return v.slice(0, 8);
  return typeof v === 'object' && v !== null ? 'obj' : v;
}
function tick() {
  if (--fuel < 0) throw new RangeError('out of fuel');
}
function check(v) {
  if (typeof v === 'number' && v % 3 === 1) throw new RangeError('check ' + v);
  return v;
}`;

/**
 * A random program that terminates quickly and behaves the same on every run: its loops are bounded by
 * counters, its recursion by a depth parameter, its fan-out by fuel, and it reads nothing but its arguments.
 * The entry returns (or resolves to) the log of everything the program showed, in order.
 */
export function generateProgram(rng: Random, options: ProgramOptions = {}): GeneratedProgram {
  const p = new ProgramState(rng, {
    maxDepth: options.maxDepth ?? 3,
    size: options.size ?? 3,
    weights: options.weights ?? {},
  });
  const isAsync = (options.allowAsync ?? true) && rng.chance(options.asyncRate ?? 0.2);
  p.helpers.push(...planHelpers(p, options, isAsync));
  const parts: string[] = [];
  // Strict mode changes what `this` and `arguments` are, which an instrumenter has to leave as it was.
  if (rng.chance(0.25)) parts.push("'use strict';");
  parts.push(PRELUDE, ...p.helpers.map((h) => helperSource(p, h)));
  const entry = entrySource(p, isAsync);
  parts.push(entry.source);
  const inputs = Array.from({ length: rng.range(3, 5) }, () => {
    const length = entry.arity > 1 && rng.chance(0.2) ? entry.arity - 1 : entry.arity;
    return Array.from({ length }, () => inputValue(rng));
  });
  return { source: `${parts.join('\n\n')}\n`, entry: entry.description, inputs };
}

const NAME_PREFIX: Record<HelperKind, string> = {
  function: 'f',
  arrow: 'f',
  method: 'm',
  classMethod: 'm',
  generator: 'gen',
  async: 'af',
  asyncGenerator: 'ag',
};

function planHelpers(p: ProgramState, options: ProgramOptions, isAsync: boolean): Helper[] {
  const { rng } = p;
  const kinds: HelperKind[] = [];
  const count = options.helpers ?? rng.range(2, 5);
  for (let i = 0; i < count; i++)
    kinds.push(rng.pick(['function', 'function', 'arrow', 'method', 'classMethod']));
  if (rng.chance(options.generatorRate ?? 0.7)) kinds.push('generator');
  if (isAsync) kinds.push('async', ...(rng.chance(0.6) ? (['asyncGenerator'] as const) : []));
  return kinds.map((kind) => {
    const params = Array.from({ length: rng.range(1, 3) }, () =>
      p.choose<ParamKind>([
        ['plain', 5],
        ['default', 3],
        ['pattern', 2],
      ]),
    );
    const owner = kind === 'method' ? p.name('obj') : kind === 'classMethod' ? p.name('K') : '';
    return { kind, name: p.name(NAME_PREFIX[kind]), owner, params };
  });
}

/**
 * Declares the parameters after `d` and puts what they bind in scope. Defaults see only earlier parameters and
 * never yield or await, which parameter lists do not allow.
 */
function declareParams(ctx: Ctx, kinds: readonly ParamKind[]): string[] {
  const { p } = ctx;
  return kinds.map((kind) => {
    const a = p.name('a');
    let code = a;
    // A direct `eval` here declares its `var`s in the parameters' scope, seen by later defaults and the body.
    if (kind === 'default') {
      const value = p.chance('eval', 0.1)
        ? directEval(ctx)
        : expr({ ...ctx, fn: { ...ctx.fn, generator: false, async: false } }, 1);
      code = `${a} = ${value}`;
    } else if (kind === 'pattern') {
      const b = p.name('a');
      const first = p.chance('eval', 0.05) ? directEval(ctx) : literal(ctx);
      code = `{ x: ${a} = ${first}, y: [${b} = ${a}] = [] } = {}`;
      ctx.vars.push(val(b));
    }
    ctx.vars.push(val(a));
    return code;
  });
}

/** A few `let` values and usually an object, so the statements have something to work on. */
function prologue(ctx: Ctx): string[] {
  const lines: string[] = [];
  const decls = [declareValue, declareValue, ...(ctx.p.rng.chance(0.6) ? [declareObject] : [])];
  for (const declare of decls) {
    const [v, code] = declare(ctx);
    lines.push(code);
    ctx.vars.push(v);
  }
  return lines;
}

function helperSource(p: ProgramState, h: Helper): string {
  const { rng } = p;
  const arrowForm = h.kind === 'arrow' || (h.kind === 'async' && rng.chance(0.3));
  const fn: FnInfo = {
    self: h,
    generator: h.kind === 'generator' || h.kind === 'asyncGenerator',
    async: h.kind === 'async' || h.kind === 'asyncGenerator',
    thisAccess: h.kind === 'classMethod' ? 'write' : h.kind === 'method' ? 'read' : 'none',
    args: !arrowForm,
    depthParam: 'd',
    canReturn: true,
  };
  const ctx: Ctx = {
    p,
    fn,
    vars: [val('d')],
    frames: [],
    depth: p.options.maxDepth,
    catchable: false,
    routed: false,
  };
  const params = ['d', ...declareParams(ctx, h.params)].join(', ');
  if (h.kind === 'arrow' && rng.chance(0.25)) return `const ${h.name} = (${params}) => ${expr(ctx, 3)};`;
  const lines = ['tick();', ...prologue(ctx)];
  // Every generator yields and every async function awaits at least once.
  if (fn.generator) lines.push(`yield ${expr(ctx, 1)};`);
  if (fn.async) lines.push(`out(await ${expr(ctx, 1)});`);
  const returns = rng.chance(0.85);
  lines.push(...statements(ctx, p.options.size, !returns));
  if (returns) lines.push(`return ${expr(ctx, 2)};`);
  const body = braces(lines);
  switch (h.kind) {
    case 'function':
      return `function ${h.name}(${params}) ${body}`;
    case 'arrow':
      return `const ${h.name} = (${params}) => ${body};`;
    case 'method':
      return `const ${h.owner} = ${braces([`tag: ${literal(ctx)},`, `${h.name}(${params}) ${body},`])};`;
    case 'classMethod': {
      const constructor = `constructor(t = ${literal(ctx)}) ${braces(['this.tag = t;'])}`;
      return `class ${h.owner} ${braces([constructor, '', `${h.name}(${params}) ${body}`])}`;
    }
    case 'generator':
      return `function* ${h.name}(${params}) ${body}`;
    case 'async':
      return arrowForm
        ? `const ${h.name} = async (${params}) => ${body};`
        : `async function ${h.name}(${params}) ${body}`;
    case 'asyncGenerator':
      return `async function* ${h.name}(${params}) ${body}`;
  }
}

/**
 * The entry resets the program's state, runs random statements among calls that reach every helper at least
 * once (each in its own try, so one failing helper does not hide the others), and returns the log.
 */
function entrySource(
  p: ProgramState,
  isAsync: boolean,
): { source: string; description: string; arity: number } {
  const { rng } = p;
  const arity = rng.range(1, 3);
  const fn: FnInfo = {
    self: undefined,
    generator: false,
    async: isAsync,
    thisAccess: 'none',
    args: true,
    depthParam: undefined,
    canReturn: false,
  };
  const ctx: Ctx = {
    p,
    fn,
    vars: [],
    frames: [],
    depth: p.options.maxDepth,
    catchable: false,
    routed: false,
  };
  const params = Array.from({ length: arity }, (_, i) => {
    const name = `p${i + 1}`;
    ctx.vars.push(val(name));
    return i > 0 && rng.chance(0.3) ? `${name} = ${literal(ctx)}` : name;
  });
  const lines = ['log = [];', `fuel = ${FUEL};`, ...prologue(ctx)];
  const body = statements(ctx, p.options.size, false);
  for (const h of p.helpers) body.splice(rng.int(body.length + 1), 0, reach(ctx, h));
  // Mostly, an exception escaping the statements still leaves the log to compare; sometimes it escapes the entry.
  if (rng.chance(0.75)) {
    const e = p.name('e');
    lines.push(`try ${braces(body)} catch (${e}) ${braces([`out(${e});`])}`);
  } else {
    lines.push(...body);
  }
  lines.push("return log.join(' ');");
  const description = `${isAsync ? 'async ' : ''}function main(${params.join(', ')})`;
  return { source: `module.exports = ${description} ${braces(lines)};`, description, arity };
}

function reach(ctx: Ctx, h: Helper): string {
  const { p } = ctx;
  const e = p.name('e');
  const guarded = (lines: string[]) => `try ${braces(lines)} catch (${e}) ${braces([`out(${e});`])}`;
  const x = p.name('x');
  switch (h.kind) {
    case 'generator':
      return p.choose<() => string>([
        [() => driveGenerator(ctx, h), 2],
        [() => guarded([`for (const ${x} of ${rawCall(ctx, h, 1)}) out(${x});`]), 1],
        [() => guarded([`out([...${rawCall(ctx, h, 1)}]);`]), 1],
      ])();
    case 'asyncGenerator':
      return guarded([`for await (const ${x} of ${rawCall(ctx, h, 1)}) out(${x});`]);
    case 'async':
      return guarded([`out(await ${rawCall(ctx, h, 1)});`]);
    default:
      return guarded([`out(${rawCall(ctx, h, 1)});`]);
  }
}

function inputValue(rng: Random): unknown {
  switch (rng.int(9)) {
    case 0:
    case 1:
    case 2:
      return rng.range(-1, 4);
    case 3:
      return rng.chance(0.5);
    case 4:
      return rng.chance(0.5) ? null : undefined;
    case 5:
    case 6:
      return Array.from({ length: rng.int(4) }, () => rng.range(0, 3));
    case 7:
      return rng.chance(0.5) ? { x: rng.range(0, 3) } : { x: rng.range(0, 3), y: rng.chance(0.5) };
    default:
      return rng.pick(['', 'ab']);
  }
}
