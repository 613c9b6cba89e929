import * as t from '@babel/types';

/** One expression evaluating `exprs` in order, with the last one's value; `void 0` for none. */
export function seq(exprs: readonly t.Expression[]): t.Expression {
  if (exprs.length === 0) return t.unaryExpression('void', t.numericLiteral(0));
  if (exprs.length === 1) return exprs[0];
  return t.sequenceExpression([...exprs]);
}

/** `(v = e) === null || v === void 0`: the test optional chaining and `??` make, `document.all` included. */
export function isNullish(v: t.Identifier, e: t.Expression): t.Expression {
  return t.logicalExpression(
    '||',
    t.binaryExpression('===', t.assignmentExpression('=', v, e), t.nullLiteral()),
    t.binaryExpression('===', t.cloneNode(v), t.unaryExpression('void', t.numericLiteral(0))),
  );
}
