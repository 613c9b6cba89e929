import * as t from '@babel/types';
import type { ControlFlowGraph } from './control-flow-graph';
import type { FunctionLocals } from './edge-code-plan';
import type { FreshName } from './fresh-names';
import { variableDeclaration, variableDeclarator } from './emitted-nodes';

// Read once: @babel/types' exports are getters, which V8 does not inline on these hot paths.
const { cloneNode, isAssignmentExpression, isExpressionStatement, isIdentifier, traverseFast } = t;

/**
 * The hidden locals one activation's inserted code needs, created on first use with names that collide
 * with nothing in the file. One value temporary serves every `(t = e, code, t)` of a function: each is
 * read right after it is written, with only inserted code in between.
 */
export class FunctionTemps implements FunctionLocals {
  private readonly names = new Map<string, t.Identifier>();
  private readonly order: t.Identifier[] = [];
  /** Per hint, how many of the function's temporaries have it (the next one's place among `shared`'s). */
  private readonly hinted = new Map<string, number>();

  constructor(
    private readonly fresh: FreshName,
    readonly cfg: ControlFlowGraph,
    /** Top-level temporaries of a classic script must be `var`: scripts share one global lexical scope. */
    private readonly scriptTopLevel: boolean,
    /** Names shared with the other functions at the graph's depth; without, names of the function's own. */
    private readonly shared: { names: NestedNames; depth: number } | null = null,
  ) {}

  /** The temporary for `purpose` (e.g. `value`, `k:12`), the same identifier for the same purpose. */
  get(purpose: string, hint: string): t.Identifier {
    let id = this.names.get(purpose);
    if (!id) {
      if (this.shared) {
        const nth = this.hinted.get(hint) ?? 0;
        this.hinted.set(hint, nth + 1);
        id = this.shared.names.get(this.shared.depth, hint, nth);
      } else id = this.fresh(hint);
      this.names.set(purpose, id);
      this.order.push(id);
    }
    return cloneNode(id);
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
      const e = isExpressionStatement(s) ? s.expression : null;
      if (!isAssignmentExpression(e) || e.operator !== '=' || !isIdentifier(e.left)) break;
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
      variableDeclaration(
        kind,
        this.order.map((id) => variableDeclarator(cloneNode(id))),
      ),
    ];
  }
}

/**
 * Names for the hidden locals of functions, the same for every function at one depth of nesting (how many
 * graphs' nodes hold the function's): a function's locals are declared in its body, and the only declarations
 * between them and its code are those of the functions around that code inside it, which are deeper. Unique
 * names per function spent 9,600 numbers of 2–4 digits on lodash's inserted names.
 */
export class NestedNames {
  private readonly names = new Map<string, t.Identifier>();

  constructor(private readonly fresh: FreshName) {}

  /** The `nth` name with `hint` of the functions at `depth`. */
  get(depth: number, hint: string, nth: number): t.Identifier {
    const key = `${depth}:${nth}:${hint}`;
    let id = this.names.get(key);
    if (!id) {
      id = this.fresh(hint);
      this.names.set(key, id);
    }
    return id;
  }
}

/** Whether `e` reads one of `names`. */
function readsAny(e: t.Node, names: ReadonlyMap<string, number>): boolean {
  let reads = false;
  traverseFast(e, (n) => {
    if (isIdentifier(n) && names.has(n.name)) reads = true;
  });
  return reads;
}
