import * as t from '@babel/types';
import { locatedAt } from './expression-builders';
import { childNodes } from './node-facts';

/**
 * A function body wrapped in the `try` that counts exceptional exits has its top-level function declarations
 * inside a block, where they are lexical: a `var` of the same name anywhere in the body, or a second
 * declaration of it in strict code, would make the function a SyntaxError (test262's
 * function-code/S10.2.1_A4_T2). Those declarations become assignments of function expressions at the top of
 * the block, in source order (the last one wins, as with declarations), with a `var` for a name nothing else
 * declares. A declared function exists from the body's first statement and so does the assigned one, and it
 * takes its `name` from the assignment. The others stay declarations: they bind the same inside the block.
 */
export function hoistClashingDeclarations(statements: readonly t.Statement[]): t.Statement[] {
  const declared = new Map<string, number>();
  for (const s of statements) {
    if (t.isFunctionDeclaration(s) && s.id) declared.set(s.id.name, (declared.get(s.id.name) ?? 0) + 1);
  }
  if (declared.size === 0) return [...statements];
  const vars = varNames(statements);
  const clashes = (s: t.Statement): s is t.FunctionDeclaration & { id: t.Identifier } =>
    t.isFunctionDeclaration(s) && !!s.id && (vars.has(s.id.name) || declared.get(s.id.name)! > 1);
  const hoisted = statements.filter(clashes);
  if (hoisted.length === 0) return [...statements];
  const undeclared = [...new Set(hoisted.map((s) => s.id.name))].filter((name) => !vars.has(name));
  return [
    ...(undeclared.length
      ? [
          t.variableDeclaration(
            'var',
            undeclared.map((name) => t.variableDeclarator(t.identifier(name))),
          ),
        ]
      : []),
    ...hoisted.map((s) => {
      const fn = locatedAt(t.functionExpression(null, s.params, s.body, s.generator, s.async), s);
      fn.typeParameters = s.typeParameters;
      fn.returnType = s.returnType;
      return locatedAt(t.expressionStatement(t.assignmentExpression('=', t.identifier(s.id.name), fn)), s);
    }),
    ...statements.filter((s) => !clashes(s)),
  ];
}

/** The names `var` declares in these statements, not in the functions and static blocks nested in them. */
function varNames(statements: readonly t.Statement[]): Set<string> {
  const names = new Set<string>();
  const visit = (n: t.Node): void => {
    if (t.isFunction(n) || t.isStaticBlock(n)) return;
    if (t.isVariableDeclaration(n) && n.kind === 'var') {
      for (const name of Object.keys(t.getBindingIdentifiers(n))) names.add(name);
    }
    for (const child of childNodes(n)) visit(child);
  };
  for (const s of statements) visit(s);
  return names;
}
