import type * as t from '@babel/types';
import { enteredOnlyThrough, handOffCalls, type CallTargets, type ControlFlowGraph } from '@pathprof/cfg';
import { fitContextValues, type ContextCallGraph, type ContextValues } from '@pathprof/numbering';
import type { ContextFunction, ContextHandOff } from './context-plan';
import type { ContextMetadata } from './metadata';

/** A file's calling-context numbering and what each function's code needs of it. */
export interface ContextFile {
  readonly values: ContextValues;
  readonly functions: Map<ControlFlowGraph, ContextFunction>;
  readonly meta: ContextMetadata;
}

/**
 * Numbers a file's calling contexts (Sumner et al.): the functions are the file's graphs, the call graph's
 * edges the calls whose callee is statically another of them and takes a hand-off (site ids in source order,
 * function by function). Every function that can start otherwise (the program, exported and escaping
 * functions, callbacks, methods) is an entry with a dummy edge. Context values stay below `maxContexts`:
 * selective reduction turns calls into pushes until they do. `pathCounts` gives each function's paths when
 * paths are counted per context.
 */
export function planContextFile(
  graphs: readonly ControlFlowGraph[],
  targets: CallTargets,
  maxContexts: number,
  pathCounts: readonly number[] | null,
): ContextFile {
  const calls = handOffCalls(targets, graphs);
  const only = enteredOnlyThrough(targets, new Set(calls.flat().map((c) => c.call)));
  const sites: { caller: number; call: t.CallExpression }[] = [];
  const siteList: ContextCallGraph['sites'][number][] = [];
  const edgeList: ContextCallGraph['edges'][number][] = [];
  calls.forEach((list, caller) =>
    list.forEach(({ call, callee }) => {
      const site = sites.push({ caller, call }) - 1;
      siteList.push({ site, caller });
      edgeList.push({ site, callee });
    }),
  );
  const graph: ContextCallGraph = {
    functionNames: graphs.map((g) => g.name),
    entries: graphs.flatMap((g, i) => (only.has(g.node) ? [] : [i])),
    sites: siteList,
    edges: edgeList,
  };
  const values = fitContextValues(graph, maxContexts);
  const { numbering, base } = values;
  const numbered = new Set(numbering.edges.filter((e) => e.kind === 'numbered').map((e) => e.callee));
  // A callee with no dummy edge is entered by its numbered calls only: it takes the hand-off unchecked.
  const checked = (callee: number) => numbering.hasDummyEdge[callee];
  const handOffs: Map<t.CallExpression, ContextHandOff>[] = graphs.map(() => new Map());
  numbering.edges.forEach((edge) => {
    const { call } = sites[edge.site];
    handOffs[edge.caller].set(
      call,
      edge.kind === 'numbered'
        ? {
            kind: 'add',
            delta: base[edge.callee] - base[edge.caller] + edge.addition,
            token: checked(edge.callee) ? base[edge.callee] + 1 : null,
          }
        : { kind: 'push', site: edge.site + 1 },
    );
  });
  const functions = new Map<ControlFlowGraph, ContextFunction>();
  graphs.forEach((g, i) =>
    functions.set(g, {
      first: base[i],
      numbered: numbered.has(i),
      dummy: numbering.hasDummyEdge[i],
      calls: handOffs[i],
      pathCount: pathCounts?.[i] ?? 0,
    }),
  );
  const meta: ContextMetadata = {
    numbering,
    sites: sites.flatMap(({ call }) => [call.loc?.start.line ?? 0, call.loc?.start.column ?? 0]),
    maxContexts,
  };
  return { values, functions, meta };
}
