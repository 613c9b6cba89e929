import * as t from '@babel/types';
import { isNullish, seq } from './expression-builders';
import type { FunctionTemps } from './function-temps';
import {
  assignmentExpression,
  booleanLiteral,
  callExpression,
  conditionalExpression,
  identifier,
  memberExpression,
  numericLiteral,
  unaryExpression,
} from './emitted-nodes';

type ChainNode = t.OptionalMemberExpression | t.OptionalCallExpression;

/** The code on one chain: per `?.` link its short-circuit and continue code, and the code at its end. */
export interface ChainCode {
  link(node: t.Node): { short: t.Expression[]; go: t.Expression[] } | undefined;
  readonly end: t.Expression[];
  /** The chain is the operand of `delete`: the last member is deleted, a short circuit yields `true`. */
  readonly deleted: boolean;
  /**
   * The chain is called (`(a?.b)()`, a tag): the last member's value, bound to its object (called-chain.ts);
   * null when it is not.
   */
  readonly bindCallee: ((receiver: t.Expression, value: t.Expression) => t.Expression) | null;
}

/**
 * Rewrites an optional chain into plain conditionals so code can run on each link's two outcomes, as
 * Babel's optional-chaining transform does: `a?.b.c?.(x)` becomes
 * `(v = a) === null || v === void 0 ? (short1, void 0) : (go1, (r = v.b, v = r.c) === null || … ? … : v.call(r, x))`.
 * Each base is evaluated once, a call keeps its receiver, and a short circuit skips the rest of the chain.
 */
export function rewriteOptionalChain(top: ChainNode, code: ChainCode, temps: FunctionTemps): t.Expression {
  const links: t.Node[] = [];
  let base: t.Node = top;
  for (;;) {
    if (t.isOptionalMemberExpression(base)) {
      links.push(base);
      base = base.object;
    } else if (t.isOptionalCallExpression(base)) {
      links.push(base);
      base = base.callee;
    } else if (t.isTSNonNullExpression(base) && links.length > 0) {
      base = base.expression;
    } else break;
  }
  links.reverse();
  const v = () => temps.value();
  const guards: { test: t.Expression; short: t.Expression[]; go: t.Expression[] }[] = [];
  let cur = base as t.Expression;

  links.forEach((link, i) => {
    const last = i === links.length - 1;
    const edits = code.link(link);
    if (t.isOptionalMemberExpression(link)) {
      if (link.optional) {
        guards.push({ test: isNullish(v(), cur), short: edits?.short ?? [], go: edits?.go ?? [] });
        cur = v();
      }
      if (last && code.bindCallee) {
        // The object is read once, before the member, into a temporary no key can change in between.
        const receiver = temps.get('receiver', 'pp_this');
        const member = memberExpression(receiver, link.property as t.Expression, link.computed);
        cur = code.bindCallee(assignmentExpression('=', t.cloneNode(receiver), cur), member);
        return;
      }
      const member = memberExpression(cur, link.property as t.Expression, link.computed);
      cur = last && code.deleted ? unaryExpression('delete', member) : member;
      return;
    }
    const call = link as t.OptionalCallExpression;
    const args = call.arguments;
    if (!call.optional) {
      cur = callExpression(cur, args);
      return;
    }
    if (t.isMemberExpression(cur)) {
      // `o.m?.()` calls with `this === o`: keep the receiver in its own temporary.
      const receiver = t.isSuper(cur.object) ? null : temps.get('receiver', 'pp_this');
      const fn = receiver ? memberExpression(receiver, cur.property, cur.computed) : cur;
      const test = receiver
        ? seq([
            assignmentExpression('=', t.cloneNode(receiver), cur.object as t.Expression),
            isNullish(v(), fn),
          ])
        : isNullish(v(), fn);
      guards.push({ test, short: edits?.short ?? [], go: edits?.go ?? [] });
      const thisArg = receiver ? t.cloneNode(receiver) : t.thisExpression();
      cur = callExpression(memberExpression(v(), identifier('call')), [thisArg, ...args]);
      return;
    }
    guards.push({ test: isNullish(v(), cur), short: edits?.short ?? [], go: edits?.go ?? [] });
    cur = callExpression(v(), args);
  });

  let result: t.Expression = code.end.length
    ? seq([assignmentExpression('=', v(), cur), ...code.end, v()])
    : cur;
  const skipped = code.deleted ? booleanLiteral(true) : unaryExpression('void', numericLiteral(0));
  for (let i = guards.length - 1; i >= 0; i--) {
    const g = guards[i];
    result = conditionalExpression(g.test, seq([...g.short, t.cloneNode(skipped)]), seq([...g.go, result]));
  }
  return result;
}
