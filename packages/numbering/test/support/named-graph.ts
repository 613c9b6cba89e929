import type { FlowGraph } from '@pathprof/numbering';

/**
 * A small graph written as `'A->B'` edges, for the paper figures; a trailing `!` marks an exceptional edge and a
 * trailing `~` a silent one, part of the label (`'A->EXIT!'` and `'A->EXIT'` are two parallel edges).
 */
export interface NamedGraph {
  readonly graph: FlowGraph;
  readonly blockNames: readonly string[];
  block(name: string): number;
  /** The id of edge `'A->B'`; `occurrence` picks among parallel edges, in listing order. */
  edge(label: string, occurrence?: number): number;
  edgeLabel(edge: number): string;
}

export function namedGraph(entry: string, exit: string, edges: readonly string[]): NamedGraph {
  const blockNames: string[] = [entry, exit];
  const blockOf = (name: string): number => {
    let id = blockNames.indexOf(name);
    if (id < 0) id = blockNames.push(name) - 1;
    return id;
  };
  const labels = [...edges];
  const ends = labels.map((label) => label.replace(/[!~]$/, '').split('->').map(blockOf));
  const graph: FlowGraph = {
    blockCount: blockNames.length,
    entry: 0,
    exit: 1,
    edgeCount: edges.length,
    edgeSrc: Int32Array.from(ends, ([s]) => s),
    edgeDst: Int32Array.from(ends, ([, d]) => d),
    edgeExceptional: Uint8Array.from(edges, (label) => (label.endsWith('!') ? 1 : 0)),
    ...(edges.some((label) => label.endsWith('~'))
      ? { edgeSilent: Uint8Array.from(edges, (label) => (label.endsWith('~') ? 1 : 0)) }
      : {}),
  };
  return {
    graph,
    blockNames,
    block(name) {
      const id = blockNames.indexOf(name);
      if (id < 0) throw new Error(`no block ${name}`);
      return id;
    },
    edge(label, occurrence = 0) {
      let seen = 0;
      for (let e = 0; e < labels.length; e++) if (labels[e] === label && seen++ === occurrence) return e;
      throw new Error(`no edge ${label} #${occurrence}`);
    },
    edgeLabel: (e) => labels[e],
  };
}

/** Per-edge weights from a `label → weight` table, `fallback` for edges not listed. */
export function weightsOf(
  named: NamedGraph,
  table: Readonly<Record<string, number>>,
  fallback = 1,
): Float64Array {
  return Float64Array.from(
    { length: named.graph.edgeCount },
    (_, e) => table[named.edgeLabel(e)] ?? fallback,
  );
}
