import type { CallSiteRef, InterproceduralNumbering, PathStep, SupergraphPath } from '@pathprof/numbering';

/**
 * Every observable path of a numbering, by brute force over the grammar (unbalanced-left paths, or
 * unbalanced-right-left ones when piecewise), using the DAGs only: no ψ, ρ or entry value. Stops at `limit`.
 */
export function enumerateObservablePaths(
  numbering: InterproceduralNumbering,
  limit: number,
): SupergraphPath[] {
  const paths: SupergraphPath[] = [];
  const callersOf = numbering.procedures.map(() => [] as CallSiteRef[]);
  numbering.procedures.forEach((p, procedure) =>
    p.callSites.forEach((s, site) => {
      if (s.cut === null && s.callee !== null) callersOf[s.callee].push({ procedure, site });
    }),
  );
  const walk = (
    entryPoint: number,
    procedure: number,
    vertex: number,
    open: readonly CallSiteRef[],
    atRoot: boolean,
    steps: PathStep[],
  ): void => {
    if (paths.length >= limit) return;
    const p = numbering.procedures[procedure];
    const { dag } = p;
    const go = (step: PathStep, next: number, nextVertex: number, nextOpen: readonly CallSiteRef[]): void => {
      steps.push(step);
      walk(entryPoint, next, nextVertex, nextOpen, atRoot, steps);
      steps.pop();
    };
    const finish = (step: PathStep): void => {
      paths.push({ entryPoint, steps: [...steps, step] });
    };
    if (vertex === dag.globalExit) {
      paths.push({ entryPoint, steps: [...steps] });
      return;
    }
    if (vertex === dag.exit) {
      const top = open.at(-1);
      if (top !== undefined) {
        const to = numbering.procedures[top.procedure].callSites[top.site].returnSite;
        go({ kind: 'return', procedure, to: top }, top.procedure, to, open.slice(0, -1));
      } else if (atRoot) finish({ kind: 'return', procedure, to: null });
      else {
        for (const caller of callersOf[procedure]) {
          const to = numbering.procedures[caller.procedure].callSites[caller.site].returnSite;
          go({ kind: 'return', procedure, to: caller }, caller.procedure, to, open);
        }
        if (p.rootEntryPoint >= 0) finish({ kind: 'return', procedure, to: null });
      }
      return;
    }
    for (let i = dag.out.start[vertex]; i < dag.out.start[vertex + 1]; i++) {
      const e = dag.out.edges[i];
      if (dag.kind[e] === 'call') {
        const site = dag.callSite[e];
        const callee = p.callSites[site].callee as number;
        go({ kind: 'call', procedure, site }, callee, numbering.procedures[callee].dag.entry, [
          ...open,
          { procedure, site },
        ]);
      } else go({ kind: 'edge', procedure, edge: e }, procedure, dag.dst[e], open);
    }
  };
  numbering.entryPoints.forEach((point, i) => {
    const { dag } = numbering.procedures[point.procedure];
    const atRoot = point.kind === 'entry';
    walk(i, point.procedure, atRoot ? dag.entry : dag.globalEntry, [], atRoot, []);
  });
  return paths;
}
