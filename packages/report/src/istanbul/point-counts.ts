import type * as t from '@babel/types';
import { buildInstrumentedCfgs, canInstrument, type CallTargets, type ProgramPoints } from '@pathprof/cfg';
import { graphMetadata } from 'babel-plugin-pathprof';
import type { ProfiledFile } from '../profiled-file';
import type { GraphCounts } from './graph-counts';

/** How often a program point ran: exactly when `lower === upper`. */
export interface PointCount {
  readonly lower: number;
  readonly upper: number;
}

/**
 * How often each statement and expression of a file started to run, from its path profile: the file's graphs
 * are rebuilt from the source as the plugin built them (lowered, in source order), each with the program point
 * of every statement and expression it runs (`ProgramPoint`), and matched to the profiled functions by their
 * graph's fingerprint. A point reached before any code of its block that may throw ran as often as its block
 * was entered; after such code, the profile bounds it (between the block's normal exits and its entries).
 */
export class PointCounts {
  private readonly points: ProgramPoints = new Map();
  /** Root node → index of its function in `file.functions`, for the graphs that were profiled. */
  private readonly profiled = new Map<t.Node, number>();
  /** Every graph root with its source offsets, innermost last among those that contain one another. */
  private readonly roots: { node: t.Node; start: number; end: number }[] = [];

  /**
   * `program` is the file's AST, which this rewrites (`lowerForDecisions`) as the plugin does; `targets`, for a
   * file counted in interprocedural mode, the callees of its calls (found before the rewrite, as the plugin
   * does), whose calls its graphs split.
   */
  constructor(
    program: t.Program,
    file: ProfiledFile,
    private readonly graph: GraphCounts,
    targets?: CallTargets,
  ) {
    let next = 0;
    const { functions } = graph;
    for (const g of buildInstrumentedCfgs(program, file.key, undefined, targets, this.points)) {
      this.roots.push({ node: g.node, start: g.node.start ?? 0, end: g.node.end ?? 0 });
      const fn = functions[next];
      if (fn && canInstrument(g) && graphMetadata(g).fingerprint === fn.fingerprint)
        this.profiled.set(g.node, next++);
    }
    if (next < functions.length) {
      throw new Error(
        `${file.key}: ${functions[next].name} is not the graph its source gives now; ` +
          'istanbul coverage not derived',
      );
    }
  }

  /** Where `node` starts: its function (index in `file.functions`) and block; null outside profiled graphs. */
  pointOf(node: t.Node): { fn: number; block: number } | null {
    const point = this.points.get(node);
    const fn = point && this.profiled.get(point.root);
    return point && fn !== undefined ? { fn, block: point.block } : null;
  }

  /**
   * How often `node` started to run; null when no profiled graph runs it (code of a function left out of the
   * profile, or that the plugin does not instrument). Unreachable code of a profiled graph ran 0 times.
   */
  count(node: t.Node): PointCount | null {
    const point = this.points.get(node);
    if (point) {
      const f = this.profiled.get(point.root);
      if (f === undefined) return null;
      const entries = this.graph.blockEntries[f][point.block] ?? 0;
      const lower = point.afterThrowable ? entries - this.graph.blockExceptions[f][point.block] : entries;
      return { lower, upper: entries };
    }
    const root = this.innermostRoot(node);
    return root && this.profiled.has(root) ? { lower: 0, upper: 0 } : null;
  }

  private innermostRoot(node: t.Node): t.Node | null {
    let best: { node: t.Node; start: number; end: number } | null = null;
    const start = node.start ?? 0;
    for (const root of this.roots) {
      if (root.start > start || root.end < (node.end ?? 0)) continue;
      if (!best || root.end - root.start <= best.end - best.start) best = root;
    }
    return best?.node ?? null;
  }
}
