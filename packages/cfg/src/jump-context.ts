import type * as t from '@babel/types';
import type { Completion } from './control-flow-graph';
import type { Join } from './graph-builder';

/** A `break`, `continue`, `return`, or a generator's `return()` at a `yield`, on its way to its target. */
export type JumpRequest =
  | { readonly kind: 'break' | 'continue'; readonly label: string | null }
  | { readonly kind: 'return' }
  | { readonly kind: 'yield-return'; readonly yieldNode: t.YieldExpression };

/** Statements a jump can target, innermost last on the builder's stack. */
export type JumpContext =
  | {
      readonly type: 'loop';
      readonly labels: readonly string[];
      readonly breakJoin: Join;
      /** Where `continue` goes: the test, the update, or the head of the next iteration. */
      continueJoin: Join;
      /** A `for…of`, whose iterator a jump out of it closes (its `return()`, which can throw). */
      readonly closes: ClosingLoop | null;
      /** The exception handler where the statement stands. */
      readonly handler: Join | null;
    }
  | {
      readonly type: 'switch' | 'label';
      readonly labels: readonly string[];
      readonly breakJoin: Join;
      readonly handler: Join | null;
    }
  | { readonly type: 'finally'; readonly region: FinallyBuilder };

/**
 * A `for…of` being built: a jump leaving it for a target outside goes to the dispatch for that target, built
 * after the loop (`CloseDispatch`).
 */
export interface ClosingLoop {
  readonly loop: t.ForOfStatement;
  /** The loop's outermost label, or the loop. */
  readonly statement: t.Statement;
  /** By target (`return`, `break:L`, `continue:L`). */
  readonly dispatches: Map<
    string,
    { readonly index: number; readonly join: Join; readonly request: JumpRequest }
  >;
}

/** The protected part (`try` and `catch`) of a `try … finally`: every jump out of it enters the `finally`. */
export class FinallyBuilder {
  readonly completions: Completion[] = [];
  /** How each completion continues after the `finally`, by code (null: normally, or by rethrowing). */
  readonly continuations = new Map<number, JumpRequest | null>();
  private readonly byTarget = new Map<string, number>();

  constructor(
    readonly statement: t.TryStatement,
    readonly join: Join,
  ) {}

  /** The completion code for a jump, allocated on first use; every `yield` gets its own. */
  completionFor(request: JumpRequest, target: JumpContext | null): number {
    if (request.kind === 'yield-return') return this.add('yield-return', undefined, request);
    const key = request.kind === 'return' ? 'return' : `${request.kind}:${request.label ?? ''}`;
    const known = this.byTarget.get(key);
    if (known !== undefined) return known;
    const label = request.kind === 'return' ? undefined : (request.label ?? labelOf(target));
    const code = this.add(request.kind, label, request);
    this.byTarget.set(key, code);
    return code;
  }

  /** The `try` or `catch` completed normally: completion 0. */
  addNormal(): void {
    if (!this.continuations.has(0)) {
      this.completions.push({ code: 0, kind: 'normal' });
      this.continuations.set(0, null);
    }
  }

  /** An exception entered the `finally`: completion 1, rethrown at its end. */
  addThrow(): void {
    if (!this.continuations.has(1)) {
      this.completions.push({ code: 1, kind: 'throw' });
      this.continuations.set(1, null);
    }
  }

  private add(kind: Completion['kind'], label: string | undefined, request: JumpRequest): number {
    // 0 and 1 are normal and throw; jumps start at 2 so codes stay small integers.
    let code = 2;
    while (this.continuations.has(code)) code++;
    this.completions.push(label === undefined ? { code, kind } : { code, kind, label });
    this.continuations.set(code, request);
    return code;
  }
}

function labelOf(target: JumpContext | null): string | undefined {
  if (!target || target.type === 'finally') return undefined;
  return target.labels[0];
}
