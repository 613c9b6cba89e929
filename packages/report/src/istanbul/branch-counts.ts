import type * as t from '@babel/types';
import { EdgeKind } from '@pathprof/cfg';
import { rangeKey, type CountedEdge, type GraphCounts } from './graph-counts';
import type { PointCount, PointCounts } from './point-counts';

/**
 * How often each arm of an istanbul branch (see `istanbulStructure`) was entered: `if` (the consequent, then
 * the alternate, present or not), `cond-expr` (consequent, alternate), `binary-expr` (evaluations of each
 * operand of a `&&`/`||`/`??` chain), `switch` (entries into each case, by match or fall-through),
 * `default-arg` (uses of the default). From the program point where the arm starts, or the decision edges
 * that enter it; null for an arm neither determines.
 */
export function armCounts(node: t.Node, graph: GraphCounts, points: PointCounts): (PointCount | null)[] {
  const exact = (n: number | null): PointCount | null => (n === null ? null : { lower: n, upper: n });
  switch (node.type) {
    case 'IfStatement':
      return [
        points.count(node.consequent),
        node.alternate ? points.count(node.alternate) : exact(falseExits(node, graph, points)),
      ];
    case 'ConditionalExpression':
      return [points.count(node.consequent), points.count(node.alternate)];
    case 'LogicalExpression':
      return chainOperands(node).map((operand) => evaluations(operand, node, graph, points));
    case 'SwitchStatement':
      return caseEntries(node, graph).map(exact);
    case 'AssignmentPattern': {
      const edges = graph.edgesAt(key(node));
      if (!edges.some((e) => e.kind === EdgeKind.ValuePresent)) return [points.count(node.right)];
      return [exact(edges.reduce((n, e) => n + (e.kind === EdgeKind.DefaultValue ? e.count : 0), 0))];
    }
    default:
      return [];
  }
}

/**
 * How often an `if` without `else` found its condition false: the graph decides each leaf of the condition
 * (`!` folded into the edges, `&&`/`||` and `?:` routing each leaf's outcomes); the edges of the leaves that
 * leave the condition (to neither another leaf's start nor the consequent) are its false outcomes.
 */
function falseExits(node: t.IfStatement, graph: GraphCounts, points: PointCounts): number | null {
  const leaves: t.Node[] = [];
  conditionLeaves(node.test, leaves);
  const consequent = points.pointOf(node.consequent);
  if (!consequent) return null;
  const inside = new Set<number>([consequent.block]);
  for (const leaf of leaves) {
    const point = points.pointOf(leaf);
    if (point?.fn === consequent.fn) inside.add(point.block);
  }
  let exits = 0;
  for (const leaf of leaves) {
    for (const e of graph.edgesAt(key(leaf))) {
      if (e.fn !== consequent.fn || (e.kind !== EdgeKind.True && e.kind !== EdgeKind.False)) continue;
      if (!inside.has(e.dst)) exits += e.count;
    }
  }
  return exits;
}

/**
 * The leaves of a condition as the graph decides them: `!` folded, `&&`/`||` split, a `?:`'s test and arms
 * (its arms' outcomes are the condition's), a sequence's last expression, TypeScript wrappers dropped.
 */
function conditionLeaves(node: t.Node, out: t.Node[]): void {
  const x = unwrap(node);
  if (x.type === 'UnaryExpression' && x.operator === '!') conditionLeaves(x.argument, out);
  else if (x.type === 'LogicalExpression' && x.operator !== '??') {
    conditionLeaves(x.left, out);
    conditionLeaves(x.right, out);
  } else if (x.type === 'ConditionalExpression') {
    conditionLeaves(x.test, out);
    conditionLeaves(x.consequent, out);
    conditionLeaves(x.alternate, out);
  } else if (x.type === 'SequenceExpression') {
    conditionLeaves(x.expressions[x.expressions.length - 1], out);
  } else {
    out.push(x);
  }
}

function unwrap(node: t.Node): t.Node {
  let x = node;
  while (
    x.type === 'TSAsExpression' ||
    x.type === 'TSSatisfiesExpression' ||
    x.type === 'TSNonNullExpression' ||
    x.type === 'TSTypeAssertion' ||
    x.type === 'ParenthesizedExpression'
  )
    x = x.expression;
  return x;
}

/** The operands of a logical chain, flattened as istanbul does (any operator). */
function chainOperands(node: t.Node): t.Node[] {
  return node.type === 'LogicalExpression'
    ? [...chainOperands(node.left), ...chainOperands(node.right)]
    : [node];
}

/**
 * How often an operand of a logical chain started to run: its program point. The chain's first operand
 * starts where the chain does, after earlier code of its block; when that code may throw, the decisions
 * the operand's evaluation ended in (its first leaf's true/false edges in a condition, its chain's decision
 * in a value) raise the lower bound to the evaluations that completed.
 */
function evaluations(
  operand: t.Node,
  chain: t.Node,
  graph: GraphCounts,
  points: PointCounts,
): PointCount | null {
  const point = points.count(operand);
  if (!point || point.lower === point.upper) return point;
  const sum = (edges: readonly CountedEdge[]) => edges.reduce((n, e) => n + e.count, 0);
  let leaf = unwrap(operand);
  for (;;) {
    if (leaf.type === 'UnaryExpression' && leaf.operator === '!') leaf = unwrap(leaf.argument);
    else if (leaf.type === 'LogicalExpression') leaf = unwrap(leaf.left);
    else if (leaf.type === 'ConditionalExpression') leaf = unwrap(leaf.test);
    else break;
  }
  let completed = sum(
    graph.edgesAt(key(leaf)).filter((e) => e.kind === EdgeKind.True || e.kind === EdgeKind.False),
  );
  const parent = logicalParent(operand, chain);
  if (parent?.left === operand)
    completed = Math.max(completed, sum(graph.edgesAt(key(parent)).filter((e) => decisionKinds.has(e.kind))));
  return { lower: Math.min(Math.max(point.lower, completed), point.upper), upper: point.upper };
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

function key(node: t.Node): string {
  const l = node.loc!;
  return rangeKey([l.start.line, l.start.column, l.end.line, l.end.column]);
}
