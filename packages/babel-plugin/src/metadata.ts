import type { ControlFlowGraph, RefusalReason, SourceRange } from '@pathprof/cfg';
import { isSilentKind } from '@pathprof/cfg';
import {
  type ContextNumbering,
  numberPaths,
  planEdgeProfile,
  type ComponentStorage,
  type EdgeProfilePlan,
  type FlowGraph,
  type PathNumbering,
} from '@pathprof/numbering';
import { fingerprint } from './fingerprint';
import type { Mode, Scheme, SuccessorOrder } from './options';

/**
 * What the report needs to decode a file's counts into source, embedded in the instrumented file (so it
 * survives babel-jest's transform cache) and copied into every profile. Version 1. The graph is stored, not
 * its numbering: numbering is deterministic, so a reader recomputes it and checks it against `checksum`
 * (a different numbering version is detected, never decoded wrongly). Source extents are stored once in
 * `ranges` as flattened `[startLine, startColumn, endLine, endColumn]` quadruples and referred to by index
 * (many edges share their construct's extent), -1 where there is none.
 */
export interface FileMetadata {
  readonly format: 'pathprof-meta/1';
  readonly file: string;
  readonly mode: Mode;
  /** The numbering options the file was instrumented with. */
  readonly maxPaths: number;
  readonly hashThreshold: number;
  /** Present when not the default (`most-paths-last`): the out-edge order path numbers follow. */
  readonly successorOrder?: SuccessorOrder;
  readonly functions: FunctionMetadata[];
  /** `interprocedural` mode: how the file's paths were numbered and where they are counted. */
  readonly interprocedural?: InterproceduralMetadata;
  /** `preferential` mode: the interesting set the file was instrumented against. */
  readonly preferential?: PreferentialSetMetadata;
  /**
   * Calling contexts (mode `contexts`, or `path` with `contexts: true`): how the file's contexts are numbered.
   * In path mode a function's paths are then counted per context, not in the file's counters.
   */
  readonly contexts?: ContextMetadata;
  /**
   * Instrumented from code compiled before Babel (an input source map: ts-jest's output, tsc's with its
   * `.map`): `file`, the hash and every location are the original source's, but the graphs are the compiled
   * code's (its helpers, its exports), which the source alone does not give back.
   */
  readonly compiledBefore?: true;
  /**
   * Instrumented from code compiled from the file before Babel with no source map (ts-jest or tsc with
   * `sourceMap: false`): its graphs and locations are the compiled code's, which the file does not have.
   */
  readonly compiledWithoutMap?: true;
}

/** The interesting-set file a `preferential`-mode file was instrumented against. */
export interface PreferentialSetMetadata {
  /** The file, relative to Babel's working directory (`/`-separated). */
  readonly interesting: string;
  /** The fingerprint of its content then: a reader can tell a build made against an older set. */
  readonly digest: string;
}

/**
 * A function counted in `preferential` mode. Its interesting paths count in the file's array, one counter per
 * compact id; every other path it takes (residual) counts in a hash table by its Ball-Larus id, like a
 * hash-mode function's. The Ball-Larus numbering is recomputed by readers and checked against `checksum`.
 */
export interface PreferentialFunctionMetadata {
  /** Its first counter in the file's array (also its first entry in the file's slot table). */
  readonly offset: number;
  /** Its residual paths' hash table. */
  readonly table: number;
  readonly pathCount: number;
  readonly checksum: string;
  /** Per counter, the Ball-Larus id of the interesting path it counts; -1 for a hole no path has. */
  readonly slotPathId: number[];
  /** Interesting paths whose compact id fell beyond `hashThreshold`: they count in the hash table. */
  readonly droppedPathIds: number[];
  /** Whether the interesting set lists the function (if not: new, or its file never ran in the baseline). */
  readonly listed: boolean;
}

/**
 * A file's calling-context numbering (Sumner et al.), stored as computed (it is small: one edge per call
 * between the file's functions): context value `v` of the file is context id `v - base[f]` of the function
 * `f` whose range holds it, the ranges laid end to end in function order (numbering's `contextValues`).
 */
export interface ContextMetadata {
  readonly numbering: ContextNumbering;
  /** Per call site of the numbering, its line and column. */
  readonly sites: number[];
  /** The most context values the file could use (the `maxContexts` option). */
  readonly maxContexts: number;
}

/**
 * A file's interprocedural numbering, recomputed by readers from the functions' graphs and call sites with
 * these inputs (interprocedural-metadata.ts), then checked against `checksum`.
 */
export interface InterproceduralMetadata {
  readonly scheme: Scheme;
  /** The functions (indexes in `functions`) that can start without a crossed call, in order. */
  readonly roots: number[];
  /** Crossed sites cut to keep the numbers within `maxPaths` (site ids). */
  readonly cutSites: number[];
  /** N, as a decimal string (it is below 2^53, but the numbering works in BigInt). */
  readonly pathCount: string;
  /** Where each component of the crossed call graph is counted: a slice of the file's array or a hash table. */
  readonly storage: ComponentStorage;
  readonly checksum: string;
  /**
   * Builds before the functions' `calls`: the calls whose callee is known statically but takes no hand-off
   * (indexes in `functions`, the call's line, why: see `RefusalReason`); absent when there are none. Newer
   * builds list these calls (and every other call that is not split) in their caller's `calls`, with blocks.
   */
  readonly notCrossed?: { caller: number; callee: number; line: number; why: RefusalReason }[];
}

export interface FunctionMetadata {
  readonly name: string;
  readonly kind: ControlFlowGraph['kind'];
  readonly range: number[];
  /** Fingerprint of the graph (edges, kinds, block positions). */
  readonly fingerprint: string;
  readonly blockCount: number;
  /** Per edge, a triple: source block, target block, kind (`EdgeKind`). */
  readonly edges: number[];
  /** The ids of exceptional edges. */
  readonly exceptional: number[];
  /** Distinct source extents, 4 numbers each. */
  readonly ranges: number[];
  /** Per block, the index in `ranges` of the extent of its code, or -1. */
  readonly blockRanges: number[];
  /** Per edge, the index in `ranges` of the construct that owns it, or -1 (exceptional edges). */
  readonly edgeRanges: number[];
  /**
   * `path` mode: where the counts are, how many paths there are, and the numbering's checksum. In a
   * `preferential`-mode file: a function that changed since its interesting set was made, counted in path mode.
   */
  readonly path?: {
    readonly storage:
      { readonly kind: 'array'; readonly offset: number } | { readonly kind: 'hash'; readonly slot: number };
    readonly pathCount: number;
    readonly checksum: string;
  };
  /** `preferential` mode: see `PreferentialFunctionMetadata`. */
  readonly preferential?: PreferentialFunctionMetadata;
  /** `edge` mode: the chord counters' first index and count. */
  readonly edge?: {
    readonly offset: number;
    readonly counterCount: number;
    readonly checksum: string;
    /** The edges predicted less taken (`unlikelyEdges`), which the placement weighs less; absent: none. */
    readonly unlikely?: number[];
  };
  /**
   * `interprocedural` mode: the function's split calls, 4 numbers each: the file-wide site id, the call
   * vertex, the return site, and the callee (an index in `functions`).
   */
  readonly callSites?: number[];
  /** `interprocedural` mode: edges split to keep the function's own paths within budget (like backedges). */
  readonly splitEdges?: number[];
  /**
   * `interprocedural` mode: the calls the function makes that are not split (neither crossed nor cut: a
   * callee not known statically, or one that takes no hand-off), 7 numbers each (`unsplitCallRecords` of
   * @pathprof/cfg, read by `readUnsplitCalls`): the block that makes it, in the order the block makes them.
   * Absent when there are none (and in builds before it, which had `notCrossed` instead).
   */
  readonly calls?: number[];
  /**
   * `path` mode: decisions on one condition over values that cannot change (`correlatedConditions`), per
   * condition its edges as `2 * edge + 1` (taking it means the condition holds) or `2 * edge`; a path taking
   * two with opposite outcomes is infeasible. Absent when there are none (and in profiles made before it).
   */
  readonly correlated?: number[][];
  /**
   * `path` mode: tests of one unchanging value by different conditions that constrain each other
   * (`correlatedConditions`: `x == null` then `x`), per value `[classCount, edge, mask, edge, mask, …]`, `mask`
   * the classes of the value still possible after taking `edge`; a path whose decisions leave a value no class
   * is infeasible. Its values' conditions tested twice are also in `correlated` (for readers made before
   * `implied`), which constrain nothing more. Absent when there are none.
   */
  readonly implied?: number[][];
}

/** The graph part of a function's metadata. */
export function graphMetadata(
  cfg: ControlFlowGraph,
): Omit<FunctionMetadata, 'path' | 'preferential' | 'edge' | 'callSites' | 'splitEdges' | 'calls'> {
  const ranges: number[] = [];
  const known = new Map<string, number>();
  const rangeIndex = (r: SourceRange | null | undefined): number => {
    if (!r) return -1;
    const key = `${r.start.line},${r.start.column},${r.end.line},${r.end.column}`;
    let index = known.get(key);
    if (index === undefined) {
      index = ranges.length / 4;
      known.set(key, index);
      ranges.push(r.start.line, r.start.column, r.end.line, r.end.column);
    }
    return index;
  };
  const edges: number[] = [];
  const exceptional: number[] = [];
  const edgeRanges: number[] = [];
  for (let e = 0; e < cfg.edgeCount; e++) {
    edges.push(cfg.edgeSrc[e], cfg.edgeDst[e], cfg.edgeKind[e]);
    if (cfg.edgeExceptional[e]) exceptional.push(e);
    edgeRanges.push(cfg.edgeExceptional[e] ? -1 : rangeIndex(cfg.edges[e].node.loc));
  }
  const blockRanges = cfg.blocks.map((b) => rangeIndex(b.range));
  const blockText = blockRanges
    .map((i) =>
      i < 0 ? '-' : `${ranges[4 * i]}:${ranges[4 * i + 1]}:${ranges[4 * i + 2]}:${ranges[4 * i + 3]}`,
    )
    .join(',');
  const r = cfg.range;
  return {
    name: cfg.name,
    kind: cfg.kind,
    range: r ? [r.start.line, r.start.column, r.end.line, r.end.column] : [-1, -1, -1, -1],
    fingerprint: fingerprint(`${edges.join(',')}|${blockText}`),
    blockCount: cfg.blockCount,
    edges,
    exceptional,
    ranges,
    blockRanges,
    edgeRanges,
  };
}

/** The function's graph as the numbering engine reads it. */
export function flowGraphOf(fn: FunctionMetadata): FlowGraph {
  const edgeCount = fn.edges.length / 3;
  const edgeExceptional = new Uint8Array(edgeCount);
  for (const e of fn.exceptional) edgeExceptional[e] = 1;
  const edgeSilent = Uint8Array.from({ length: edgeCount }, (_, e) =>
    isSilentKind(fn.edges[3 * e + 2]) ? 1 : 0,
  );
  return {
    blockCount: fn.blockCount,
    entry: 0,
    exit: 1,
    edgeCount,
    edgeSrc: Int32Array.from({ length: edgeCount }, (_, e) => fn.edges[3 * e]),
    edgeDst: Int32Array.from({ length: edgeCount }, (_, e) => fn.edges[3 * e + 1]),
    edgeExceptional,
    edgeSilent,
  };
}

/** The numbering's checksum: its path values, which fix every path number. */
export function numberingChecksum(numbering: PathNumbering): string {
  return fingerprint(
    `${numbering.pathCount}|${numbering.dag.val.join(',')}|${numbering.dag.origin.join(',')}`,
  );
}

/**
 * The Ball-Larus numbering a `path`-mode or `preferential`-mode function was instrumented with, recomputed
 * from its metadata; throws if this version of the numbering engine numbers it differently.
 */
export function numberingOf(file: FileMetadata, fn: FunctionMetadata): PathNumbering {
  const counted = fn.path ?? fn.preferential;
  if (!counted) throw new Error(`${file.file}: ${fn.name} was not instrumented in path mode`);
  const numbering = numberPaths(flowGraphOf(fn), {
    maxPaths: file.maxPaths,
    arrayThreshold: file.hashThreshold,
    successorOrder: file.successorOrder,
  });
  if (numberingChecksum(numbering) !== counted.checksum) {
    throw new Error(
      `${file.file}: ${fn.name} was numbered by another version of pathprof; re-instrument (clear the transform cache)`,
    );
  }
  return numbering;
}

/** The edge profile's checksum: which counter each edge and each throw increments. */
export function edgePlanChecksum(plan: EdgeProfilePlan): string {
  return fingerprint(`${plan.counterCount}|${plan.edgeCounter.join(',')}|${plan.throwCounter.join(',')}`);
}

/**
 * The edge-profile plan an `edge`-mode function was instrumented with, recomputed from its metadata; throws if
 * this version of pathprof places the counters differently.
 */
export function edgePlanOf(file: FileMetadata, fn: FunctionMetadata): EdgeProfilePlan {
  if (!fn.edge) throw new Error(`${file.file}: ${fn.name} was not instrumented in edge mode`);
  const plan = planEdgeProfile(flowGraphOf(fn), { unlikely: fn.edge.unlikely });
  if (edgePlanChecksum(plan) !== fn.edge.checksum) {
    throw new Error(
      `${file.file}: ${fn.name} was instrumented by another version of pathprof; re-instrument (clear the transform cache)`,
    );
  }
  return plan;
}
