import * as t from '@babel/types';
import { parse } from '@babel/parser';
import type { FreshName } from './fresh-names';

/**
 * `yield* e` and `for await (… of e)` suspend and resume the activation with no place for code: a delegating
 * generator is suspended while its caller runs and runs again (inside `yield*`) each time its caller steps
 * it; a `for await` loop suspends after asking for each value. So the iterable becomes a helper's wrapper of
 * its iterator whose methods run the plan's code around each step:
 *
 *     yield* e          →   yield* helper(e, kind, () => (resume…), () => (suspend…))
 *     for await (x of e) →  for await (x of helper(e, 'for-await', null, () => (suspend…)))
 *
 * The helper gets the iterator as `GetIterator` does (an async iterator for an async generator's `yield*` and
 * for `for await`, else a sync one; a sync iterator where an async one is wanted is left for the engine to
 * adapt, since the wrapper then offers only `Symbol.iterator`), reads `next` once, and looks `return` and
 * `throw` up on the iterator each time the engine does (getters), so an iterator without them behaves as
 * before. Each step calls `resume` (the delegating generator runs while its delegate steps), then the
 * iterator's method with the same arguments, then `suspend`, even when it throws. For `yield*` the helper
 * also suspends once it has the iterator: the generator is away until the engine's first step. A `for await`
 * loop over a sync iterable closes the engine's async adapter, whose `return()` is awaited even when the
 * iterator has none: the activation suspends when the adapter looks `return` up. Messages of errors for
 * values that are not iterable describe the value, not the source text.
 */
export class SuspendingIteration {
  private helper: t.Identifier | null = null;

  constructor(private readonly fresh: FreshName) {}

  wrap(
    iterable: t.Expression,
    kind: 'delegate' | 'async-delegate' | 'for-await',
    resume: t.Expression[] | null,
    suspend: t.Expression[],
  ): t.Expression {
    const helper = (this.helper ??= this.fresh('pp_steps'));
    const arrow = (code: t.Expression[]) =>
      t.arrowFunctionExpression(
        [],
        code.length === 1 ? code[0] : t.sequenceExpression(code.map((c) => t.cloneNode(c))),
      );
    return t.callExpression(t.cloneNode(helper), [
      iterable,
      t.stringLiteral(kind),
      resume && resume.length ? arrow(resume) : t.nullLiteral(),
      suspend.length ? arrow(suspend) : t.nullLiteral(),
    ]);
  }

  /** The helper's declaration when some iteration used it: first in the program, hoisted. */
  declarations(): t.Statement[] {
    if (!this.helper) return [];
    const declaration = parse(HELPER_SOURCE).program.body[0] as t.FunctionDeclaration;
    declaration.id = t.cloneNode(this.helper);
    return [declaration];
  }
}

const HELPER_SOURCE = `function helper(iterable, kind, resume, suspend) {
  var async = kind !== 'delegate';
  function method(value, key) {
    if (value === null || value === undefined) throw new TypeError(String(value) + ' is not iterable');
    var m = value[key];
    if (m === null || m === undefined) return undefined;
    if (typeof m !== 'function') throw new TypeError(typeof m + ' is not a function');
    return m;
  }
  function step(fn, self, args) {
    if (resume) resume();
    try {
      return Reflect.apply(fn, self, args);
    } finally {
      if (suspend) suspend();
    }
  }
  var m = async ? method(iterable, Symbol.asyncIterator) : undefined;
  var isAsync = m !== undefined;
  if (!isAsync) {
    m = method(iterable, Symbol.iterator);
    if (m === undefined) throw new TypeError(typeof iterable + ' is not iterable');
  }
  var iterator = Reflect.apply(m, iterable, []);
  if (iterator === null || (typeof iterator !== 'object' && typeof iterator !== 'function'))
    throw new TypeError('Result of the Symbol.iterator method is not an object');
  var next = iterator.next;
  function forwarded(name) {
    var f = iterator[name];
    if (name === 'return' && kind === 'for-await' && !isAsync && suspend) suspend();
    if (f === null || f === undefined || typeof f !== 'function') return f;
    return function () {
      return step(f, iterator, arguments);
    };
  }
  var wrapper = {
    next: function () {
      return step(next, iterator, arguments);
    },
    get return() {
      return forwarded('return');
    },
    get throw() {
      return forwarded('throw');
    },
  };
  wrapper[isAsync ? Symbol.asyncIterator : Symbol.iterator] = function () {
    return wrapper;
  };
  if (kind !== 'for-await' && suspend) suspend();
  return wrapper;
}`;
