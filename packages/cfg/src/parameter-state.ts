import * as t from '@babel/types';
import type { ControlFlowGraph } from './control-flow-graph';
import type { FreshName } from './fresh-names';

/**
 * Where an activation's state (its path register, its trace activation) waits between the parameter
 * defaults that are path decisions and the body: each default's wrapper reads it and writes it back, the
 * body's prologue reads it.
 */
export interface StateCarrier {
  /** The state left so far; falsy when nothing ran yet. */
  read(): t.Expression;
  write(value: t.Expression): t.Expression;
  /** Leaves nothing behind for other activations once read; null when there is nothing to clear. */
  clear(): t.Expression | null;
}

/** Every parameter is a plain name, with or without a default, or `...rest`: binding runs only defaults. */
export function hasPlainParameters(fn: t.Function): boolean {
  return fn.params.every((param) => {
    const p = t.isTSParameterProperty(param) ? param.parameter : param;
    return (
      t.isIdentifier(p) ||
      (t.isAssignmentPattern(p) && t.isIdentifier(p.left)) ||
      (t.isRestElement(p) && t.isIdentifier(p.argument))
    );
  });
}

/**
 * Whether an activation's state waits under its `arguments` rather than in the handoff: a generator's body
 * starts later, and a destructuring parameter's reads (getters) can call other functions, which must not
 * find the state in the handoff; if such a read throws, the state is simply dropped with `arguments`.
 */
export function keepsParameterStateByArguments(fn: t.Function): boolean {
  return fn.generator || !hasPlainParameters(fn);
}

/**
 * A parameter or a declaration in the body named `arguments` would hide the activation's `arguments`
 * object from the body (conservative: nested functions' declarations count too).
 */
export function declaresArguments(fn: t.Function): boolean {
  let found = false;
  const visit = (n: t.Node): void => {
    if (
      (t.isVariableDeclarator(n) || t.isFunctionDeclaration(n) || t.isClassDeclaration(n)) &&
      'arguments' in t.getBindingIdentifiers(n)
    )
      found = true;
  };
  for (const p of fn.params) if ('arguments' in t.getBindingIdentifiers(p)) found = true;
  if (t.isBlockStatement(fn.body)) t.traverseFast(fn.body, visit);
  return found;
}

/**
 * The carriers of one file. A function's body starts right after its parameters are bound, so its state
 * can wait in one file-level variable (the handoff), emptied whenever it is read: code that runs inside a
 * default finds it empty. Otherwise (`keepsParameterStateByArguments`) it waits in a WeakMap keyed by the
 * activation's `arguments` object, which the defaults and the body both see.
 */
export class ParameterStateCarriers {
  private handoff: t.Identifier | null = null;
  private states: t.Identifier | null = null;

  constructor(private readonly fresh: FreshName) {}

  forGraph(cfg: ControlFlowGraph): StateCarrier {
    return keepsParameterStateByArguments(cfg.node as t.Function)
      ? this.argumentsCarrier()
      : this.handoffCarrier();
  }

  /** `var _pp_params = 0, _pp_states;` for the carriers in use, first in the program. */
  declarations(): t.Statement[] {
    const declarators: t.VariableDeclarator[] = [];
    if (this.handoff) declarators.push(t.variableDeclarator(t.cloneNode(this.handoff), t.numericLiteral(0)));
    if (this.states) declarators.push(t.variableDeclarator(t.cloneNode(this.states)));
    return declarators.length ? [t.variableDeclaration('var', declarators)] : [];
  }

  private handoffCarrier(): StateCarrier {
    const id = (this.handoff ??= this.fresh('pp_params'));
    return {
      read: () => t.cloneNode(id),
      write: (value) => t.assignmentExpression('=', t.cloneNode(id), value),
      clear: () => t.assignmentExpression('=', t.cloneNode(id), t.numericLiteral(0)),
    };
  }

  private argumentsCarrier(): StateCarrier {
    const id = (this.states ??= this.fresh('pp_states'));
    // Created on first use: a function can run before the module body that would initialise it (cycles).
    const map = () =>
      t.logicalExpression(
        '||',
        t.cloneNode(id),
        t.assignmentExpression('=', t.cloneNode(id), t.newExpression(t.identifier('WeakMap'), [])),
      );
    const call = (method: string, args: t.Expression[]) =>
      t.callExpression(t.memberExpression(map(), t.identifier(method)), [t.identifier('arguments'), ...args]);
    return { read: () => call('get', []), write: (value) => call('set', [value]), clear: () => null };
  }
}
