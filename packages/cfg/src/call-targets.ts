import * as t from '@babel/types';
import type { NodePath } from '@babel/traverse';

/**
 * The calls of a file whose callee is known statically: a plain call `f(…)` of a function declared in the
 * same file that nothing can rebind, so the function it enters is fixed before the program runs. Such a call
 * can hand state to its callee (interprocedural paths, calling contexts), provided nothing runs between the
 * hand-off and the callee's first code that takes it; that last condition depends on the callee's parameters
 * after lowering, so the instrumenter checks it (`acceptsHandOff`).
 */
export interface CallTargets {
  /** Each such call, with the function it enters. */
  readonly calleeOf: ReadonlyMap<t.CallExpression, t.Function>;
  /**
   * The plain calls of such functions that cannot hand state over all the same, with the function each
   * enters and why: an async function or a generator (its body resumes later), or spread arguments.
   */
  readonly refusedCalls: ReadonlyMap<t.CallExpression, RefusedCall>;
  /**
   * The functions referenced other than as the callee of one of those calls (exported, passed as a value,
   * called with a spread argument or from a parameter list): they can be entered without such a call.
   */
  readonly escaping: ReadonlySet<t.Function>;
}

/** Why a call of a statically known function hands nothing to it (`parameters`: `acceptsHandOff` refuses). */
export type RefusalReason = 'async' | 'generator' | 'spread' | 'parameters';

export interface RefusedCall {
  readonly fn: t.Function;
  readonly why: RefusalReason;
}

/**
 * Finds the statically known calls, from Babel's scope (before any rewrite). Candidates are function
 * declarations in a program or function body (not in nested blocks, whose sloppy-mode binding is split in
 * two by Annex B) and `const` bindings of function or arrow expressions, never reassigned, neither async nor
 * generators (their bodies resume later, so they always start paths of their own). A file with `with` or a
 * direct `eval` has none: either can rebind any name at run time. The top-level bindings of a classic script
 * are globals of its realm, which any other script can call: they escape. A script that uses `module`,
 * `exports` or `require` is taken for CommonJS, whose top level is the module wrapper's own scope.
 */
export function findCallTargets(program: NodePath<t.Program>): CallTargets {
  const calleeOf = new Map<t.CallExpression, t.Function>();
  const refusedCalls = new Map<t.CallExpression, RefusedCall>();
  const escaping = new Set<t.Function>();
  if (hasDynamicScope(program.node)) return { calleeOf, refusedCalls, escaping };
  const sharedTopLevel =
    program.node.sourceType === 'script' &&
    !['module', 'exports', 'require'].some((n) => program.scope.hasGlobal(n));
  const consider = (fn: t.Function, declaration: NodePath, name: string, exported: boolean): void => {
    const binding = declaration.scope.getBinding(name);
    if (!binding || binding.path !== declaration || !binding.constant) return;
    const resumes = fn.async || fn.generator;
    if (exported && !resumes) escaping.add(fn);
    for (const ref of binding.referencePaths) {
      const call = ref.parentPath;
      const plain =
        call?.isCallExpression() &&
        call.node.callee === ref.node &&
        !inParameterList(call) &&
        !isAssignmentTarget(call);
      const spread =
        plain && call.node.arguments.some((a) => t.isSpreadElement(a) || t.isArgumentPlaceholder(a));
      if (plain && resumes) refusedCalls.set(call.node, { fn, why: fn.async ? 'async' : 'generator' });
      if (resumes) continue;
      if (plain && !spread) calleeOf.set(call.node, fn);
      else escaping.add(fn);
      if (spread) refusedCalls.set(call.node, { fn, why: 'spread' });
    }
  };
  program.traverse({
    FunctionDeclaration(path) {
      const parent = path.parentPath;
      const exported =
        parent.isExportNamedDeclaration() ||
        parent.isExportDefaultDeclaration() ||
        (sharedTopLevel && parent.isProgram());
      const inBody =
        parent.isProgram() || (parent.isBlockStatement() && parent.parentPath.isFunction()) || exported;
      if (!path.node.id || !inBody) return;
      // A declaration's binding lives in the scope around it, not in the function's own.
      consider(path.node, path, path.node.id.name, exported);
    },
    VariableDeclarator(path) {
      const { id, init } = path.node;
      const declaration = path.parentPath;
      if (!t.isIdentifier(id) || !declaration.isVariableDeclaration({ kind: 'const' })) return;
      if (!t.isFunctionExpression(init) && !t.isArrowFunctionExpression(init)) return;
      const outer = declaration.parentPath;
      consider(
        init,
        path,
        id.name,
        outer.isExportNamedDeclaration() || (sharedTopLevel && outer.isProgram()),
      );
    },
  });
  return { calleeOf, refusedCalls, escaping };
}

/**
 * Whether a call can hand state to `fn` (interprocedural paths, calling contexts): its parameters are plain
 * names, with or without defaults, or `...rest` of a name. Binding them runs no code but the defaults, and
 * each default that runs is a path decision whose wrapper takes the state first (parameter-state.ts), so the
 * hand-off reaches the callee's first code with nothing in between. A destructuring parameter reads its
 * value (getters, iterators) while being bound, before any code of the callee could take the state.
 */
export function acceptsHandOff(fn: t.Function): boolean {
  return fn.params.every(
    (param) =>
      t.isIdentifier(param) ||
      (t.isAssignmentPattern(param) && t.isIdentifier(param.left)) ||
      (t.isRestElement(param) && t.isIdentifier(param.argument)),
  );
}

/**
 * Whether a call is assigned to (`f() = 1`, `f()++`, `for (f() in o)`): sloppy code allows it, the call runs
 * and a ReferenceError follows (Annex B, test262 annexB/language/expressions/assignmenttargettype), but only a
 * call may stand there, not the sequence a split call becomes (an early SyntaxError).
 */
function isAssignmentTarget(call: NodePath<t.CallExpression>): boolean {
  const { parent } = call;
  const node = call.node as t.Node;
  return (
    ((t.isAssignmentExpression(parent) || t.isForInStatement(parent) || t.isForOfStatement(parent)) &&
      parent.left === node) ||
    (t.isUpdateExpression(parent) && parent.argument === node)
  );
}

/** A call evaluated while parameters are bound runs before its function's body, in the caller's time. */
function inParameterList(path: NodePath): boolean {
  for (let p: NodePath | null = path; p && !p.isProgram(); p = p.parentPath) {
    if (p.listKey === 'params' && p.parentPath?.isFunction()) return true;
    if (p.isFunction()) return false;
  }
  return false;
}

function hasDynamicScope(program: t.Program): boolean {
  let dynamic = false;
  t.traverseFast(program, (n) => {
    if (t.isWithStatement(n) || (t.isCallExpression(n) && t.isIdentifier(n.callee, { name: 'eval' })))
      dynamic = true;
  });
  return dynamic;
}
