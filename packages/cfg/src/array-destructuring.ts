import * as t from '@babel/types';
import { parse } from '@babel/parser';
import type { FreshName } from './fresh-names';
import { seq } from './expression-builders';
import { evaluationMayThrow, unwrapTypeScript } from './node-facts';

/**
 * An array pattern steps an iterator before each element, with no place for code in between, so code
 * that tells apart whether the previous element's default was used cannot run there. A declarator's array
 * pattern is therefore rewritten, when some element needs code before its step, into an object pattern over
 * a helper whose property reads step the iterator:
 *
 *     const [a = D, , ...r] = E   →   const { v: a = D, s: {}, r: r, e: {} } = (it = helper(E))
 *
 * `v` steps and gives the value (`undefined` once done), `s` steps for a hole, `r` collects the rest, `e`
 * closes the iterator if it is not done; each key becomes computed, `[(code, "v")]`, where code must run.
 * An element's own object pattern is destructured from a proxy that closes the iterator if a read throws
 * (see `rewrite`).
 * A default that can throw runs in `it.run(() => D)`, which closes the iterator before rethrowing, as an
 * error inside array destructuring does. Everything else follows the specification's iterator protocol
 * (GetIterator, IteratorStepValue, IteratorClose) step for step, so the rewrite calls what the original
 * calls, in the same order. One difference remains: destructuring a value that is not iterable throws a
 * TypeError whose message describes the value, not the source text (`undefined is not iterable`).
 */
export class ArrayDestructuring {
  private helper: t.Identifier | null = null;

  constructor(private readonly fresh: FreshName) {}

  /**
   * The declarator's array pattern as object patterns over the helper, its value wrapped: one declarator,
   * or more when an element has an object pattern of its own. That element's step keeps its value in the
   * helper (`p`, or `q` without a default), and the pattern becomes the next declarator, over a proxy of the
   * value (`it.nested(code…)`) that closes the iterator if a read throws; the elements after it continue in
   * one more declarator over the same helper. The first declarator is `d` itself.
   */
  rewrite(
    d: t.VariableDeclarator & { id: t.ArrayPattern },
    iterator: t.Identifier,
    keyCode: (index: number) => t.Expression[],
    patternCode: (index: number) => t.Expression[],
  ): t.VariableDeclarator[] {
    const elements = d.id.elements;
    const helper = (this.helper ??= this.fresh('pp_array'));
    const property = (index: number, role: string, value: t.Node) => {
      const code = keyCode(index);
      const key = code.length ? seq([...code, t.stringLiteral(role)]) : t.identifier(role);
      return t.objectProperty(key, value as t.PatternLike, code.length > 0);
    };
    const method = (name: string, args: t.Expression[]) =>
      t.callExpression(t.memberExpression(t.cloneNode(iterator), t.identifier(name)), args);
    const declarators: t.VariableDeclarator[] = [];
    let properties: t.ObjectProperty[] = [];
    const flush = () => {
      const pattern = t.objectPattern(properties);
      if (declarators.length === 0) {
        const first: t.VariableDeclarator = d;
        first.id = pattern;
        first.init = t.assignmentExpression(
          '=',
          t.cloneNode(iterator),
          t.callExpression(t.cloneNode(helper), [d.init!]),
        );
        declarators.push(first);
      } else declarators.push(t.variableDeclarator(pattern, t.cloneNode(iterator)));
      properties = [];
    };
    elements.forEach((el, index) => {
      const target = t.isAssignmentPattern(el) ? el.left : el;
      if (el === null) properties.push(property(index, 's', t.objectPattern([])));
      else if (t.isRestElement(el)) properties.push(property(index, 'r', el.argument));
      else if (t.isObjectPattern(target)) {
        const kept = t.isAssignmentPattern(el)
          ? property(index, 'p', t.assignmentPattern(t.objectPattern([]), method('keep', [el.right])))
          : property(index, 'q', t.objectPattern([]));
        properties.push(kept);
        flush();
        declarators.push(t.variableDeclarator(target, method('nested', patternCode(index))));
      } else properties.push(property(index, 'v', el));
    });
    properties.push(property(elements.length, 'e', t.objectPattern([])));
    flush();
    return declarators;
  }

  /** `it.run(() => value)`: closes the iterator if `value` throws. */
  guard(iterator: t.Identifier, value: t.Expression): t.Expression {
    return t.callExpression(t.memberExpression(iterator, t.identifier('run')), [
      t.arrowFunctionExpression([], value),
    ]);
  }

  /** The helper's declaration when some pattern was rewritten: first in the program, hoisted. */
  declarations(): t.Statement[] {
    if (!this.helper) return [];
    const declaration = parse(HELPER_SOURCE).program.body[0] as t.FunctionDeclaration;
    declaration.id = t.cloneNode(this.helper);
    return [declaration];
  }
}

/** Whether a default must run in the guard: anything but a literal or a function creation can throw. */
export function defaultMayThrow(value: t.Expression): boolean {
  return evaluationMayThrow(unwrapTypeScript(value));
}

const HELPER_SOURCE = `function helper(iterable) {
  if (iterable === null || iterable === undefined) throw new TypeError(iterable + " is not iterable");
  const method = iterable[Symbol.iterator];
  if (typeof method !== "function") throw new TypeError(typeof iterable + " is not iterable");
  const iterator = Reflect.apply(method, iterable, []);
  if (Object(iterator) !== iterator) throw new TypeError("Result of the Symbol.iterator method is not an object");
  const next = iterator.next;
  let done = false;
  const step = () => {
    if (done) return undefined;
    try {
      const result = Reflect.apply(next, iterator, []);
      if (Object(result) !== result) throw new TypeError("Iterator result " + String(result) + " is not an object");
      if (result.done) {
        done = true;
        return undefined;
      }
      return result.value;
    } catch (error) {
      done = true;
      throw error;
    }
  };
  let kept;
  const close = () => {
    done = true;
    const method = iterator.return;
    if (method === null || method === undefined) return;
    const result = Reflect.apply(method, iterator, []);
    if (Object(result) !== result) throw new TypeError("Iterator result " + String(result) + " is not an object");
  };
  const abort = () => {
    if (done) return;
    try {
      close();
    } catch {}
  };
  return {
    get v() {
      return step();
    },
    get s() {
      step();
      return this;
    },
    get r() {
      const rest = [];
      for (let n = 0; ; n++) {
        const value = step();
        if (done) return rest;
        Reflect.defineProperty(rest, n, { value, writable: true, enumerable: true, configurable: true });
      }
    },
    get e() {
      if (!done) close();
      return this;
    },
    get p() {
      const value = step();
      if (value === undefined) return undefined;
      kept = value;
      return this;
    },
    get q() {
      kept = step();
      return this;
    },
    keep(value) {
      kept = value;
      return this;
    },
    nested() {
      const value = kept;
      kept = undefined;
      if (value === null || value === undefined) {
        // Destructuring it throws the engine's own TypeError; the iterator is closed first, as it would be.
        abort();
        return value;
      }
      return new Proxy({}, {
        get(_, key) {
          try {
            return Reflect.get(Object(value), key, value);
          } catch (error) {
            abort();
            throw error;
          }
        },
      });
    },
    run(value) {
      try {
        return value();
      } catch (error) {
        abort();
        throw error;
      }
    },
  };
}`;
