import * as t from '@babel/types';
import type { FreshName } from '@pathprof/cfg';
import {
  binaryExpression,
  blockStatement,
  numericLiteral,
  unaryExpression,
  variableDeclaration,
  variableDeclarator,
} from '@pathprof/cfg';

// Read once: @babel/types' exports are getters, which V8 does not inline on these hot paths.
const { arrayExpression, cloneNode, functionDeclaration, ifStatement, returnStatement } = t;

/**
 * Constant-index counts as module-level variables (edge mode; path mode, and interprocedural functions that
 * keep their paths to themselves, where the names are short: CommonJS files and files parsed as modules):
 * `_pp12++` instead of `C[12]++` into the file's counter array. In unoptimised code (Ignition, Sparkplug) a
 * context-slot increment costs 6 / 2.4 ns against 21 / 14 for a typed array's, and every count runs
 * unoptimised until its function is optimised (bench/NOTES.md, "counts in module variables"). The file's
 * preamble declares them `= 0` unless they are set already (a classic script evaluated again in its realm keeps
 * its record and its top-level state, these globals included, and must keep their counts), and its `init()`
 * passes the runtime a `take()` returning them in slot order with the slots as runs (`VariableCounts`): every
 * reader of the file's counts first adds what they gained into the array. Code that may run before an ES
 * module's body keeps counting in the array (`functionsBeforePreamble`). The code only increments the
 * variables: past 2^30 one leaves V8's small-integer range and each increment then stores a heap number, exact
 * (doubles up to 2^53) but slower, in very long runs only.
 */
export class CounterVariables {
  private readonly names = new Map<number, t.Identifier>();
  readonly take: t.Identifier;

  constructor(private readonly fresh: FreshName) {
    this.take = fresh('pp_take');
  }

  /** The variable counting slot `index` of the file's array. */
  variable(index: number): t.Identifier {
    let id = this.names.get(index);
    if (!id) this.names.set(index, (id = this.fresh(`pp${index}`)));
    return cloneNode(id);
  }

  get used(): boolean {
    return this.names.size > 0;
  }

  /** `if (v0 === void 0) var v0 = 0, v1 = 0, …;`: each scope's variables start from 0 once. */
  declaration(): t.Statement {
    const slots = this.slots();
    const unset = binaryExpression(
      '===',
      this.variable(slots[0]),
      unaryExpression('void', numericLiteral(0)),
    );
    const declarators = slots.map((slot) => variableDeclarator(this.variable(slot), numericLiteral(0)));
    return ifStatement(unset, variableDeclaration('var', declarators));
  }

  /** `function take() { return [v, …]; }`, in slot order. */
  takeFunction(): t.FunctionDeclaration {
    const values = arrayExpression(this.slots().map((slot) => this.variable(slot)));
    return functionDeclaration(cloneNode(this.take), [], blockStatement([returnStatement(values)]));
  }

  /** The slots as `[first, end, first, end, …]` (end exclusive): the counted slots are mostly contiguous. */
  runs(): t.ArrayExpression {
    const runs: number[] = [];
    for (const slot of this.slots()) {
      if (runs.length > 0 && runs[runs.length - 1] === slot) runs[runs.length - 1]++;
      else runs.push(slot, slot + 1);
    }
    return arrayExpression(runs.map((n) => numericLiteral(n)));
  }

  private slots(): number[] {
    return [...this.names.keys()].sort((a, b) => a - b);
  }
}
