import * as t from '@babel/types';
import type { PathOp } from '@pathprof/numbering';
import {
  assignmentExpression,
  binaryExpression,
  callExpression,
  identifier,
  memberExpression,
  numericLiteral,
  updateExpression,
} from '@pathprof/cfg';
import type { CounterVariables } from './counter-variables';

// Read once: @babel/types' exports are getters, which V8 does not inline on these hot paths.
const { cloneNode } = t;

/**
 * Where one function's path counts go: its slice of the file's counter array, or its hash table; or, edge
 * mode, the file's counter variables for constant indexes and the file's array itself for the others.
 */
export type CounterTarget =
  | { readonly kind: 'array'; readonly counts: t.Identifier; readonly offset: number }
  | { readonly kind: 'hash'; readonly table: t.Identifier }
  | {
      readonly kind: 'variables';
      readonly variables: CounterVariables;
      /** The file's array itself (the function runs after the preamble), for the counts at register indexes. */
      readonly counts: t.Expression;
      readonly offset: number;
    };

/**
 * One numbering op as JavaScript over the path register `r`: `r = v`, `r += v`, and the counts
 * `C[r + (offset + v)]++` / `C[offset + v]++` into the file's array, or `H.inc(r + v)` into a hash table.
 * Constants are folded so an array count is one indexed increment. `r` is asked for only by ops that use it,
 * so a function whose ops never do declares no register.
 */
export function opExpression(
  op: PathOp,
  r: () => t.Identifier | t.MemberExpression,
  target: CounterTarget,
): t.Expression {
  switch (op.kind) {
    case 'set':
      return assignmentExpression('=', r(), numericLiteral(op.value));
    case 'add':
      return op.value >= 0
        ? assignmentExpression('+=', r(), numericLiteral(op.value))
        : assignmentExpression('-=', r(), numericLiteral(-op.value));
    case 'count-add':
      return count(target, plus(r(), target.kind === 'hash' ? op.value : target.offset + op.value));
    case 'count-const':
      if (target.kind === 'variables')
        return updateExpression('++', target.variables.variable(target.offset + op.value));
      return count(target, numericLiteral((target.kind === 'hash' ? 0 : target.offset) + op.value));
  }
}

function count(target: CounterTarget, index: t.Expression): t.Expression {
  if (target.kind === 'hash') {
    return callExpression(memberExpression(cloneNode(target.table), identifier('inc')), [index]);
  }
  return updateExpression('++', memberExpression(cloneNode(target.counts), index, true));
}

/** `r + k` with the constant folded away when 0 and written as a subtraction when negative. */
export function plus(r: t.Expression, k: number): t.Expression {
  if (k === 0) return r;
  return k > 0 ? binaryExpression('+', r, numericLiteral(k)) : binaryExpression('-', r, numericLiteral(-k));
}
