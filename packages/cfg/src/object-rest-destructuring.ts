import * as t from '@babel/types';
import { parse } from '@babel/parser';
import type { FreshName } from './fresh-names';
import { seq } from './expression-builders';

/**
 * A rest element copies the value's own properties (proxy traps, getters) right after the property before
 * it, with no place for code in between. When a declarator's object pattern needs code there, its value is
 * wrapped in a proxy that forwards every property read to the value and remembers the keys read; the rest
 * element becomes one more property, whose read makes the copy:
 *
 *     const { a = D, ...rest } = E   →   const { a = D, [(code, REST)]: rest } = helper(E)
 *
 * `REST` is `Symbol.for("pathprof.rest")`, a key no program reads from a value it destructures. The proxy
 * reads with the value as receiver (`GetV`), and the copy follows CopyDataProperties (own keys in order,
 * enumerable ones only, keys read before excluded), so the value sees the same operations in the same
 * order. `null` and `undefined` are not wrapped: destructuring them throws the engine's own TypeError (which
 * may quote the helper's call where it would quote the source).
 */
export class ObjectRestDestructuring {
  private helper: t.Identifier | null = null;

  constructor(private readonly fresh: FreshName) {}

  /** The declarator's rest element as a property read from the wrapped value, `code` before it. */
  rewrite(d: t.VariableDeclarator & { id: t.ObjectPattern }, code: t.Expression[]): void {
    const helper = (this.helper ??= this.fresh('pp_object'));
    const properties = d.id.properties;
    const rest = properties[properties.length - 1] as t.RestElement;
    const key = t.callExpression(t.memberExpression(t.identifier('Symbol'), t.identifier('for')), [
      t.stringLiteral(REST_KEY),
    ]);
    properties[properties.length - 1] = t.objectProperty(seq([...code, key]), rest.argument, true);
    const declarator: t.VariableDeclarator = d;
    declarator.init = t.callExpression(t.cloneNode(helper), [d.init!]);
  }

  /** The helper's declaration when some pattern was rewritten: first in the program, hoisted. */
  declarations(): t.Statement[] {
    if (!this.helper) return [];
    const declaration = parse(HELPER_SOURCE).program.body[0] as t.FunctionDeclaration;
    declaration.id = t.cloneNode(this.helper);
    return [declaration];
  }
}

const REST_KEY = 'pathprof.rest';

const HELPER_SOURCE = `function helper(value) {
  if (value === null || value === undefined) return value;
  const rest = Symbol.for(${JSON.stringify(REST_KEY)});
  const read = [];
  return new Proxy({}, {
    get(_, key) {
      if (key !== rest) {
        read.push(key);
        return Reflect.get(Object(value), key, value);
      }
      const from = Object(value);
      const copy = {};
      for (const own of Reflect.ownKeys(from)) {
        if (read.includes(own)) continue;
        const descriptor = Reflect.getOwnPropertyDescriptor(from, own);
        if (descriptor === undefined || !descriptor.enumerable) continue;
        Reflect.defineProperty(copy, own, { value: Reflect.get(from, own, from), writable: true, enumerable: true, configurable: true });
      }
      return copy;
    },
  });
}`;
