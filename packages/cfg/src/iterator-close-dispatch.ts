import * as t from '@babel/types';
import type { CloseDispatch, ControlFlowGraph } from './control-flow-graph';
import type { FreshName } from './fresh-names';
import type { FunctionTemps } from './function-temps';
import {
  assignmentExpression,
  blockStatement,
  expressionStatement,
  numericLiteral,
  returnStatement,
  unaryExpression,
} from './emitted-nodes';
import { locatedAt } from './expression-builders';

const { breakStatement, cloneNode, continueStatement, identifier, isReturnStatement, labeledStatement } = t;

/** One dispatch as emitted: the label a jump breaks to, and what runs after the loop's iterator is closed. */
interface DispatchEdits {
  readonly label: t.Identifier;
  /** What a suspension's resumption runs first, then the edge's code. */
  readonly resume: t.Statement[];
  readonly code: t.Statement[];
  readonly reissue: () => t.Statement;
}

/**
 * Emits the graph's `CloseDispatch`es. A jump that leaves a `for…of` becomes a `break` to a label around the
 * loop (a `return` saves its value first), so the iterator is closed before anything after it runs; right
 * after that label's block, the dispatch runs its edge's code and re-issues the jump:
 *
 *     done: { toD2: { toD1: { for (x of it) { … v = e; break toD1; … break toD2; … } break done; }
 *                     <D1's code>; return v; }
 *             <D2's code>; continue outer; }
 *
 * A normal end of the loop (or a `break` of its own) reaches `break done`; every dispatch ends in a jump, so
 * none runs into the next. Labels are fresh; the loop keeps its own labels, innermost.
 */
export class IteratorCloseDispatches {
  /** By graph, in `closeDispatches` order. */
  private readonly byGraph = new Map<ControlFlowGraph, DispatchEdits[]>();
  /** Each loop statement's dispatches, innermost label first. */
  private readonly byStatement = new Map<t.Node, DispatchEdits[]>();
  /** Jump statements that break to a dispatch, and where a `return` saves its value. */
  private readonly jumps = new Map<
    t.Node,
    { readonly label: t.Identifier; readonly value: () => t.Identifier }
  >();

  constructor(private readonly fresh: FreshName) {}

  addGraph(cfg: ControlFlowGraph, temps: FunctionTemps): void {
    if (cfg.closeDispatches.length === 0) return;
    // Asked for only by a `return`: a graph whose dispatches are all `break`/`continue` declares no temporary.
    const value = () => temps.get('close-dispatch', 'pp_rv');
    const edits = cfg.closeDispatches.map((d): DispatchEdits => {
      const reissue = () => reissued(d, edits, value);
      return { label: this.fresh('pp_closed'), resume: [], code: [], reissue };
    });
    this.byGraph.set(cfg, edits);
    cfg.closeDispatches.forEach((d, i) => {
      const list = this.byStatement.get(d.statement) ?? [];
      list.push(edits[i]);
      this.byStatement.set(d.statement, list);
    });
    for (const [jump, index] of cfg.closingJumps) this.jumps.set(jump, { label: edits[index].label, value });
  }

  /** Code for the dispatch's edge, or the resumption after the iterator's `return()` was awaited. */
  addCode(cfg: ControlFlowGraph, index: number, code: readonly t.Statement[], resume = false): void {
    const d = this.byGraph.get(cfg)![index];
    (resume ? d.resume : d.code).push(...code);
  }

  /** What replaces a rewritten jump statement: a `break` to its dispatch, or null when it has none. */
  jumpReplacement(n: t.BreakStatement | t.ContinueStatement | t.ReturnStatement): t.Statement | null {
    const jump = this.jumps.get(n);
    if (!jump) return null;
    const toDispatch = breakStatement(cloneNode(jump.label));
    if (!isReturnStatement(n)) return locatedAt(toDispatch, n);
    // Saved even when there is none: the dispatch returns the variable, which an earlier return may have set.
    const saved = n.argument ?? unaryExpression('void', numericLiteral(0));
    // The saving statement stands where the return did, so a tool after us that counts statements by their
    // place (babel-plugin-istanbul) counts it as the return: nothing else we add has a place.
    const save = expressionStatement(assignmentExpression('=', cloneNode(jump.value()), saved));
    return blockStatement([locatedAt(save, n), toDispatch]);
  }

  /** The loop statement (already rewritten) inside its dispatches, or itself when it has none. */
  wrap(statement: t.Node, rewritten: t.Statement): t.Statement {
    const dispatches = this.byStatement.get(statement);
    if (!dispatches) return rewritten;
    const done = this.fresh('pp_looped');
    let inner = blockStatement([rewritten, breakStatement(cloneNode(done))]);
    for (const d of dispatches) {
      const run = [...d.resume, ...d.code, d.reissue()];
      inner = blockStatement([labeledStatement(cloneNode(d.label), inner), ...run]);
    }
    return labeledStatement(done, inner);
  }
}

function reissued(d: CloseDispatch, edits: readonly DispatchEdits[], value: () => t.Identifier): t.Statement {
  if (d.next !== null) return breakStatement(cloneNode(edits[d.next].label));
  const { jump } = d;
  if (jump.kind === 'return') return returnStatement(cloneNode(value()));
  const label = identifier(jump.label);
  return jump.kind === 'break' ? breakStatement(label) : continueStatement(label);
}
