import * as t from '@babel/types';

/**
 * A class as TypeScript writes it below ES2015: `var C = /** @class *\/ (function (_super) { __extends(C,
 * _super); function C() { … } C.prototype.m = function () { … }; Object.defineProperty(C.prototype, "p", {
 * get: function () { … } }); C.s = function () { … }; return C; }(Base))`. The wrapper runs where the class is
 * defined and is the compiler's; its functions are the class's members, named as the source's are
 * (`C.constructor`, `C.m`, `get C.p`; `C.s` already reads so). Null when `node` is not such a wrapper call.
 */
export function compiledClass(
  node: t.Node,
): { wrapper: t.FunctionExpression; names: Map<t.Node, string> } | null {
  if (!t.isCallExpression(node) || !t.isFunctionExpression(node.callee)) return null;
  const wrapper = node.callee;
  const body = wrapper.body.body;
  const last = body[body.length - 1];
  if (!t.isReturnStatement(last) || !t.isIdentifier(last.argument)) return null;
  const name = last.argument.name;
  const constructor = body.find(
    (s): s is t.FunctionDeclaration => t.isFunctionDeclaration(s) && s.id?.name === name,
  );
  if (!constructor) return null;
  const names = new Map<t.Node, string>([[constructor, `${name}.constructor`]]);
  for (const s of body) {
    if (!t.isExpressionStatement(s)) continue;
    const e = s.expression;
    // C.prototype.m = function () { … }
    if (
      t.isAssignmentExpression(e) &&
      t.isFunctionExpression(e.right) &&
      t.isMemberExpression(e.left) &&
      isPrototypeOf(e.left.object, name)
    ) {
      const key = memberKey(e.left);
      if (key !== null) names.set(e.right, `${name}.${key}`);
    }
    // Object.defineProperty(C.prototype, "p", { get: function () { … }, set: function (v) { … } })
    if (
      t.isCallExpression(e) &&
      t.isMemberExpression(e.callee) &&
      t.isIdentifier(e.callee.object, { name: 'Object' }) &&
      t.isIdentifier(e.callee.property, { name: 'defineProperty' }) &&
      e.arguments.length === 3 &&
      (isPrototypeOf(e.arguments[0], name) || t.isIdentifier(e.arguments[0], { name })) &&
      t.isStringLiteral(e.arguments[1]) &&
      t.isObjectExpression(e.arguments[2])
    ) {
      for (const p of e.arguments[2].properties) {
        if (!t.isObjectProperty(p) || !t.isFunctionExpression(p.value) || !t.isIdentifier(p.key)) continue;
        if (p.key.name === 'get' || p.key.name === 'set')
          names.set(p.value, `${p.key.name} ${name}.${e.arguments[1].value}`);
      }
    }
  }
  return { wrapper, names };
}

function isPrototypeOf(node: t.Node, name: string): boolean {
  return (
    t.isMemberExpression(node) &&
    !node.computed &&
    t.isIdentifier(node.object, { name }) &&
    t.isIdentifier(node.property, { name: 'prototype' })
  );
}

/** `m` of `C.prototype.m` and of `C.prototype["m"]`; null for other computed keys. */
function memberKey(member: t.MemberExpression): string | null {
  if (!member.computed && t.isIdentifier(member.property)) return member.property.name;
  if (t.isStringLiteral(member.property)) return member.property.value;
  return null;
}
