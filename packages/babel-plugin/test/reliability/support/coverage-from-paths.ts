import { traverse, type types as t } from '@babel/core';
import { EdgeKind, type ControlFlowGraph, type Position } from '@pathprof/cfg';
import { decodePath, edgeCountsFromPaths, type PathNumbering } from '@pathprof/numbering';

/** Counts keyed by `type@line:column` of the construct's start, the way istanbul's maps locate them. */
export type CountsByLocation = Map<string, number[]>;

/** One function's graph (as the plugin built it) with its numbering and counted paths. */
export interface ProfiledFunction {
  readonly graph: ControlFlowGraph;
  readonly numbering: PathNumbering;
  readonly paths: readonly [number, number][];
}

export function locationKey(type: string, start: Position): string {
  return `${type}@${start.line}:${start.column}`;
}

/**
 * Activations per function, located by the start of its body as istanbul's `fnMap[i].loc` is: the sum of
 * the counts of the function's paths that begin at ENTRY (paths after a backedge continue an activation).
 */
export function functionCounts(functions: readonly ProfiledFunction[]): CountsByLocation {
  const counts: CountsByLocation = new Map();
  for (const { graph, numbering, paths } of functions) {
    const body = (graph.node as { body?: t.Node }).body;
    if (!body?.loc || !('params' in graph.node)) continue;
    let activations = 0;
    for (const [path, n] of paths) if (decodePath(numbering, path).start.kind === 'entry') activations += n;
    counts.set(locationKey('function', body.loc.start), [activations]);
  }
  return counts;
}

/** Where one outcome of a test leaf sends control: a branch of its decision (0 consequent, 1 alternate). */
interface LeafOutcomes {
  readonly key: string;
  readonly onTrue: number | null;
  readonly onFalse: number | null;
}

/**
 * The leaves of a test and the branch each outcome selects, as the graph branches: `a && b` sends `a`'s
 * false outcome to the alternate and its true outcome on to `b`; `!a` swaps; `a ? b : c` goes on to `b` or
 * `c`; a sequence tests its last expression; anything else is a leaf (null: on to another leaf).
 */
function collectLeaves(
  test: t.Expression,
  key: string,
  onTrue: number | null,
  onFalse: number | null,
  leaves: Map<t.Node, LeafOutcomes>,
): void {
  if (test.type === 'LogicalExpression' && test.operator !== '??') {
    const and = test.operator === '&&';
    collectLeaves(test.left, key, and ? null : onTrue, and ? onFalse : null, leaves);
    collectLeaves(test.right, key, onTrue, onFalse, leaves);
  } else if (test.type === 'UnaryExpression' && test.operator === '!') {
    collectLeaves(test.argument, key, onFalse, onTrue, leaves);
  } else if (test.type === 'ConditionalExpression') {
    collectLeaves(test.test, key, null, null, leaves);
    collectLeaves(test.consequent, key, onTrue, onFalse, leaves);
    collectLeaves(test.alternate, key, onTrue, onFalse, leaves);
  } else if (test.type === 'SequenceExpression') {
    collectLeaves(test.expressions[test.expressions.length - 1], key, onTrue, onFalse, leaves);
  } else {
    leaves.set(test, { key, onTrue, onFalse });
  }
}

/**
 * Istanbul's `if` and `cond-expr` branch counts ([consequent, alternate]), `switch` counts (entries into
 * each case body, fallthrough included) and `default-arg` counts (uses of a decided default), derived from
 * edge counts: a decision's outcomes are the `true` and
 * `false` edges of its test's leaves (compound tests branch straight from each leaf), a case is entered by its
 * match, by `default`, or by the fallthrough from the case before it.
 */
export function branchCounts(ast: t.File, functions: readonly ProfiledFunction[]): CountsByLocation {
  const leaves = new Map<t.Node, LeafOutcomes>();
  const switches: t.SwitchStatement[] = [];
  traverse(ast, {
    'IfStatement|ConditionalExpression': (path) => {
      const node = path.node as t.IfStatement | t.ConditionalExpression;
      const type = node.type === 'IfStatement' ? 'if' : 'cond-expr';
      collectLeaves(node.test, locationKey(type, node.loc!.start), 0, 1, leaves);
    },
    SwitchStatement: (path) => void switches.push(path.node),
  });
  const counts: CountsByLocation = new Map();
  const add = (key: string, index: number, n: number, size: number) => {
    const entry = counts.get(key) ?? new Array<number>(size).fill(0);
    entry[index] += n;
    counts.set(key, entry);
  };
  for (const { graph, numbering, paths } of functions) {
    const edgeCounts = edgeCountsFromPaths(numbering, new Map(paths));
    for (let e = 0; e < graph.edgeCount; e++) {
      const kind = graph.edgeKind[e];
      if (kind === EdgeKind.DefaultValue || kind === EdgeKind.ValuePresent) {
        // istanbul's `default-arg`: how often the default was used, for the defaults the graph decides.
        const used = kind === EdgeKind.DefaultValue ? edgeCounts[e] : 0;
        add(locationKey('default-arg', graph.edges[e].node.loc!.start), 0, used, 1);
        continue;
      }
      const leaf = leaves.get(graph.edges[e].node);
      if (leaf && (kind === EdgeKind.True || kind === EdgeKind.False)) {
        const branch = kind === EdgeKind.True ? leaf.onTrue : leaf.onFalse;
        if (branch !== null) add(leaf.key, branch, edgeCounts[e], 2);
      } else if (kind === EdgeKind.CaseMatch || kind === EdgeKind.Default || kind === EdgeKind.Fallthrough) {
        const site = graph.edges[e].site!;
        const owner =
          site.type === 'caseMatch' || site.type === 'caseMiss'
            ? site.switchCase
            : site.type === 'listEnd'
              ? site.owner
              : null;
        const statement = switches.find((s) => s.cases.includes(owner as t.SwitchCase));
        if (!statement) continue;
        const own = statement.cases.indexOf(owner as t.SwitchCase);
        // A match enters its own case, a fallthrough the next one, `default` the default case (if any).
        const index =
          kind === EdgeKind.CaseMatch
            ? own
            : kind === EdgeKind.Fallthrough
              ? own + 1
              : statement.cases.findIndex((c) => c.test === null);
        if (index >= 0 && index < statement.cases.length)
          add(locationKey('switch', statement.loc!.start), index, edgeCounts[e], statement.cases.length);
      }
    }
  }
  return counts;
}
