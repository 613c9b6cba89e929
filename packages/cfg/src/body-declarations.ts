import * as t from '@babel/types';
import { locatedAt } from './expression-builders';
import { childNodes } from './node-facts';

// Read once: @babel/types' exports are getters, which V8 does not inline on these hot paths.
const {
  getBindingIdentifiers,
  isClass,
  isFunction,
  isFunctionDeclaration,
  isIdentifier,
  isLabeledStatement,
  isStaticBlock,
  isVariableDeclaration,
} = t;

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
  const { vars, nested, evals } = bodyFacts(statements);
  const parameters = new Set(params.flatMap((p) => Object.keys(getBindingIdentifiers(p))));
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
  while (isLabeledStatement(body)) body = body.body;
  return isFunctionDeclaration(body) && body.id
    ? (body as t.FunctionDeclaration & { id: t.Identifier })
    : null;
}

/**
 * What a body's statements hold outside the functions nested in them, in one walk (the body is the
 * instrumented one, several times the source's size): the names `var` declares (not in static blocks); the
 * names of the function declarations nested in blocks, `if`s, `switch`es and labels (not the statements' own
 * declarations, nor those in classes and static blocks: their own scopes); whether it may call `eval`
 * directly (`mayEvalDirectly`).
 */
function bodyFacts(statements: readonly t.Statement[]): {
  vars: Set<string>;
  nested: Set<string>;
  evals: boolean;
} {
  const vars = new Set<string>();
  const nested = new Set<string>();
  let evals = false;
  const visit = (n: t.Node, inVars: boolean, inNested: boolean): void => {
    if (!evals && isIdentifier(n) && n.name === 'eval') evals = true;
    if (inNested && isFunctionDeclaration(n) && n.id) nested.add(n.id.name);
    const fn = isFunction(n);
    const ownScope = fn || isStaticBlock(n);
    if (inVars && !ownScope && isVariableDeclaration(n) && n.kind === 'var') {
      for (const name of Object.keys(getBindingIdentifiers(n))) vars.add(name);
    }
    const childVars = inVars && !ownScope;
    const childNested = inNested && !ownScope && !isClass(n);
    if (childVars || childNested || (!evals && !fn)) {
      for (const child of childNodes(n)) visit(child, childVars, childNested);
    }
  };
  for (const s of statements) visit(s, true, !declaredFunction(s));
  return { vars, nested, evals };
}
