import {
  ContextEncoder,
  type ContextCallGraph,
  type ContextFrame,
  type ContextNumbering,
  type EncodedContext,
} from '@pathprof/numbering';

/**
 * A call graph with one-letter functions, edges listed as `'A->B'` in each callee's numbering order; a site
 * label after `@` names one of several sites of a caller (`'D->F@1'`, `'D->F@2'`), and edges with the same
 * caller and label share a site (a polymorphic call).
 */
export interface NamedCallGraph {
  readonly graph: ContextCallGraph;
  fn(name: string): number;
  site(label: string): number;
  /** A context written as the paper does: functions, with a site's label after its caller (`ABD2F`). */
  format(context: readonly ContextFrame[]): string;
}

export function namedCallGraph(entries: readonly string[], edges: readonly string[]): NamedCallGraph {
  const names: string[] = [];
  const fn = (name: string): number => {
    let f = names.indexOf(name);
    if (f < 0) f = names.push(name) - 1;
    return f;
  };
  entries.forEach(fn);
  const siteLabels: string[] = [];
  const siteSuffix: string[] = [];
  const parsed = edges.map((label) => {
    const [call, suffix = ''] = label.split('@');
    const [caller, callee] = call.split('->');
    const key = suffix === '' ? call : `${caller}@${suffix}`;
    let site = siteLabels.indexOf(key);
    if (site < 0) {
      site = siteLabels.push(key) - 1;
      siteSuffix.push(suffix);
    }
    return { caller: fn(caller), callee: fn(callee), site };
  });
  const graph: ContextCallGraph = {
    functionNames: names,
    entries: entries.map(fn),
    sites: siteLabels.map((_, site) => ({
      site,
      caller: (parsed.find((p) => p.site === site) as { caller: number }).caller,
    })),
    edges: parsed.map(({ site, callee }) => ({ site, callee })),
  };
  return {
    graph,
    fn: (name) => {
      const f = names.indexOf(name);
      if (f < 0) throw new Error(`no function ${name}`);
      return f;
    },
    site: (label) => {
      const [call, suffix = ''] = label.split('@');
      const key = suffix === '' ? call : `${call.split('->')[0]}@${suffix}`;
      return siteLabels.indexOf(key);
    },
    format: (context) =>
      context
        .map((frame, i) => {
          const next = context[i + 1];
          return names[frame.function] + (next?.site != null ? siteSuffix[next.site] : '');
        })
        .join(''),
  };
}

/** Encodes a context given as frames, root first, by running its calls through the encoder. */
export function encodeFrames(numbering: ContextNumbering, context: readonly ContextFrame[]): EncodedContext {
  const encoder = new ContextEncoder(numbering);
  encoder.enter(context[0].function);
  for (const frame of context.slice(1)) encoder.call(frame.site as number, frame.function);
  return encoder.encoded();
}

/** Runs a sequence of calls from an entry (`['A->C', 'C->G']`, site labels as in the graph) and encodes. */
export function encodeCalls(
  named: NamedCallGraph,
  numbering: ContextNumbering,
  calls: readonly string[],
): EncodedContext {
  const encoder = new ContextEncoder(numbering);
  encoder.enter(named.fn(calls[0].split('->')[0]));
  for (const call of calls) encoder.call(named.site(call), named.fn(call.split('@')[0].split('->')[1]));
  return encoder.encoded();
}
