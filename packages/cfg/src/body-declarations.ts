import * as t from '@babel/types';
import { locatedAt } from './expression-builders';
import { childNodes, mayEvalDirectly } from './node-facts';

/**
 * A function body wrapped in the `try` that counts exceptional exits has its top-level function declarations
 * inside a block, where they are lexical. A declaration becomes an assignment of a function expression at the
 * top of the block (in source order, the last one wins as with declarations; a `var` for a name nothing else
 * declares) when being lexical would change what the function does:
 * - a `var` of the same name anywhere in the body, or a second declaration of it in strict code, would make
 *   the function a SyntaxError (test262's function-code/S10.2.1_A4_T2);
 * - a declaration of the same name nested in a block, an `if` or a `switch` of the body is, in sloppy code
 *   (Annex B.3.3), also a `var` that takes the nested function when its declaration runs, unless that `var`
 *   would clash with a lexical binding: the block-scoped one in the `try` would shadow it or stop it
 *   (annexB/language/function-code/*-existing-fn-update);
 * - a parameter of the same name takes the function, and so does `arguments[i]` where it is mapped (sloppy
 *   code, simple parameters), while a block-scoped function would leave both alone;
 * - a direct `eval` in the body may declare any name with `var` (sloppy code), a SyntaxError at run time when
 *   a block between it and the function's scope binds that name lexically: every declaration is assigned.
 * A declared function exists from the body's first statement and so does the assigned one, and it takes its
 * `name` from the assignment; nothing but the counting code runs before the top of the block, and a function
 * expression's own binding is left out so that the name inside it means the variable, as for a declaration.
 * The others stay declarations: they bind the same inside the block. Strict code needs only the first rule;
 * the others are applied to it too (the assignments are exact there as well, and telling strict code apart
 * would take its directives and enclosing classes and modules).
 */
export function hoistClashingDeclarations(
  statements: readonly t.Statement[],
  params: readonly t.Node[],
): t.Statement[] {
  const declared = new Map<string, number>();
  for (const s of statements) {
    const f = declaredFunction(s);
    if (f) declared.set(f.id.name, (declared.get(f.id.name) ?? 0) + 1);
  }
  if (declared.size === 0) return [...statements];
  const vars = varNames(statements);
  const evals = statements.some(mayEvalDirectly);
  const nested = nestedFunctionNames(statements);
  const parameters = new Set(params.flatMap((p) => Object.keys(t.getBindingIdentifiers(p))));
  const assigned = (name: string): boolean =>
    evals || vars.has(name) || declared.get(name)! > 1 || nested.has(name) || parameters.has(name);
  const clashes = (s: t.Statement): boolean => {
    const f = declaredFunction(s);
    return !!f && assigned(f.id.name);
  };
  const hoisted = statements.filter(clashes).map((s) => declaredFunction(s)!);
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

/**
 * The function a statement of the body declares: a declaration, or one under labels (`L: function f() {}`,
 * sloppy code), which binds like one at the top level and in a block alike.
 */
export function declaredFunction(s: t.Statement): (t.FunctionDeclaration & { id: t.Identifier }) | null {
  let body: t.Statement = s;
  while (t.isLabeledStatement(body)) body = body.body;
  return t.isFunctionDeclaration(body) && body.id
    ? (body as t.FunctionDeclaration & { id: t.Identifier })
    : null;
}

/**
 * The names of the function declarations nested in these statements' blocks, `if`s, `switch`es and labels, not
 * in the functions, classes and static blocks nested in them (their own scopes).
 */
function nestedFunctionNames(statements: readonly t.Statement[]): Set<string> {
  const names = new Set<string>();
  const visit = (n: t.Node): void => {
    if (t.isFunctionDeclaration(n) && n.id) names.add(n.id.name);
    if (t.isFunction(n) || t.isStaticBlock(n) || t.isClass(n)) return;
    for (const child of childNodes(n)) visit(child);
  };
  for (const s of statements) if (!declaredFunction(s)) visit(s);
  return names;
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
