import * as t from '@babel/types';
import type { ControlFlowGraph } from './control-flow-graph';
import type { FunctionLocals } from './edge-code-plan';
import type { FreshName } from './fresh-names';

/**
 * The hidden locals one activation's inserted code needs, created on first use with names that collide
 * with nothing in the file. One value temporary serves every `(t = e, code, t)` of a function: each is
 * read right after it is written, with only inserted code in between.
 */
export class FunctionTemps implements FunctionLocals {
  private readonly names = new Map<string, t.Identifier>();
  private readonly order: t.Identifier[] = [];

  constructor(
    private readonly fresh: FreshName,
    readonly cfg: ControlFlowGraph,
    /** Top-level temporaries of a classic script must be `var`: scripts share one global lexical scope. */
    private readonly scriptTopLevel: boolean,
  ) {}

  /** The temporary for `purpose` (e.g. `value`, `k:12`), the same identifier for the same purpose. */
  get(purpose: string, hint: string): t.Identifier {
    let id = this.names.get(purpose);
    if (!id) {
      id = this.fresh(hint);
      this.names.set(purpose, id);
      this.order.push(id);
    }
    return t.cloneNode(id);
  }

  /** A fresh name the caller declares itself (a `for` head's extra declarator). */
  undeclared(hint: string): t.Identifier {
    return this.fresh(hint);
  }

  value(): t.Identifier {
    return this.get('value', 'pp_t');
  }

  /**
   * The declarations, then `prologue`, with the prologue's first assignments to temporaries folded into their
   * declarators (`let a = 0, b;` rather than `let a, b; a = 0;`): each in the prologue's order, and none whose
   * value reads a temporary (the folded values run before the later declarators are initialised).
   */
  declarationsBefore(prologue: readonly t.Statement[]): t.Statement[] {
    const [declaration] = this.declarations() as t.VariableDeclaration[];
    if (!declaration) return [...prologue];
    const index = new Map(this.order.map((id, i) => [id.name, i]));
    let last = -1;
    let folded = 0;
    for (const s of prologue) {
      const e = t.isExpressionStatement(s) ? s.expression : null;
      if (!t.isAssignmentExpression(e) || e.operator !== '=' || !t.isIdentifier(e.left)) break;
      const i = index.get(e.left.name);
      if (i === undefined || i <= last || readsAny(e.right, index)) break;
      declaration.declarations[i].init = e.right;
      last = i;
      folded++;
    }
    return [declaration, ...prologue.slice(folded)];
  }

  /** `let a, b;` for every temporary used, or nothing. */
  declarations(): t.Statement[] {
    if (this.order.length === 0) return [];
    const kind = this.scriptTopLevel && this.cfg.kind === 'program' ? 'var' : 'let';
    return [
      t.variableDeclaration(
        kind,
        this.order.map((id) => t.variableDeclarator(t.cloneNode(id))),
      ),
    ];
  }
}

/** Whether `e` reads one of `names`. */
function readsAny(e: t.Node, names: ReadonlyMap<string, number>): boolean {
  let reads = false;
  t.traverseFast(e, (n) => {
    if (t.isIdentifier(n) && names.has(n.name)) reads = true;
  });
  return reads;
}
