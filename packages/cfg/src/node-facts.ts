import * as t from '@babel/types';

// Read once: @babel/types' exports are getters, which V8 does not inline on these hot paths.
const {
  isBooleanLiteral,
  isDeclareClass,
  isDeclareFunction,
  isDeclareModule,
  isDeclareVariable,
  isFunction,
  isIdentifier,
  isInterfaceDeclaration,
  isNullLiteral,
  isNumericLiteral,
  isOpaqueType,
  isParenthesizedExpression,
  isStringLiteral,
  isTSAsExpression,
  isTSDeclareFunction,
  isTSInstantiationExpression,
  isTSInterfaceDeclaration,
  isTSNamespaceExportDeclaration,
  isTSNonNullExpression,
  isTSSatisfiesExpression,
  isTSTypeAliasDeclaration,
  isTSTypeAssertion,
  isTypeAlias,
  VISITOR_KEYS,
} = t;

/**
 * Whether evaluating this node itself (not its children) can throw. Conservative: identifiers can throw
 * (TDZ, undeclared globals), `this` can (before `super()`), every operator can (valueOf, BigInt mixing).
 * Only literals, function creation and similar are known not to.
 */
export function evaluationMayThrow(node: t.Node): boolean {
  switch (node.type) {
    case 'StringLiteral':
    case 'NumericLiteral':
    case 'BooleanLiteral':
    case 'NullLiteral':
    case 'BigIntLiteral':
    case 'RegExpLiteral':
    case 'TemplateElement':
    case 'FunctionExpression':
    case 'ArrowFunctionExpression':
    case 'MetaProperty':
    case 'JSXText':
    case 'JSXEmptyExpression':
    case 'JSXIdentifier':
    case 'JSXAttribute':
    case 'JSXExpressionContainer':
    case 'JSXClosingElement':
    case 'JSXClosingFragment':
    case 'JSXOpeningFragment':
      return false;
    case 'TemplateLiteral':
      return node.expressions.length > 0;
    default:
      return true;
  }
}

/** TypeScript wrappers around a value that change nothing at run time. */
export function unwrapTypeScript(e: t.Expression): t.Expression {
  let x: t.Expression = e;
  while (
    isTSAsExpression(x) ||
    isTSSatisfiesExpression(x) ||
    isTSNonNullExpression(x) ||
    isTSTypeAssertion(x) ||
    isTSInstantiationExpression(x) ||
    isParenthesizedExpression(x)
  ) {
    x = x.expression;
  }
  return x;
}

/** Statements that exist only for the type checker and produce no code. */
export function isTypeOnlyStatement(s: t.Statement): boolean {
  return (
    isTSInterfaceDeclaration(s) ||
    isTSTypeAliasDeclaration(s) ||
    isTSDeclareFunction(s) ||
    isTSNamespaceExportDeclaration(s) ||
    isDeclareClass(s) ||
    isDeclareFunction(s) ||
    isDeclareVariable(s) ||
    isDeclareModule(s) ||
    isTypeAlias(s) ||
    isInterfaceDeclaration(s) ||
    isOpaqueType(s)
  );
}

/** The truthiness of a literal condition (`while (true)`, `if (0)`), or undefined when it depends on run time. */
export function staticTruthiness(e: t.Expression): boolean | undefined {
  if (isBooleanLiteral(e)) return e.value;
  if (isNumericLiteral(e)) return e.value !== 0 && !Number.isNaN(e.value);
  if (isStringLiteral(e)) return e.value !== '';
  if (isNullLiteral(e)) return false;
  return undefined;
}

/** The AST children of a node, in Babel's visiting order. */
export function childNodes(n: t.Node): t.Node[] {
  const out: t.Node[] = [];
  const keys = VISITOR_KEYS[n.type] ?? [];
  // Indexed loops (a `for…of` not yet optimised allocates an iterator and a result per step) and no array
  // around a single child: this runs for every key of every node, several walks per file.
  for (let k = 0; k < keys.length; k++) {
    const child = (n as unknown as Record<string, unknown>)[keys[k]];
    if (Array.isArray(child)) {
      for (let i = 0; i < child.length; i++) {
        const c: unknown = child[i];
        if (isNode(c)) out.push(c);
      }
    } else if (isNode(child)) out.push(child);
  }
  return out;
}

function isNode(c: unknown): c is t.Node {
  return c !== null && typeof c === 'object' && 'type' in c;
}

/** Whether `test` holds for `e` or a node inside it, not entering the functions it creates. */
export function someOutsideFunctions(e: t.Node, test: (n: t.Node) => boolean): boolean {
  if (test(e)) return true;
  return !isFunction(e) && childNodes(e).some((c) => someOutsideFunctions(c, test));
}

/**
 * Whether `e` may call `eval` directly, outside the functions it creates (a direct `eval` declares its
 * `var`s in the scope it runs in). Conservative: any reference to the name counts, `(eval)(…)` is direct
 * too, and a local binding named `eval` is not told apart.
 */
export function mayEvalDirectly(e: t.Node): boolean {
  return someOutsideFunctions(e, (n) => isIdentifier(n) && n.name === 'eval');
}

/** Expressions whose value is never `undefined`: a derived constructor returning one needs no check of `this`. */
export function neverUndefined(e: t.Expression): boolean {
  switch (e.type) {
    case 'ObjectExpression':
    case 'ArrayExpression':
    case 'NewExpression':
    case 'ThisExpression':
    case 'FunctionExpression':
    case 'ArrowFunctionExpression':
    case 'ClassExpression':
    case 'StringLiteral':
    case 'NumericLiteral':
    case 'BooleanLiteral':
    case 'NullLiteral':
    case 'BigIntLiteral':
    case 'RegExpLiteral':
    case 'TemplateLiteral':
      return true;
    default:
      return false;
  }
}
