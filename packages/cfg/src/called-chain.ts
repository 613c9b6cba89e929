import * as t from '@babel/types';
import { parse } from '@babel/parser';
import type { FreshName } from './fresh-names';

/**
 * `(a?.b)()` and ``(a?.b)`x` `` call `b` with `this === a`: the parentheses end the chain but keep its
 * reference. Rewritten into conditionals (optional-chain-rewrite.ts), the chain's value would lose its
 * receiver, so the value of a called chain whose last link is a member is bound to that member's object:
 *
 *     (a?.b)(x)   →   (v = a) === null || v === void 0 ? void 0 : helper(r = v, r.b)  …called with (x)
 *
 * The member is read exactly where the original reads it; the helper only makes a function that calls it
 * with the receiver and the call's own arguments (`Reflect.apply`), so the arguments are evaluated before
 * a value that is not callable throws its TypeError, as in the original (the message differs), and a tag
 * gets the same template object. One frame more is on the stack during the call.
 */
export class CalledChains {
  private helper: t.Identifier | null = null;

  constructor(private readonly fresh: FreshName) {}

  /** `helper(receiver, value)`: the member's value, called with `this === receiver`. */
  bind(receiver: t.Expression, value: t.Expression): t.Expression {
    const helper = (this.helper ??= this.fresh('pp_bind'));
    return t.callExpression(t.cloneNode(helper), [receiver, value]);
  }

  /** The helper's declaration when some chain used it: first in the program, hoisted. */
  declarations(): t.Statement[] {
    if (!this.helper) return [];
    const declaration = parse(HELPER_SOURCE).program.body[0] as t.FunctionDeclaration;
    declaration.id = t.cloneNode(this.helper);
    return [declaration];
  }
}

const HELPER_SOURCE = `function helper(receiver, fn) {
  return function () {
    return Reflect.apply(fn, receiver, arguments);
  };
}`;
