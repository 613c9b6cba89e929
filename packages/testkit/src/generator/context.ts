import type { Random } from '../random';

/**
 * The constructs whose frequency `ProgramOptions.weights` scales. One name covers both the statement and the
 * expression form of a construct (`yield` is `yield x;` as well as `(yield x)`), so a test biases a construct
 * by one knob.
 */
export const CONSTRUCTS = [
  'output',
  'declare',
  'destructuring',
  'closure',
  'arithmetic',
  'conditional',
  'logical',
  'logicalAssign',
  'optional',
  'sequence',
  'template',
  'aggregate',
  'if',
  'for',
  'while',
  'doWhile',
  'forIn',
  'forOf',
  'switch',
  'labeled',
  'break',
  'continue',
  'return',
  'throw',
  'try',
  'implicitError',
  'call',
  'drive',
  'yield',
  'await',
  'eval',
] as const;
export type Construct = (typeof CONSTRUCTS)[number];

/**
 * What a variable in scope may be used for. Values are never read through a plain `.`, so any value may flow
 * anywhere; objects (`obj`) always have the shape `objectLiteral` builds and `maybeObj` is such an object or
 * null, so their member chains are safe exactly where the generator puts `?.`. A caught exception (`caught`) is
 * only ever shown through the program's `show`, which hides the engine's wording of built-in errors. A `var`
 * that a direct `eval` may have declared (`evaled`: not in strict code, nor where the `eval` did not run) is
 * only ever read under `typeof`.
 */
export type VarKind = 'val' | 'obj' | 'maybeObj' | 'arr' | 'closure' | 'caught' | 'evaled';

export interface Var {
  readonly name: string;
  readonly kind: VarKind;
  /** Only `let` values are assigned to: loop counters, parameters and constants stay as declared. */
  readonly mutable: boolean;
}

export type HelperKind =
  'function' | 'arrow' | 'method' | 'classMethod' | 'generator' | 'async' | 'asyncGenerator';

/** A parameter after the leading depth parameter: plain, with a default, or a destructuring pattern. */
export type ParamKind = 'plain' | 'default' | 'pattern';

/** A top-level function of the program that the others (and the entry) call. */
export interface Helper {
  readonly kind: HelperKind;
  readonly name: string;
  /** The object literal (`method`) or class (`classMethod`) the function belongs to. */
  readonly owner: string;
  readonly params: readonly ParamKind[];
}

/** What the function being generated allows. */
export interface FnInfo {
  /** The helper whose body this is, for self-recursive calls; closures and the entry have none. */
  readonly self: Helper | undefined;
  readonly generator: boolean;
  readonly async: boolean;
  /** `this.tag` exists in methods (and arrows inside them); only class instances are fresh enough to write. */
  readonly thisAccess: 'none' | 'read' | 'write';
  /** `arguments` is a function's own: false at the top of an arrow helper, where it is not defined. */
  readonly args: boolean;
  /** The recursion-depth parameter in scope; the entry has none and calls helpers with a constant depth. */
  readonly depthParam: string | undefined;
  /** The entry must reach its final `return log.join(...)`, so only helpers and closures return early. */
  readonly canReturn: boolean;
}

/** An enclosing statement that `break`/`continue` may target. */
export interface Frame {
  readonly kind: 'loop' | 'switch' | 'block';
  readonly label: string | undefined;
}

export interface Ctx {
  readonly p: ProgramState;
  readonly fn: FnInfo;
  /** Variables in scope; a block's statements push their declarations onto its own copy. */
  readonly vars: Var[];
  readonly frames: readonly Frame[];
  /** How many more levels of compound statements may nest here. */
  readonly depth: number;
  /** An exception raised here is caught by a `catch` of this function: implicit TypeErrors may go here only. */
  readonly catchable: boolean;
  /** Inside the block or handler of a `try` with `finally`: jumps here are routed through the finalizer. */
  readonly routed: boolean;
}

export interface ResolvedOptions {
  readonly maxDepth: number;
  readonly size: number;
  readonly weights: Partial<Record<Construct, number>>;
}

/** State shared by everything generated for one program: the random source, fresh names and the helpers. */
export class ProgramState {
  private counter = 0;
  readonly helpers: Helper[] = [];
  /** The depth the entry passes to helpers, which bounds every chain of calls. */
  readonly entryDepth: number;

  constructor(
    readonly rng: Random,
    readonly options: ResolvedOptions,
  ) {
    this.entryDepth = rng.range(1, 2);
  }

  /** Names are unique in the whole program, so no declaration ever shadows another. */
  name(prefix: string): string {
    return `${prefix}${++this.counter}`;
  }

  weight(construct: Construct, base: number): number {
    return base * (this.options.weights[construct] ?? 1);
  }

  /** A weighted choice; options of weight 0 are never chosen and the first option stands in if all are 0. */
  choose<T>(options: ReadonlyArray<readonly [T, number]>): T {
    const total = options.reduce((sum, [, w]) => sum + w, 0);
    if (total <= 0) return options[0][0];
    let r = this.rng.next() * total;
    for (const [value, w] of options) {
      r -= w;
      if (r < 0) return value;
    }
    return options[options.length - 1][0];
  }

  /** A probability scaled by a construct's weight, kept below 1 so some programs still go without it. */
  chance(construct: Construct, base: number): boolean {
    return this.rng.chance(Math.min(0.9, this.weight(construct, base)));
  }
}

export function varsOf(ctx: Ctx, kind: VarKind): Var[] {
  return ctx.vars.filter((v) => v.kind === kind);
}

export function indent(code: string): string {
  return code
    .split('\n')
    .map((line) => (line === '' ? line : `  ${line}`))
    .join('\n');
}

export function braces(lines: readonly string[]): string {
  return lines.length === 0 ? '{}' : `{\n${lines.map(indent).join('\n')}\n}`;
}
