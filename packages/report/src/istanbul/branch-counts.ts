import type * as t from '@babel/types';
import { EdgeKind } from '@pathprof/cfg';
import { location, type BranchLocation, type BranchMapping, type Location } from './file-coverage';
import { rangeKey, type CountedEdge, type GraphCounts } from './graph-counts';

/** An istanbul branch and its counts, one per location. */
export interface CountedBranch {
  readonly mapping: BranchMapping;
  readonly counts: number[];
}

/**
 * istanbul's branches of a file, counted from its edge and block counts. Types as babel-plugin-istanbul
 * makes them: `if` (two locations, the statement and its alternate or an empty one, counting the consequent
 * and the alternate, present or not), `cond-expr` (consequent, alternate), `binary-expr` (one location per operand of a `&&`/`||`/`??`
 * chain, counting its evaluations), `switch` (one per case, counting entries by match or fall-through).
 * `default-arg` (the default's value, counting its uses) only where the graph decides the default: not for
 * parameters, nor for defaults the graph keeps opaque (pattern-defaults.ts in @pathprof/cfg). And a
 * branch whose counts the graph does not determine (a condition with a `?:` or `??` inside, a constant
 * condition folded to one edge, an operand with neither decision edges nor a block of its own) is left out
 * rather than guessed.
 */
export function countBranches(program: t.Program, graph: GraphCounts): CountedBranch[] {
  const branches: CountedBranch[] = [];
  visit(program, null, (node, parent) => {
    const branch = countBranch(node, parent, graph);
    if (branch) branches.push(branch);
  });
  return branches;
}

function countBranch(node: t.Node, parent: t.Node | null, graph: GraphCounts): CountedBranch | null {
  switch (node.type) {
    case 'IfStatement': {
      const counts = testOutcomes(node.test, graph);
      // As istanbul: the statement, then the alternate (an empty location when there is none).
      return (
        counts && branch('if', node, [loc(node), node.alternate ? loc(node.alternate) : noLocation], counts)
      );
    }
    case 'ConditionalExpression': {
      const counts = testOutcomes(node.test, graph);
      return counts && branch('cond-expr', node, [loc(node.consequent), loc(node.alternate)], counts);
    }
    case 'LogicalExpression': {
      if (parent?.type === 'LogicalExpression') return null; // an operand of the chain counted from its top
      const operands = chainOperands(node);
      const counts = operands.map((o) => evaluations(o, node, graph));
      if (counts.some((n) => n === undefined)) return null;
      return branch('binary-expr', node, operands.map(loc), counts as number[]);
    }
    case 'SwitchStatement':
      return branch('switch', node, node.cases.map(loc), caseEntries(node, graph));
    case 'AssignmentPattern': {
      // Only defaults the graph decides (destructuring in declarations); parameters' are not in the graph.
      const edges = graph.edgesAt(key(node));
      if (!edges.some((e) => e.kind === EdgeKind.ValuePresent)) return null;
      const used = edges.reduce((n, e) => n + (e.kind === EdgeKind.DefaultValue ? e.count : 0), 0);
      return branch('default-arg', node, [loc(node.right)], [used]);
    }
    default:
      return null;
  }
}

const noLocation: BranchLocation = { start: {}, end: {} };

function branch(
  type: BranchMapping['type'],
  node: t.Node,
  locations: BranchLocation[],
  counts: number[],
): CountedBranch {
  const where = loc(node);
  return { mapping: { type, loc: where, locations, line: where.start.line }, counts };
}

/**
 * How often a condition was truthy and falsy. The graph decides each leaf of the condition (`!` folded into
 * the edges, `&&`/`||` split into one decision per operand); the condition's value is decided where control
 * leaves its leaves, and the last leaf's outcome (through any `!` above it) tells which exit is "true".
 */
function testOutcomes(test: t.Expression, graph: GraphCounts): [number, number] | null {
  const leaves: { node: t.Node; negated: boolean }[] = [];
  conditionLeaves(test, false, leaves);
  const edgesOf = (n: t.Node) =>
    graph.edgesAt(key(n)).filter((e) => e.kind === EdgeKind.True || e.kind === EdgeKind.False);
  // A leaf the graph does not decide by itself (a `?:` or `??` inside the condition) would make its inner
  // decisions look like exits: such a condition is left out.
  const decided = leaves.map((leaf) => edgesOf(leaf.node));
  if (decided.some((edges) => edges.length === 0)) return null;
  const all = decided.flat();
  const last = leaves[leaves.length - 1];
  const truthyKind = last.negated ? EdgeKind.False : EdgeKind.True;
  const lastTruthy = edgesOf(last.node).find((e) => e.kind === truthyKind);
  if (!lastTruthy) return null;
  const inside = new Set(all.map((e) => blockId(e, e.src)));
  const exits = all.filter((e) => !inside.has(blockId(e, e.dst)));
  const sum = (list: CountedEdge[]) => list.reduce((n, e) => n + e.count, 0);
  const truthy = exits.filter((e) => e.dst === lastTruthy.dst);
  const falsy = exits.filter((e) => e.dst !== lastTruthy.dst);
  return [sum(truthy), sum(falsy)];
}

function blockId(edge: CountedEdge, block: number): string {
  return `${edge.fn}:${block}`;
}

function conditionLeaves(node: t.Node, negated: boolean, out: { node: t.Node; negated: boolean }[]): void {
  if (node.type === 'UnaryExpression' && node.operator === '!') {
    conditionLeaves(node.argument, !negated, out);
  } else if (node.type === 'LogicalExpression' && node.operator !== '??') {
    conditionLeaves(node.left, negated, out);
    conditionLeaves(node.right, negated, out);
  } else {
    out.push({ node, negated });
  }
}

/** The operands of a logical chain, flattened as istanbul does (any operator). */
function chainOperands(node: t.Node): t.Node[] {
  return node.type === 'LogicalExpression'
    ? [...chainOperands(node.left), ...chainOperands(node.right)]
    : [node];
}

/**
 * How often an operand of a logical chain ran. In a condition the graph decides each operand itself (`!`
 * folded): its true/false edges. In a value the decision edges belong to the logical expression: its left
 * operand runs whenever it does, its right operand when it continues (`||` on false, `&&` on true, `??` on
 * nullish). Otherwise the block that evaluates just the operand.
 */
function evaluations(operand: t.Node, chain: t.Node, graph: GraphCounts): number | undefined {
  let leaf = operand;
  while (leaf.type === 'UnaryExpression' && leaf.operator === '!') leaf = leaf.argument;
  const sum = (edges: readonly CountedEdge[]) => edges.reduce((n, e) => n + e.count, 0);
  const own = graph.edgesAt(key(leaf)).filter((e) => e.kind === EdgeKind.True || e.kind === EdgeKind.False);
  if (own.length) return sum(own);
  const parent = logicalParent(operand, chain);
  const decided = parent ? graph.edgesAt(key(parent)).filter((e) => decisionKinds.has(e.kind)) : [];
  if (parent && decided.length) {
    if (parent.left === operand) return sum(decided);
    const continues = { '||': EdgeKind.False, '&&': EdgeKind.True, '??': EdgeKind.Nullish }[parent.operator];
    return sum(decided.filter((e) => e.kind === continues));
  }
  return graph.blockAt(key(operand));
}

const decisionKinds = new Set([EdgeKind.True, EdgeKind.False, EdgeKind.Nullish, EdgeKind.NotNullish]);

/** The logical expression of `chain` that has `operand` as its left or right side. */
function logicalParent(operand: t.Node, chain: t.Node): t.LogicalExpression | null {
  if (chain.type !== 'LogicalExpression') return null;
  if (chain.left === operand || chain.right === operand) return chain;
  return logicalParent(operand, chain.left) ?? logicalParent(operand, chain.right);
}

/** Entries into each case's body: by its test matching (or `default`), or by falling through from above. */
function caseEntries(node: t.SwitchStatement, graph: GraphCounts): number[] {
  const cases = node.cases.map((c) => graph.edgesAt(key(c)));
  const sum = (edges: readonly CountedEdge[], kind: EdgeKind) =>
    edges.filter((e) => e.kind === kind).reduce((n, e) => n + e.count, 0);
  const defaults = cases.reduce((n, edges) => n + sum(edges, EdgeKind.Default), 0);
  return node.cases.map(
    (c, i) =>
      (c.test ? sum(cases[i], EdgeKind.CaseMatch) : defaults) +
      (i > 0 ? sum(cases[i - 1], EdgeKind.Fallthrough) : 0),
  );
}

function loc(node: t.Node): Location {
  const l = node.loc!;
  return location(l.start.line, l.start.column, l.end.line, l.end.column);
}

function key(node: t.Node): string {
  const l = node.loc!;
  return rangeKey([l.start.line, l.start.column, l.end.line, l.end.column]);
}

/** Every AST node with its parent, depth first. */
function visit(node: t.Node, parent: t.Node | null, fn: (node: t.Node, parent: t.Node | null) => void): void {
  fn(node, parent);
  for (const value of Object.values(node)) {
    if (Array.isArray(value)) {
      for (const child of value) if (isNode(child)) visit(child, node, fn);
    } else if (isNode(value)) {
      visit(value, node, fn);
    }
  }
}

function isNode(value: unknown): value is t.Node {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as t.Node).type === 'string' &&
    'loc' in value
  );
}
