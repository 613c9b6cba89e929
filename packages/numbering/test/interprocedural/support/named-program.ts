import type { Program, SupergraphVertex } from '@pathprof/numbering';
import { namedGraph, type NamedGraph } from '../../support/named-graph';

/** A procedure written with named blocks; call edges are listed with the others (`'c->r'`). */
export interface NamedProcedureSpec {
  readonly name: string;
  readonly file?: string;
  readonly entry: string;
  readonly exit: string;
  readonly edges: readonly string[];
  /** Per call vertex: the callee's name, or null for an unknown callee; the return site is its successor. */
  readonly calls?: Readonly<Record<string, string | null>>;
  /** Display names of `GExit_P` and `GEntry_P` (the paper names them like blocks). */
  readonly globalExit?: string;
  readonly globalEntry?: string;
}

export interface NamedProgram {
  readonly program: Program;
  readonly graphs: readonly NamedGraph[];
  procedure(name: string): number;
  /** The site id of the call at vertex `call` of `procedure`. */
  site(procedure: string, call: string): number;
  vertexName(vertex: SupergraphVertex): string;
}

/** Builds a program from named procedures; site ids count up from 0 in listing order. */
export function namedProgram(specs: readonly NamedProcedureSpec[], roots: readonly string[]): NamedProgram {
  const names = specs.map((s) => s.name);
  const index = (name: string): number => {
    const i = names.indexOf(name);
    if (i < 0) throw new Error(`no procedure ${name}`);
    return i;
  };
  const graphs = specs.map((s) => namedGraph(s.entry, s.exit, s.edges));
  let nextSite = 0;
  const program: Program = {
    procedures: specs.map((spec, p) => ({
      name: spec.name,
      file: spec.file ?? 'main.js',
      graph: graphs[p].graph,
      callSites: Object.entries(spec.calls ?? {}).map(([call, callee]) => {
        const g = graphs[p];
        const c = g.block(call);
        const e = Array.from(g.graph.edgeSrc).findIndex(
          (s, k) => s === c && g.graph.edgeExceptional[k] === 0,
        );
        return {
          site: nextSite++,
          call: c,
          returnSite: g.graph.edgeDst[e],
          callee: callee === null ? null : index(callee),
        };
      }),
    })),
    roots: roots.map(index),
  };
  return {
    program,
    graphs,
    procedure: index,
    site(procedure, call) {
      const p = program.procedures[index(procedure)];
      const c = graphs[index(procedure)].block(call);
      const found = p.callSites.find((s) => s.call === c);
      if (found === undefined) throw new Error(`no call at ${procedure}.${call}`);
      return found.site;
    },
    vertexName({ procedure, vertex }) {
      const spec = specs[procedure];
      const blocks = graphs[procedure].blockNames;
      if (vertex < blocks.length) return blocks[vertex];
      return (vertex === blocks.length ? spec.globalExit : spec.globalEntry) ?? `${spec.name}#${vertex}`;
    },
  };
}
