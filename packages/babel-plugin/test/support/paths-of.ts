import type { FunctionReport } from '@pathprof/report';

/** A function's executed paths as `count decisions` (each decision's code and outcome), sorted. */
export function pathsOf(fn: FunctionReport): string[] {
  return fn.paths
    .map((p) => `${p.count} ${p.decisions.map((d) => `${d.code}: ${d.outcome}`).join(', ')}`)
    .sort();
}
