import type * as t from '@babel/types';

/*
 * Constructors of the node kinds inserted code is made of, without @babel/types' validation: each makes the
 * object its @babel/types builder makes (the same keys, in the same order, with the same defaults), so the
 * printer and every later plugin see the same nodes, but checks nothing. The builders validate every field
 * of every node (our inserted nodes are most of a path-mode output's nodes), which took ~8% of our transform
 * time; the types check what validation would. Copies are still made with `cloneNode`, our own identifiers'
 * too: a `{ type, name }` literal for them has another hidden class than `cloneNode`'s copies, and with it
 * acorn's transform took 6–8% more CPU in fresh processes (bench/NOTES.md, session tf23e).
 */

export function identifier(name: string): t.Identifier {
  return { type: 'Identifier', name };
}

export function numericLiteral(value: number): t.NumericLiteral {
  return { type: 'NumericLiteral', value };
}

export function stringLiteral(value: string): t.StringLiteral {
  return { type: 'StringLiteral', value };
}

export function booleanLiteral(value: boolean): t.BooleanLiteral {
  return { type: 'BooleanLiteral', value };
}

export function nullLiteral(): t.NullLiteral {
  return { type: 'NullLiteral' };
}

export function assignmentExpression(
  operator: string,
  left: t.LVal | t.OptionalMemberExpression,
  right: t.Expression,
): t.AssignmentExpression {
  return { type: 'AssignmentExpression', operator, left, right };
}

export function binaryExpression(
  operator: t.BinaryExpression['operator'],
  left: t.Expression | t.PrivateName,
  right: t.Expression,
): t.BinaryExpression {
  return { type: 'BinaryExpression', operator, left, right };
}

export function logicalExpression(
  operator: t.LogicalExpression['operator'],
  left: t.Expression,
  right: t.Expression,
): t.LogicalExpression {
  return { type: 'LogicalExpression', operator, left, right };
}

export function unaryExpression(
  operator: t.UnaryExpression['operator'],
  argument: t.Expression,
  prefix = true,
): t.UnaryExpression {
  return { type: 'UnaryExpression', operator, argument, prefix };
}

export function updateExpression(
  operator: t.UpdateExpression['operator'],
  argument: t.Expression,
  prefix = false,
): t.UpdateExpression {
  return { type: 'UpdateExpression', operator, argument, prefix };
}

export function sequenceExpression(expressions: t.Expression[]): t.SequenceExpression {
  return { type: 'SequenceExpression', expressions };
}

export function conditionalExpression(
  test: t.Expression,
  consequent: t.Expression,
  alternate: t.Expression,
): t.ConditionalExpression {
  return { type: 'ConditionalExpression', test, consequent, alternate };
}

export function memberExpression(
  object: t.Expression | t.Super,
  property: t.Expression | t.Identifier | t.PrivateName,
  computed = false,
  optional: boolean | null = null,
): t.MemberExpression {
  return { type: 'MemberExpression', object, property, computed, optional };
}

export function callExpression(
  callee: t.Expression | t.Super | t.V8IntrinsicIdentifier,
  args: t.CallExpression['arguments'],
): t.CallExpression {
  return { type: 'CallExpression', callee, arguments: args };
}

export function expressionStatement(expression: t.Expression): t.ExpressionStatement {
  return { type: 'ExpressionStatement', expression };
}

export function variableDeclaration(
  kind: t.VariableDeclaration['kind'],
  declarations: t.VariableDeclarator[],
): t.VariableDeclaration {
  return { type: 'VariableDeclaration', kind, declarations };
}

export function variableDeclarator(id: t.LVal, init: t.Expression | null = null): t.VariableDeclarator {
  return { type: 'VariableDeclarator', id, init };
}

export function blockStatement(body: t.Statement[], directives: t.Directive[] = []): t.BlockStatement {
  return { type: 'BlockStatement', body, directives };
}

export function ifStatement(
  test: t.Expression,
  consequent: t.Statement,
  alternate: t.Statement | null = null,
): t.IfStatement {
  return { type: 'IfStatement', test, consequent, alternate };
}

export function returnStatement(argument: t.Expression | null = null): t.ReturnStatement {
  return { type: 'ReturnStatement', argument };
}

export function throwStatement(argument: t.Expression): t.ThrowStatement {
  return { type: 'ThrowStatement', argument };
}

export function tryStatement(
  block: t.BlockStatement,
  handler: t.CatchClause | null = null,
  finalizer: t.BlockStatement | null = null,
): t.TryStatement {
  return { type: 'TryStatement', block, handler, finalizer };
}

export function catchClause(
  param: t.Identifier | t.ArrayPattern | t.ObjectPattern | null | undefined,
  body: t.BlockStatement,
): t.CatchClause {
  return { type: 'CatchClause', param: param ?? null, body };
}
