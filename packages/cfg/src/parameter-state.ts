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

/**
 * The carriers of one file. A function's body starts right after its parameters are bound, so its state
 * can wait in one file-level variable (the handoff), emptied whenever it is read: code that runs inside a
 * default finds it empty. A generator's body starts only at its first `next()`, so its state waits in a
 * WeakMap keyed by the activation's `arguments` object, which the defaults and the body both see.
 */
export class ParameterStateCarriers {
  private handoff: t.Identifier | null = null;
  private states: t.Identifier | null = null;

  constructor(private readonly fresh: FreshName) {}

  forGraph(cfg: ControlFlowGraph): StateCarrier {
    return cfg.isGenerator ? this.argumentsCarrier() : this.handoffCarrier();
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
