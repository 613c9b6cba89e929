import type { ExecutionEvent, ProcedureCounts, Program } from '@pathprof/numbering';

/**
 * How often each procedure's original edges and blocks ran in a complete trace, read off its events: the
 * reference for the counts a profile's paths give (`procedureCountsFromPaths`). `crossed`: per procedure, per
 * call site index, whether paths cross it (its callee starts at the call, with no `enter`).
 */
export function traceCounts(
  program: Program,
  crossed: readonly (readonly boolean[])[],
  trace: readonly ExecutionEvent[],
): ProcedureCounts[] {
  const counts = program.procedures.map(({ graph }) => ({
    edgeCounts: new Array<number>(graph.edgeCount).fill(0),
    blockCounts: new Array<number>(graph.blockCount).fill(0),
  }));
  const crossedCallee = new Map<number, number>();
  program.procedures.forEach(({ callSites }, p) =>
    callSites.forEach((site, k) => {
      if (crossed[p][k]) crossedCallee.set(site.site, site.callee!);
    }),
  );
  const running: number[] = [];
  const start = (p: number) => {
    running.push(p);
    counts[p].blockCounts[program.procedures[p].graph.entry]++;
  };
  for (const event of trace) {
    if (event.kind === 'enter') start(event.procedure);
    else if (event.kind === 'call') {
      const callee = crossedCallee.get(event.site);
      if (callee !== undefined) start(callee);
    } else {
      const p = running[running.length - 1];
      const { graph } = program.procedures[p];
      const dst = graph.edgeDst[event.edge];
      counts[p].edgeCounts[event.edge]++;
      counts[p].blockCounts[dst]++;
      if (dst === graph.exit) running.pop();
    }
  }
  return counts;
}
