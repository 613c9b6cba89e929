import * as t from '@babel/types';
import {
  assignmentExpression,
  binaryExpression,
  logicalExpression,
  nullLiteral,
  numericLiteral,
  sequenceExpression,
  unaryExpression,
} from './emitted-nodes';

// Read once: @babel/types' exports are getters, which V8 does not inline on these hot paths.
const {
  cloneNode,
  isArrowFunctionExpression,
  isClassExpression,
  isFunctionExpression,
  isSequenceExpression,
} = t;

/** One expression evaluating `exprs` in order, with the last one's value; `void 0` for none. */
export function seq(exprs: readonly t.Expression[]): t.Expression {
  if (exprs.length === 0) return unaryExpression('void', numericLiteral(0));
  if (exprs.length === 1) return exprs[0];
  return sequenceExpression([...exprs]);
}

/**
 * `v = e` for a temporary `v`. An anonymous function or class assigned to an identifier takes the
 * identifier's name; `v = (0, e)` keeps the name `e` has where the source puts it (none).
 */
export function assignTemp(v: t.Identifier, e: t.Expression): t.AssignmentExpression {
  const anonymous =
    isArrowFunctionExpression(e) || ((isFunctionExpression(e) || isClassExpression(e)) && !e.id);
  return assignmentExpression('=', v, anonymous ? sequenceExpression([numericLiteral(0), e]) : e);
}

const NO_NAMES: ReadonlySet<t.Node> = new Set();

/**
 * Whether evaluating `e` can neither throw nor have an effect nor give a different value a second time in the
 * same place (inserted code writes only its own locals): literals (`-1`, `void 0`, a template without
 * expressions) and, given `readable` (the graph's `nonThrowing`), the names in it and `!`, `typeof`, `void`,
 * `===`, `!==` over such values. Code that must run after such a value can run before it (`(code, e)`),
 * without the temporary that `(v = e, code, v)` needs.
 */
export function isInert(e: t.Node, readable: ReadonlySet<t.Node> = NO_NAMES): boolean {
  switch (e.type) {
    case 'StringLiteral':
    case 'NumericLiteral':
    case 'BooleanLiteral':
    case 'NullLiteral':
    case 'BigIntLiteral':
      return true;
    case 'TemplateLiteral':
      return e.expressions.length === 0;
    case 'Identifier':
      return readable.has(e);
    case 'UnaryExpression':
      if (e.operator === '!' || e.operator === 'void' || e.operator === 'typeof')
        return isInert(e.argument, readable);
      // A number's sign or bits of a name would run its valueOf: literals only.
      return (e.operator === '-' || e.operator === '+' || e.operator === '~') && isInert(e.argument);
    case 'BinaryExpression':
      return (
        (e.operator === '===' || e.operator === '!==') &&
        isInert(e.left, readable) &&
        isInert(e.right, readable)
      );
    default:
      return false;
  }
}

/**
 * `(v = e) === null || v === void 0` for a temporary `v`: the test optional chaining and `??` make,
 * `document.all` included.
 */
export function isNullish(v: t.Identifier, e: t.Expression): t.Expression {
  return logicalExpression(
    '||',
    binaryExpression('===', assignmentExpression('=', v, e), nullLiteral()),
    binaryExpression('===', cloneNode(v), unaryExpression('void', numericLiteral(0))),
  );
}

/**
 * `v === void 0 && this`: in a derived constructor, the check V8 makes where a `return` of `v` stands, made
 * before the return's code (`ControlFlowGraph.thisChecks`): `this` before `super()` throws the same error.
 */
export function thisReadIfUndefined(v: t.Identifier): t.Expression {
  return logicalExpression(
    '&&',
    binaryExpression('===', cloneNode(v), unaryExpression('void', numericLiteral(0))),
    t.thisExpression(),
  );
}

/** `node` given `from`'s source location: a rewritten node keeps its place in reports. */
export function locatedAt<T extends t.Node>(node: T, from: t.Node): T {
  node.loc = from.loc;
  node.start = from.start;
  node.end = from.end;
  return node;
}

/**
 * What replaces `original` keeps its source location, so a tool that runs after us and counts by location
 * (babel-plugin-istanbul: statements, branch operands) still finds it: a sequence we made takes it, anything
 * else goes in a one-element sequence that does (a condition or logical we made must stay unlocated, or it
 * would be counted as the user's).
 */
export function keepsPlace(original: t.Expression, replacement: t.Expression): t.Expression {
  if (replacement === original || !original.loc) return replacement;
  const wrapper =
    isSequenceExpression(replacement) && !replacement.loc ? replacement : sequenceExpression([replacement]);
  return locatedAt(wrapper, original);
}
