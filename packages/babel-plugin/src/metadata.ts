import type { ControlFlowGraph } from '@pathprof/cfg';
import type { EdgeProfilePlan, PathNumbering } from '@pathprof/numbering';
import type { Mode } from './options';

/**
 * What the report needs to decode a file's counts into source, embedded in the instrumented file (so it
 * survives babel-jest's transform cache) and copied into every profile. Version 1:
 * positions are `[startLine, startColumn, endLine, endColumn]` flattened, `-1`s where a block has no code.
 */
export interface FileMetadata {
  readonly format: 'pathprof-meta/1';
  readonly file: string;
  readonly mode: Mode;
  readonly functions: FunctionMetadata[];
}

export interface FunctionMetadata {
  readonly name: string;
  readonly kind: ControlFlowGraph['kind'];
  /** Where the function is: `[startLine, startColumn, endLine, endColumn]`. */
  readonly range: number[];
  /** Fingerprint of the graph (blocks, edges, kinds, positions): counts are decoded only against this graph. */
  readonly fingerprint: string;
  /** Per block, 4 numbers: the source extent of its code. */
  readonly blocks: number[];
  /** Per edge, 5 numbers: its kind (`EdgeKind`) and the extent of the construct that owns it. */
  readonly edges: number[];
  /** `path` mode: where the counts are and how paths are numbered. */
  readonly path?: {
    readonly storage:
      { readonly kind: 'array'; readonly offset: number } | { readonly kind: 'hash'; readonly slot: number };
    readonly numbering: PathNumbering;
  };
  /** `edge` mode: the chord counters' first index and the plan deriving every edge count. */
  readonly edge?: { readonly offset: number; readonly plan: EdgeProfilePlan };
}

/** The graph part of a function's metadata. */
export function graphMetadata(
  cfg: ControlFlowGraph,
): Pick<FunctionMetadata, 'name' | 'kind' | 'range' | 'blocks' | 'edges'> {
  const blocks: number[] = [];
  for (const b of cfg.blocks) {
    if (b.range) blocks.push(b.range.start.line, b.range.start.column, b.range.end.line, b.range.end.column);
    else blocks.push(-1, -1, -1, -1);
  }
  const edges: number[] = [];
  cfg.edges.forEach((e, i) => {
    const loc = e.node.loc;
    edges.push(
      cfg.edgeKind[i],
      ...(loc ? [loc.start.line, loc.start.column, loc.end.line, loc.end.column] : [-1, -1, -1, -1]),
    );
  });
  const r = cfg.range;
  return {
    name: cfg.name,
    kind: cfg.kind,
    range: r ? [r.start.line, r.start.column, r.end.line, r.end.column] : [-1, -1, -1, -1],
    blocks,
    edges,
  };
}
