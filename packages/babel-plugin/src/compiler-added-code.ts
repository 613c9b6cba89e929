import * as t from '@babel/types';
import { decodedMappings, type TraceMap } from '@jridgewell/trace-mapping';
import { forEachChild } from './child-nodes';
import { compiledClass } from './compiled-classes';

/**
 * The code a compiler added to a file it compiled: TypeScript's helpers (`var __importStar = (this &&
 * this.__importStar) || …`, `__awaiter`, `__rest`), on lines its map does not cover, and the code it writes for
 * an `enum` or a re-export, which its map places at them. None of it is the source's, so none of it is
 * reported: such functions are not profiled, and such code has no decisions (`<program>` of a 7-line file with
 * seven helpers had 98,380 paths, and of a file declaring an `enum` 2, one of which no run takes). Found at the
 * compiled code's positions, before they become the source's (`withOriginalLocations`).
 */
export interface CompilerAddedCode {
  /**
   * Functions not profiled, with the functions inside them, as [start, end] offsets: those none of whose lines
   * has a mapping, re-exports' getters and enums' functions.
   */
  readonly functions: [number, number][];
  /**
   * Straight-line code: statements none of whose lines has a mapping, which neither leave their function's
   * code nor suspend it (no `return`, `break`, `continue`, `yield`, `await` outside the functions in them),
   * the objects an `enum` or `namespace` is made in (`E || (E = {})`), the types decorators are told of
   * (`__metadata(…)`) and the values of `return`s on such lines.
   */
  readonly straightLine: ReadonlySet<t.Node>;
  /** Functions that are the compiler's, while the functions in them are the source's (a class's wrapper). */
  readonly unprofiled: ReadonlySet<t.Node>;
  /**
   * The functions a compiler made of a construct of the source, named as the source's is: `namespace N`, a
   * class's members below ES2015 (`C.constructor`, `C.m`).
   */
  readonly names: ReadonlyMap<t.Node, string>;
}

/**
 * A line tells: TypeScript moves an async function's body into a generator whose `function* () {` starts on an
 * unmapped line (`return __awaiter(this, void 0, void 0, function* () {`) while its body is mapped, so a
 * function is the compiler's only when none of its lines is mapped.
 */
export function compilerAddedCode(program: t.Program, map: TraceMap): CompilerAddedCode {
  const lines = decodedMappings(map);
  const unmapped = (node: t.Node): boolean => {
    const loc = node.loc;
    if (!loc) return false;
    for (let line = loc.start.line; line <= loc.end.line; line++) {
      if ((lines[line - 1]?.length ?? 0) > 0) return false;
    }
    return true;
  };
  const functions: [number, number][] = [];
  const straightLine = new Set<t.Node>();
  const names = new Map<t.Node, string>();
  const unprofiled = new Set<t.Node>();
  const visit = (node: t.Node): void => {
    // `emitDecoratorMetadata`'s types: `__metadata("design:paramtypes", [typeof (_a = typeof m_1.T !==
    // "undefined" && m_1.T) === "function" ? _a : Object])`, three paths of `<program>` per imported type.
    if (t.isCallExpression(node) && calleeName(node.callee) === '__metadata') {
      straightLine.add(node);
      return;
    }
    const compiled = compiledClass(node);
    if (compiled) {
      unprofiled.add(compiled.wrapper);
      for (const [fn, name] of compiled.names) names.set(fn, name);
    }
    // A `return` the compiler wrote (a derived class's constructor below ES2015: `return _super !== null &&
    // _super.apply(this, arguments) || this;`): its value is straight-line code.
    if (t.isReturnStatement(node) && node.argument && unmapped(node) && staysInItsCode(node.argument))
      straightLine.add(node.argument);
    const getter = reexportGetter(node);
    if (getter && getter.start != null && getter.end != null) functions.push([getter.start, getter.end]);
    const made = madeIn(node);
    if (made) {
      straightLine.add(made.holder);
      if (!made.isEnum) names.set(made.body, `namespace ${made.name}`);
      else if (made.body.start != null && made.body.end != null)
        functions.push([made.body.start, made.body.end]);
    }
    if (t.isFunction(node) && unmapped(node)) {
      if (node.start != null && node.end != null) functions.push([node.start, node.end]);
      return;
    }
    if (t.isStatement(node) && !t.isFunctionDeclaration(node) && !t.isClassDeclaration(node)) {
      if (unmapped(node) && staysInItsCode(node)) {
        straightLine.add(node);
        // Its functions are the compiler's too.
        forEachChild(node, function inner(child) {
          if (t.isFunction(child) && child.start != null && child.end != null)
            functions.push([child.start, child.end]);
          else forEachChild(child, inner);
        });
        return;
      }
    }
    forEachChild(node, visit);
  };
  visit(program);
  return { functions, straightLine, unprofiled, names };
}

/**
 * An `enum` or a `namespace` as TypeScript writes it for CommonJS: `(function (E) { E[E["A"] = 0] = "A"; })(E
 * || (exports.E = E = {}))`, a namespace inside another `(function (B) { … })(B = A.B || (A.B = {}))`. The
 * argument (`holder`) tests whether an earlier declaration of the same name made the object: a decision of the
 * compiled code, not of the source. An enum's function (every statement `E[…] = …`) is the compiler's too: a
 * namespace's function is its body, the source's code, named as Babel's own TypeScript gives it.
 */
function madeIn(
  node: t.Node,
): { holder: t.Expression; body: t.FunctionExpression; name: string; isEnum: boolean } | null {
  if (!t.isCallExpression(node) || node.arguments.length !== 1) return null;
  const body = node.callee;
  const [holder] = node.arguments;
  if (!t.isFunctionExpression(body) || body.params.length !== 1 || !t.isIdentifier(body.params[0]))
    return null;
  if (!t.isExpression(holder)) return null;
  const either = t.isAssignmentExpression(holder) ? holder.right : holder;
  if (!t.isLogicalExpression(either, { operator: '||' })) return null;
  let made: t.Expression = either.right;
  while (t.isAssignmentExpression(made, { operator: '=' })) made = made.right;
  if (!t.isObjectExpression(made) || made.properties.length > 0) return null;
  const name = body.params[0].name;
  const isEnum = body.body.body.every(
    (s) =>
      t.isExpressionStatement(s) &&
      t.isAssignmentExpression(s.expression) &&
      t.isMemberExpression(s.expression.left, { computed: true }) &&
      t.isIdentifier(s.expression.left.object, { name }),
  );
  return { holder, body, name, isEnum };
}

/**
 * The getter of a re-export, as TypeScript writes `export { x } from './m'` for CommonJS:
 * `Object.defineProperty(exports, "x", { enumerable: true, get: function () { return m_1.x; } })`. Its map
 * places it at the export, which has no function in the source (a barrel file's `index.ts` had one `get` per
 * line, each a function of one path).
 */
function reexportGetter(node: t.Node): t.FunctionExpression | null {
  if (!t.isCallExpression(node) || node.arguments.length !== 3) return null;
  const [target, name, descriptor] = node.arguments;
  if (
    !t.isMemberExpression(node.callee) ||
    !t.isIdentifier(node.callee.object, { name: 'Object' }) ||
    !t.isIdentifier(node.callee.property, { name: 'defineProperty' }) ||
    !t.isIdentifier(target, { name: 'exports' }) ||
    !t.isStringLiteral(name) ||
    !t.isObjectExpression(descriptor)
  )
    return null;
  for (const property of descriptor.properties) {
    if (!t.isObjectProperty(property) || !t.isIdentifier(property.key, { name: 'get' })) continue;
    const get = property.value;
    if (!t.isFunctionExpression(get) || get.params.length !== 0 || get.body.body.length !== 1) return null;
    const [only] = get.body.body;
    return t.isReturnStatement(only) && t.isMemberExpression(only.argument) ? get : null;
  }
  return null;
}

/**
 * `added`'s straight-line code, less the pieces with a call that `splitCalls` gives a call vertex
 * (interprocedural mode: a helper that calls one of the file's functions), which must be built as they are.
 */
export function straightLineCode(
  added: CompilerAddedCode,
  splitCalls: ReadonlySet<t.Node> | undefined,
): ReadonlySet<t.Node> {
  if (!splitCalls?.size) return added.straightLine;
  return new Set(
    [...added.straightLine].filter((piece) => !hasOwnNode(piece, (node) => splitCalls.has(node))),
  );
}

/** No jump out of `code` and no suspension in it, outside the functions it contains. */
function staysInItsCode(code: t.Node): boolean {
  return !hasOwnNode(
    code,
    (node) =>
      t.isReturnStatement(node) ||
      t.isBreakStatement(node) ||
      t.isContinueStatement(node) ||
      t.isYieldExpression(node) ||
      t.isAwaitExpression(node),
  );
}

/** Whether `test` holds for a node of `code`, `code` included, outside the functions in it. */
function hasOwnNode(code: t.Node, test: (node: t.Node) => boolean): boolean {
  let found = false;
  const visit = (node: t.Node): void => {
    if (found || t.isFunction(node)) return;
    if (test(node)) found = true;
    else forEachChild(node, visit);
  };
  visit(code);
  return found;
}

/** TypeScript's helpers that run a function's body moved into a function of their last argument. */
const BODY_RUNNERS = new Set(['__awaiter', '__generator']);

/**
 * The functions whose whole code is a compiler's call running their body in another function: TypeScript
 * below ES2017 compiles `async function f() { body }` to `function f() { return __awaiter(this, void 0,
 * void 0, function* () { body }); }` (below ES2015, that generator to `function () { return __generator(this,
 * function (_a) { … }); }`). The user wrote one function, so the body is reported as it, under its name and at
 * its place, and the shells are not profiled: there were two functions, one path in `f` and every decision in
 * an `<anonymous>` at the body's line.
 */
export function compilerShells(roots: readonly t.Node[]): {
  /** The shells, not profiled. */
  readonly shells: ReadonlySet<t.Node>;
  /** Per function holding a body, its outermost shell. */
  readonly shellOf: ReadonlyMap<t.Node, t.Node>;
} {
  const inner = new Map<t.Node, t.Node>();
  for (const root of roots) {
    if (!t.isFunction(root)) continue;
    const call = t.isBlockStatement(root.body) ? returnedAfterTemporaries(root.body.body) : root.body;
    if (!t.isCallExpression(call) || !BODY_RUNNERS.has(calleeName(call.callee) ?? '')) continue;
    const last = call.arguments[call.arguments.length - 1];
    if (t.isFunctionExpression(last)) inner.set(root, last);
  }
  const shellOf = new Map<t.Node, t.Node>();
  const innermost = new Set(inner.values());
  for (const [shell, first] of inner) {
    if (innermost.has(shell)) continue;
    let body = first;
    for (let next = inner.get(body); next; next = inner.get(body)) body = next;
    shellOf.set(body, shell);
  }
  return { shells: new Set(inner.keys()), shellOf };
}

/** `x` of a body `var a, b; return x;` (below ES2015, the generator's temporaries are declared first). */
function returnedAfterTemporaries(body: readonly t.Statement[]): t.Expression | null {
  const last = body[body.length - 1];
  if (!t.isReturnStatement(last) || !last.argument) return null;
  for (let i = 0; i < body.length - 1; i++) {
    const s = body[i];
    if (!t.isVariableDeclaration(s) || s.declarations.some((d) => d.init || !t.isIdentifier(d.id)))
      return null;
  }
  return last.argument;
}

/** `__awaiter` of `__awaiter(…)`, `tslib_1.__awaiter(…)` (`importHelpers`) and `(0, tslib_1.__awaiter)(…)`. */
function calleeName(callee: t.Node): string | null {
  if (t.isSequenceExpression(callee)) return calleeName(callee.expressions[callee.expressions.length - 1]);
  if (t.isIdentifier(callee)) return callee.name;
  if (t.isMemberExpression(callee) && !callee.computed && t.isIdentifier(callee.property))
    return callee.property.name;
  return null;
}
