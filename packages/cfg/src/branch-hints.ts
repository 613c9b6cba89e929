import * as t from '@babel/types';
import type { ControlFlowGraph } from './control-flow-graph';
import { EdgeKind } from './edge-kind';

/**
 * The edges a branch is predicted not to take, after Ball and Larus's opcode heuristic ("Branch prediction for
 * free", PLDI 1993: a comparison of an integer for equality with a constant fails): a test for equality with a
 * number (`===`, `==`; `!==`, `!=` for the other edge; through `!`, `&&` and `||`) holding, and a `case` test
 * matching. For the static weighting that places edge mode's counters on the edges less taken
 * (`planEdgeProfile`'s `unlikely`); a prediction, never a fact about the graph. Measured on the bench
 * workloads (bench/NOTES.md), equality with other values and `null`/`undefined` tests predicted worse than
 * even odds, so they predict nothing.
 */
export function unlikelyEdges(cfg: ControlFlowGraph): number[] {
  const unlikely: number[] = [];
  for (let e = 0; e < cfg.edgeCount; e++) {
    const kind = cfg.edgeKind[e];
    if (kind === EdgeKind.CaseMatch) unlikely.push(e);
    else if (kind === EdgeKind.True || kind === EdgeKind.False) {
      const outcome = predictedOutcome(testOf(cfg.edges[e].node));
      if (outcome !== null && outcome !== (kind === EdgeKind.True)) unlikely.push(e);
    }
  }
  return unlikely;
}

/**
 * The expression whose truthiness a `True`/`False` edge follows: the left side of a `&&` or `||` evaluated for
 * its value (the graph's edges out of it belong to the whole expression), else the tested expression itself.
 */
function testOf(node: t.Node): t.Node {
  return t.isLogicalExpression(node) && node.operator !== '??' ? node.left : node;
}

/** Whether `x` is predicted truthy (true), falsy (false), or neither (null). */
function predictedOutcome(x: t.Node): boolean | null {
  if (t.isBinaryExpression(x) && (isNumber(x.left) || isNumber(x.right))) {
    if (x.operator === '===' || x.operator === '==') return false;
    if (x.operator === '!==' || x.operator === '!=') return true;
    return null;
  }
  if (t.isUnaryExpression(x) && x.operator === '!') {
    const outcome = predictedOutcome(x.argument);
    return outcome === null ? null : !outcome;
  }
  if (t.isLogicalExpression(x) && x.operator !== '??') {
    const left = predictedOutcome(x.left);
    const right = predictedOutcome(x.right);
    // `a || b` is truthy when either is, falsy when both are; `a && b` the other way round.
    const decisive = x.operator === '||';
    if (left === decisive || right === decisive) return decisive;
    return left === !decisive && right === !decisive ? !decisive : null;
  }
  return null;
}

function isNumber(x: t.Node | null | undefined): boolean {
  return (
    t.isNumericLiteral(x) || (t.isUnaryExpression(x) && x.operator === '-' && t.isNumericLiteral(x.argument))
  );
}
