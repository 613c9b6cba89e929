import type { ExecutionEvent } from '@pathprof/numbering';
import type { NamedProgram } from './named-program';

/**
 * The run of Melski & Reps Fig. 4: main's loop for i = 1..18 calls pow(i, 2) at site #1 when i is even and at
 * site #2 when i is a multiple of 3. At the sites in `cutSites` pow runs as a root activation.
 */
export function powTrace(named: NamedProgram, cutSites: readonly number[] = []): ExecutionEvent[] {
  const main = named.graphs[named.procedure('main')];
  const pow = named.graphs[named.procedure('pow')];
  const trace: ExecutionEvent[] = [{ kind: 'enter', procedure: named.procedure('main') }];
  const edges = (graph: typeof main, ...labels: string[]): void => {
    for (const label of labels) trace.push({ kind: 'edge', edge: graph.edge(label) });
  };
  const callPow = (call: string): void => {
    const site = named.site('main', call);
    trace.push({ kind: 'call', site });
    if (cutSites.includes(site)) trace.push({ kind: 'enter', procedure: named.procedure('pow') });
    edges(pow, 'u1->u2', 'u2->u3');
    for (let exp = 2; exp > 0; exp--) edges(pow, 'u3->u4', 'u4->u5', 'u5->u3');
    edges(pow, 'u3->u7', 'u7->u8');
  };
  edges(main, 'v1->v2', 'v2->v3', 'v3->v4');
  for (let i = 1; i <= 18; i++) {
    edges(main, 'v4->v5');
    if (i % 2 === 0) {
      edges(main, 'v5->v6');
      callPow('v6');
      edges(main, 'v6->v7', 'v7->v8', 'v8->v9');
    } else edges(main, 'v5->v9');
    if (i % 3 === 0) {
      edges(main, 'v9->v10');
      callPow('v10');
      edges(main, 'v10->v11', 'v11->v12', 'v12->v13');
    } else edges(main, 'v9->v13');
    edges(main, 'v13->v4');
  }
  edges(main, 'v4->v15', 'v15->v16');
  return trace;
}
