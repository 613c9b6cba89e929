import * as t from '@babel/types';
import type { ControlFlowGraph } from './control-flow-graph';
import type { EdgeCodePlan } from './edge-code-plan';
import { FunctionTemps, NestedNames } from './function-temps';
import type { FreshName } from './fresh-names';
import { InsertionEdits } from './insertion-edits';
import { unwrapTypeScript } from './node-facts';
import { locatedAt } from './expression-builders';
import { blockStatement } from './emitted-nodes';

// Read once: @babel/types' exports are getters, which V8 does not inline on these hot paths.
const {
  isArrowFunctionExpression,
  isBlockStatement,
  isClassExpression,
  isExpression,
  isFunctionExpression,
  isIfStatement,
  isLabeledStatement,
  isLoop,
  isOptionalCallExpression,
  isOptionalMemberExpression,
  isProgram,
  isStatement,
  isStaticBlock,
  isSwitchCase,
  isTSModuleBlock,
  isWithStatement,
  VISITOR_KEYS,
} = t;

/**
 * Rewrites a program so that, for every graph the plan includes, the plan's code for each edge runs exactly
 * when that edge is taken (edge-site.ts says where), every activation starts with the plan's prologue, and
 * an exception leaving the activation runs the plan's handler and is rethrown unchanged.
 *
 * All graphs must come from this program's current AST, and the AST is rewritten in one pass, so nested
 * functions are handled together with the functions around them. In a classic script the program's own
 * hidden names come from `topLevelFresh` (names no other script declares). With `depths` (each graph's
 * node's `CfgRoot.depth`), functions at the same depth name their hidden locals alike (`NestedNames`).
 */
export function insertEdgeCode(
  program: t.Program,
  fresh: FreshName,
  graphs: readonly ControlFlowGraph[],
  plan: EdgeCodePlan,
  topLevelFresh: FreshName = fresh,
  depths?: ReadonlyMap<t.Node, number>,
): void {
  const edits = new InsertionEdits(fresh);
  const script = isScript(program);
  const nested = depths ? new NestedNames(fresh) : null;
  for (const cfg of graphs) {
    if (!canInstrument(cfg) || !plan.include(cfg)) continue;
    // A classic script's top-level names are its realm's, shared with every other script there.
    const names = script && cfg.kind === 'program' ? topLevelFresh : fresh;
    // The program's temporaries stay its own (in a classic script they are globals).
    const depth = cfg.kind === 'program' ? 0 : (depths?.get(cfg.node) ?? 0);
    const shared = nested && depth > 0 ? { names: nested, depth } : null;
    edits.addGraph(cfg, plan, new FunctionTemps(names, cfg, script, shared));
  }
  new Rewriter(edits).node(program);
  program.body.unshift(...edits.fileDeclarations());
}

/**
 * Whether code can be put on this graph's edges without changing what the program does. A class field
 * initialised with an anonymous function or class takes the field's name; running code around it would
 * lose that name, and its graph has a single path anyway, so it is left alone.
 */
export function canInstrument(cfg: ControlFlowGraph): boolean {
  if (cfg.kind !== 'class-field') return true;
  const value = (cfg.node as t.ClassProperty).value;
  return !(
    isArrowFunctionExpression(value) ||
    ((isFunctionExpression(value) || isClassExpression(value)) && !value.id)
  );
}

function isScript(program: t.Program): boolean {
  return program.sourceType === 'script';
}

/**
 * Applies the collected edits bottom-up: children first, so a wrapper placed around a node contains that
 * node's own rewritten children. Nodes are identified by the original AST objects the graphs refer to.
 */
class Rewriter {
  constructor(private readonly edits: InsertionEdits) {}

  statementList(list: t.Statement[]): void {
    const out: t.Statement[] = [];
    for (const s of list) {
      const rewritten = this.node(s) as t.Statement;
      out.push(...this.edits.statementsBefore(s), rewritten, ...this.edits.statementsAfter(s));
    }
    list.splice(0, list.length, ...out);
  }

  /** A statement in a position that holds exactly one (an `if` branch, a loop body): wrap it to add code. */
  private singleStatement(s: t.Statement): t.Statement {
    const rewritten = this.node(s) as t.Statement;
    const before = this.edits.statementsBefore(s);
    const after = this.edits.statementsAfter(s);
    if (before.length === 0 && after.length === 0) return rewritten;
    return locatedAt(blockStatement([...before, rewritten, ...after]), s);
  }

  node(n: t.Node): t.Node {
    const e = this.edits;
    switch (n.type) {
      case 'UnaryExpression':
        if (n.operator === 'delete' && isChain(n.argument)) e.markDeletedChain(n.argument);
        break;
      case 'CallExpression':
      case 'TaggedTemplateExpression': {
        const callee = n.type === 'CallExpression' ? n.callee : n.tag;
        if (isExpression(callee) && isChain(unwrapTypeScript(callee)))
          e.markCalledChain(unwrapTypeScript(callee));
        break;
      }
    }
    const listed = e.hasListEdits(n);
    const { keys, kinds } = childKeys(n);
    const record = n as unknown as Record<string, unknown>;
    for (let k = 0; k < keys.length; k++) {
      const key = keys[k];
      const child = record[key];
      if (Array.isArray(child)) {
        if (kinds[k] === STATEMENT_LIST) this.statementList(child as t.Statement[]);
        else {
          for (let i = 0; i < child.length; i++) {
            const c = child[i] as t.Node | null;
            if (c && typeof c === 'object' && 'type' in c) child[i] = this.node(c);
          }
        }
      } else if (child && typeof child === 'object' && 'type' in child) {
        const c = child as t.Node;
        record[key] =
          kinds[k] === SINGLE_STATEMENT && isStatement(c) ? this.singleStatement(c) : this.node(c);
      }
      if (listed) e.applyListEdits(n, key);
    }
    return e.applyNodeEdits(n);
  }
}

/** What a child key holds: a list of statements, a position for exactly one statement, or other nodes. */
const OTHER_CHILDREN = 0;
const STATEMENT_LIST = 1;
const SINGLE_STATEMENT = 2;

/** Per node type, its visitor keys and what each holds: worked out once per type, not per node. */
const CHILD_KEYS = new Map<string, { keys: readonly string[]; kinds: Uint8Array }>();

function childKeys(n: t.Node): { keys: readonly string[]; kinds: Uint8Array } {
  let found = CHILD_KEYS.get(n.type);
  if (!found) {
    const keys = VISITOR_KEYS[n.type] ?? [];
    const kinds = Uint8Array.from(keys, (key) =>
      isStatementListKey(n, key)
        ? STATEMENT_LIST
        : isSingleStatementKey(n, key)
          ? SINGLE_STATEMENT
          : OTHER_CHILDREN,
    );
    found = { keys, kinds };
    CHILD_KEYS.set(n.type, found);
  }
  return found;
}

function isChain(n: t.Node): boolean {
  return isOptionalMemberExpression(n) || isOptionalCallExpression(n);
}

function isStatementListKey(n: t.Node, key: string): boolean {
  return (
    (key === 'body' && (isBlockStatement(n) || isProgram(n) || isStaticBlock(n) || isTSModuleBlock(n))) ||
    (key === 'consequent' && isSwitchCase(n))
  );
}

function isSingleStatementKey(n: t.Node, key: string): boolean {
  return (
    ((key === 'consequent' || key === 'alternate') && isIfStatement(n)) ||
    (key === 'body' && (isLoop(n) || isLabeledStatement(n) || isWithStatement(n)))
  );
}
