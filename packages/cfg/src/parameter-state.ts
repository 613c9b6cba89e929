import * as t from '@babel/types';
import type { ControlFlowGraph } from './control-flow-graph';
import type { FreshName } from './fresh-names';

// Read once: @babel/types' exports are getters, which V8 does not inline on these hot paths.
const {
  assignmentExpression,
  callExpression,
  cloneNode,
  getBindingIdentifiers,
  identifier,
  isAssignmentPattern,
  isBlockStatement,
  isClassDeclaration,
  isFunctionDeclaration,
  isIdentifier,
  isRestElement,
  isTSParameterProperty,
  isVariableDeclarator,
  logicalExpression,
  memberExpression,
  newExpression,
  numericLiteral,
  traverseFast,
  variableDeclaration,
  variableDeclarator,
} = t;

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
    const p = isTSParameterProperty(param) ? param.parameter : param;
    return (
      isIdentifier(p) ||
      (isAssignmentPattern(p) && isIdentifier(p.left)) ||
      (isRestElement(p) && isIdentifier(p.argument))
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
      (isVariableDeclarator(n) || isFunctionDeclaration(n) || isClassDeclaration(n)) &&
      'arguments' in getBindingIdentifiers(n)
    )
      found = true;
  };
  for (const p of fn.params) if ('arguments' in getBindingIdentifiers(p)) found = true;
  if (isBlockStatement(fn.body)) traverseFast(fn.body, visit);
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
    if (this.handoff) declarators.push(variableDeclarator(cloneNode(this.handoff), numericLiteral(0)));
    if (this.states) declarators.push(variableDeclarator(cloneNode(this.states)));
    return declarators.length ? [variableDeclaration('var', declarators)] : [];
  }

  private handoffCarrier(): StateCarrier {
    const id = (this.handoff ??= this.fresh('pp_params'));
    return {
      read: () => cloneNode(id),
      write: (value) => assignmentExpression('=', cloneNode(id), value),
      clear: () => assignmentExpression('=', cloneNode(id), numericLiteral(0)),
    };
  }

  private argumentsCarrier(): StateCarrier {
    const id = (this.states ??= this.fresh('pp_states'));
    // Created on first use: a function can run before the module body that would initialise it (cycles).
    const map = () =>
      logicalExpression(
        '||',
        cloneNode(id),
        assignmentExpression('=', cloneNode(id), newExpression(identifier('WeakMap'), [])),
      );
    const call = (method: string, args: t.Expression[]) =>
      callExpression(memberExpression(map(), identifier(method)), [identifier('arguments'), ...args]);
    return { read: () => call('get', []), write: (value) => call('set', [value]), clear: () => null };
  }
}
