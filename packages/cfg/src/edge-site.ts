import type * as t from '@babel/types';

/**
 * Where in the AST code must go so that it runs exactly when an edge is taken: the contract between the
 * graph and every instrumenter (`insertEdgeCode` implements it). Sites name original AST nodes; an
 * instrumenter rewrites around them (wrapping a non-block statement in a block, a value in a sequence).
 *
 * Exceptional edges have no site: control leaves the block from wherever the exception arises, so nothing
 * can run on the edge itself. Their effect is observed where the exception lands (a `catch`, a `finally`,
 * or the function-level handler).
 */
export type EdgeSite =
  /** The first thing the activation runs: the start of the function body, after parameters are bound. */
  | { readonly type: 'prologue' }
  /** At the start of a statement list: a block, a `case`, a body that is a single statement (wrapped). */
  | { readonly type: 'listStart'; readonly owner: t.Node; readonly key: string }
  /** At the end of a statement list: runs only when the list completes normally. */
  | { readonly type: 'listEnd'; readonly owner: t.Node; readonly key: string }
  /** Right before a statement (the outermost label of a labeled loop): the entry into a loop. */
  | { readonly type: 'beforeStatement'; readonly statement: t.Statement }
  /** Right after a statement completes normally: the `done` exit of a `for…in`/`for…of` loop. */
  | { readonly type: 'afterStatement'; readonly statement: t.Statement }
  /** Before `break`/`continue`; for `return e`, after `e` is evaluated and before the function returns. */
  | { readonly type: 'jump'; readonly statement: t.BreakStatement | t.ContinueStatement | t.ReturnStatement }
  /** An arrow function's expression body, after it is evaluated: the arrow's implicit return. */
  | { readonly type: 'arrowReturn'; readonly body: t.Expression }
  /** Just before an expression is evaluated. */
  | { readonly type: 'beforeExpression'; readonly expression: t.Expression }
  /** Just after an expression is evaluated, its value unchanged. */
  | { readonly type: 'afterExpression'; readonly expression: t.Expression }
  /** A condition in test position (only its truthiness is used), after it is evaluated, on one outcome. */
  | { readonly type: 'test'; readonly expression: t.Expression; readonly outcome: boolean }
  /** The short-circuit of `a && b`, `a || b`, `a ?? b` used as a value: `b` is skipped, `a` is the value. */
  | { readonly type: 'logicalShort'; readonly expression: t.LogicalExpression }
  /** `x ||= v` and friends: before `v` is evaluated; when `v` is skipped; after `v` is assigned. */
  | { readonly type: 'assignRight'; readonly expression: t.AssignmentExpression }
  | { readonly type: 'assignShort'; readonly expression: t.AssignmentExpression }
  | { readonly type: 'assignDone'; readonly expression: t.AssignmentExpression }
  /** An optional link `?.` found its base `null`/`undefined` (the rest of the chain is skipped), or not. */
  | { readonly type: 'optionalShort'; readonly link: t.Node }
  | { readonly type: 'optionalGo'; readonly link: t.Node }
  /** The end of an optional chain that did not short-circuit: after its last link, before its value is used. */
  | { readonly type: 'chainEnd'; readonly chain: t.OptionalMemberExpression | t.OptionalCallExpression }
  /** A `case` test compared equal to the discriminant, or not. */
  | { readonly type: 'caseMatch'; readonly switchCase: t.SwitchCase }
  | { readonly type: 'caseMiss'; readonly switchCase: t.SwitchCase }
  /** After a `for` loop's initialiser, before its first test. */
  | { readonly type: 'forInit'; readonly statement: t.ForStatement }
  /** After a `for` loop's update expression (or where it would be), before the next test. */
  | { readonly type: 'forUpdate'; readonly statement: t.ForStatement }
  /** After a `finally` block, when the completion that entered it is one of `completions`. */
  | {
      readonly type: 'finallyExit';
      readonly statement: t.TryStatement;
      readonly completions: readonly number[];
    }
  /** At the start of a `finally` block entered by a generator's `return()` at a `yield` (that completion). */
  | { readonly type: 'finallyEntry'; readonly statement: t.TryStatement; readonly completion: number }
  /** A generator resumed by `next()` at this `yield`, before the `yield` expression produces its value. */
  | { readonly type: 'resume'; readonly expression: t.YieldExpression }
  /**
   * Before an object pattern property's key is evaluated and its value read: the key becomes computed,
   * `{ [(code, "a")]: a }`, which reads the same property.
   */
  | { readonly type: 'propertyStart'; readonly property: t.ObjectProperty }
  /**
   * In a declarator's array pattern, before element `index` steps the iterator (`index` = the element count:
   * before the iterator is closed). The pattern becomes an object pattern over a helper that steps the
   * iterator as its properties are read (array-destructuring.ts), and this is its property's key.
   */
  | { readonly type: 'elementStart'; readonly pattern: t.ArrayPattern; readonly index: number }
  /**
   * In such a pattern, before element `index`'s own object pattern destructures the value the step gave:
   * that pattern becomes a declarator of its own over the helper (array-destructuring.ts).
   */
  | { readonly type: 'elementPattern'; readonly pattern: t.ArrayPattern; readonly index: number }
  /**
   * Before a declarator's object pattern copies the rest: the rest element becomes a property read from
   * the wrapped value, and this is its key (object-rest-destructuring.ts).
   */
  | { readonly type: 'restStart'; readonly pattern: t.ObjectPattern }
  /** Before a declarator's initialiser: one more declarator in front of it holds the code. */
  | { readonly type: 'declaratorStart'; readonly declarator: t.VariableDeclarator }
  /**
   * A destructuring default is used: code before (`start`) or after (`end`) its value is computed. An
   * anonymous function or class keeps the name it takes from the binding.
   */
  | { readonly type: 'defaultValue'; readonly pattern: t.AssignmentPattern; readonly part: 'start' | 'end' }
  /** At `ControlFlowGraph.closeDispatches[index]`, after the loop's iterator was closed: before the jump it re-issues. */
  | { readonly type: 'closeDispatch'; readonly index: number }
  /** A generator finished by `return()` at this `yield` with no `finally` in between. */
  | { readonly type: 'generatorReturn'; readonly expression: t.YieldExpression };

export type EdgeSiteType = EdgeSite['type'];
