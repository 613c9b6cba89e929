import * as t from '@babel/types';
import { location, type BranchLocation, type BranchType, type Location } from './file-coverage';

/** An istanbul statement: where it is, and the node whose start it counts. */
export interface StatementSite {
  readonly loc: Location;
  readonly node: t.Node;
}

/** An istanbul function: its name, declaration and body locations, and the node whose start counts it. */
export interface FunctionSite {
  readonly name: string;
  readonly decl: Location;
  readonly loc: Location;
  readonly fn: t.Function;
  readonly body: t.Node;
}

/**
 * An istanbul branch: type, locations, the construct it belongs to, and which of the construct's arms its
 * locations are (an `istanbul ignore` hint can leave some out).
 */
export interface BranchSite {
  readonly type: BranchType;
  readonly loc: Location;
  readonly locations: BranchLocation[];
  readonly node: t.Node;
  readonly arms: number[];
}

export interface IstanbulStructure {
  readonly statements: StatementSite[];
  readonly functions: FunctionSite[];
  readonly branches: BranchSite[];
}

/** Statements istanbul counts as themselves (`coverStatement`). */
const STATEMENTS = new Set([
  'ExpressionStatement',
  'BreakStatement',
  'ContinueStatement',
  'DebuggerStatement',
  'ReturnStatement',
  'ThrowStatement',
  'TryStatement',
  'IfStatement',
  'ForStatement',
  'ForInStatement',
  'ForOfStatement',
  'WhileStatement',
  'DoWhileStatement',
  'SwitchStatement',
  'WithStatement',
  'LabeledStatement',
]);

/** The node types istanbul's visitor handles (istanbul-lib-instrument's `codeVisitor`): only they read hints. */
const VISITED = new Set([
  ...STATEMENTS,
  'ArrowFunctionExpression',
  'AssignmentPattern',
  'BlockStatement',
  'ExportDefaultDeclaration',
  'ExportNamedDeclaration',
  'ClassMethod',
  'ClassDeclaration',
  'ClassProperty',
  'ClassPrivateProperty',
  'ObjectMethod',
  'VariableDeclaration',
  'VariableDeclarator',
  'SwitchCase',
  'FunctionDeclaration',
  'FunctionExpression',
  'ConditionalExpression',
  'LogicalExpression',
]);

const HINT = /^\s*istanbul\s+ignore\s+(if|else|next)(?=\W|$)/;

/**
 * The statements, functions and branches babel-plugin-istanbul would make of `program`, in the order it numbers
 * them (its visitor's, depth first in Babel's child order), honouring its `istanbul ignore next|if|else` hints:
 * what a path profile has to count to give istanbul's coverage object. Reads the AST as parsed, before any
 * rewrite.
 */
export function istanbulStructure(program: t.Program): IstanbulStructure {
  const structure: IstanbulStructure = { statements: [], functions: [], branches: [] };
  const skipAll = new Set<t.Node>();
  let ignoring: t.Node | null = null;
  // The parent chain, for telling a logical expression that continues its parent's chain.
  const parents: t.Node[] = [];

  const statement = (loc: t.SourceLocation | null | undefined, node: t.Node) => {
    if (loc) structure.statements.push({ loc: clone(loc), node });
  };
  const enter = (node: t.Node) => {
    const parent = parents[parents.length - 1];
    if (STATEMENTS.has(node.type)) statement(node.loc, node);
    switch (node.type) {
      case 'VariableDeclarator':
        if (node.init) statement(node.init.loc, node.init);
        break;
      case 'ClassProperty':
      case 'ClassPrivateProperty':
        if (node.value) statement(node.value.loc, node.value);
        break;
      case 'ArrowFunctionExpression':
      case 'ClassMethod':
      case 'ObjectMethod':
      case 'FunctionDeclaration':
      case 'FunctionExpression':
        structure.functions.push(functionSite(node, structure.functions.length));
        break;
      case 'IfStatement': {
        const hint = hintFor(node);
        const locations: BranchLocation[] = [];
        const arms: number[] = [];
        if (hint === 'if') skipAll.add(node.consequent);
        else {
          locations.push(clone(node.loc!));
          arms.push(0);
        }
        // Without an `else` istanbul adds an empty block, which has no location.
        if (hint === 'else') {
          if (node.alternate) skipAll.add(node.alternate);
        } else {
          locations.push(node.alternate?.loc ? clone(node.alternate.loc) : { start: {}, end: {} });
          arms.push(1);
        }
        branch('if', node, locations, arms);
        break;
      }
      case 'ConditionalExpression': {
        const locations: BranchLocation[] = [];
        const arms: number[] = [];
        [node.consequent, node.alternate].forEach((arm, i) => {
          if (hintFor(arm) === 'next') return;
          locations.push(clone(arm.loc!));
          arms.push(i);
        });
        branch('cond-expr', node, locations, arms);
        break;
      }
      case 'LogicalExpression': {
        if (parent?.type === 'LogicalExpression') break;
        const leaves: t.Node[] = [];
        findLeaves(node, leaves);
        const arms = leaves.map((_, i) => i).filter((i) => hintFor(leaves[i]) !== 'next');
        branch(
          'binary-expr',
          node,
          arms.map((i) => clone(leaves[i].loc!)),
          arms,
        );
        break;
      }
      case 'SwitchStatement':
        branch('switch', node, [], []);
        break;
      case 'SwitchCase': {
        const owner = structure.branches.find((b) => b.node === parent);
        if (owner) {
          owner.locations.push(clone(node.loc!));
          owner.arms.push((parent as t.SwitchStatement).cases.indexOf(node));
        }
        break;
      }
      case 'AssignmentPattern':
        branch('default-arg', node, [clone(node.right.loc!)], [0]);
        break;
    }
  };
  const branch = (type: BranchType, node: t.Node, locations: BranchLocation[], arms: number[]) =>
    structure.branches.push({ type, loc: clone(node.loc!), locations, node, arms });

  const walk = (node: t.Node) => {
    const visited = VISITED.has(node.type);
    if (visited && ignoring === null) {
      if (hintFor(node) === 'next' || skipAll.has(node)) ignoring = node;
      else if (node.loc) enter(node);
    }
    parents.push(node);
    for (const key of t.VISITOR_KEYS[node.type] ?? []) {
      const child = (node as unknown as Record<string, unknown>)[key];
      for (const c of Array.isArray(child) ? child : [child]) {
        if (!isNode(c)) continue;
        // An arrow's expression body becomes `return body;` in istanbul: a statement before the body's own.
        if (key === 'body' && node.type === 'ArrowFunctionExpression' && !t.isBlockStatement(c) && !ignoring)
          statement(c.loc, c);
        walk(c);
      }
    }
    parents.pop();
    if (ignoring === node) ignoring = null;
  };
  walk(program);
  // istanbul drops branches left without locations.
  return { ...structure, branches: structure.branches.filter((b) => b.locations.length > 0) };
}

function functionSite(node: t.Function, index: number): FunctionSite {
  const id = 'id' in node ? node.id : null;
  const start = node.loc!.start;
  const decl = id?.loc ? clone(id.loc) : location(start.line, start.column, start.line, start.column + 1);
  return {
    name: id?.name ?? `(anonymous_${index})`,
    decl,
    loc: clone(node.body.loc!),
    fn: node,
    body: node.body,
  };
}

/** The operands of a logical chain as istanbul flattens it (nested logical expressions of any operator). */
function findLeaves(node: t.Node, out: t.Node[]): void {
  if (node.type === 'LogicalExpression' && hintFor(node) !== 'next') {
    findLeaves(node.left, out);
    findLeaves(node.right, out);
  } else if (node.type !== 'LogicalExpression') {
    out.push(node);
  }
}

/** The `istanbul ignore` hint of a node's leading comments: the last one wins, as in istanbul. */
function hintFor(node: t.Node): 'if' | 'else' | 'next' | null {
  let hint: 'if' | 'else' | 'next' | null = null;
  for (const comment of node.leadingComments ?? []) {
    const match = comment.value.trim().match(HINT);
    if (match) hint = match[1] as 'if' | 'else' | 'next';
  }
  return hint;
}

function clone(loc: t.SourceLocation): Location {
  return location(loc.start.line, loc.start.column, loc.end.line, loc.end.column);
}

function isNode(value: unknown): value is t.Node {
  return typeof value === 'object' && value !== null && typeof (value as t.Node).type === 'string';
}
