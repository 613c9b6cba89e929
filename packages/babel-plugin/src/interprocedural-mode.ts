import type * as t from '@babel/types';
import {
  enteredOnlyBySplitCalls,
  refusedHandOffs,
  unsplitCallRecords,
  type CallTargets,
  type ControlFlowGraph,
  type FreshName,
  type RefusalReason,
} from '@pathprof/cfg';
import { fitInterproceduralNumbering, planComponentStorage, type CutReason } from '@pathprof/numbering';
import type { FileCounters } from './file-counters';
import { interproceduralChecksum, programOf } from './interprocedural-metadata';
import { InterproceduralCode } from './interprocedural-plan';
import { graphMetadata, type FunctionMetadata, type InterproceduralMetadata } from './metadata';
import type { ResolvedOptions } from './options';

/** One split call as the build reports it (`result.metadata.pathprof.interprocedural`). */
export interface CallSiteNote {
  readonly site: number;
  readonly caller: string;
  readonly callee: string;
  readonly line: number;
  readonly column: number;
  /** Why the site is cut (null: crossed): recursion, or the file's path budget (`maxPaths`). */
  readonly cut: 'recursive' | 'budget' | null;
}

/** A call of a statically known callee that hands it nothing, as the build reports it. */
export interface NotCrossedNote {
  readonly caller: string;
  readonly callee: string;
  readonly line: number;
  readonly column: number;
  readonly why: RefusalReason;
}

/** What the build says of a file in interprocedural mode. */
export interface InterproceduralNote {
  readonly scheme: ResolvedOptions['scheme'];
  /** N, the number of interprocedural paths (a decimal string); null after a fallback. */
  readonly pathCount: string | null;
  /** The split calls, crossed or cut. */
  readonly sites: CallSiteNote[];
  /**
   * The calls whose callee is known statically but takes no hand-off, so that it starts paths of its own
   * (`why`: `async`, `generator`, `spread` arguments, or `parameters` that run code before its body). Every
   * other call is cut too: its callee is not known statically.
   */
  readonly notCrossed: NotCrossedNote[];
  /** Set when the file had to be counted per function (path mode) instead, with why. */
  readonly fallback: string | null;
}

export interface InterproceduralFile {
  readonly code: InterproceduralCode;
  readonly functions: FunctionMetadata[];
  readonly meta: InterproceduralMetadata;
  readonly arraySize: number;
  readonly hashCount: number;
  readonly note: InterproceduralNote;
}

/**
 * Numbers a file's interprocedural paths and plans its code: the graphs (built with their statically known
 * calls split) become procedures, the functions entered only through split calls are the non-roots, and
 * crossed sites are cut until every value fits in `maxPaths`. Null when no cutting makes it fit: one
 * function alone has too many paths (the caller then counts the file per function).
 */
export function planInterproceduralFile(
  key: string,
  graphs: readonly ControlFlowGraph[],
  targets: CallTargets,
  options: ResolvedOptions,
  file: FileCounters,
  fresh: FreshName,
): InterproceduralFile | null {
  const index = new Map<t.Node, number>(graphs.map((g, i) => [g.node, i]));
  const only = enteredOnlyBySplitCalls(targets, graphs);
  let nextSite = 0;
  const unsplit: FunctionMetadata[] = graphs.map((g) => ({
    ...graphMetadata(g),
    callSites: g.callSites.flatMap((s) => [
      nextSite++,
      s.call,
      s.returnSite,
      index.get(targets.calleeOf.get(s.node)!)!,
    ]),
  }));
  const roots = graphs.map((_, i) => i).filter((i) => !only.has(graphs[i].node));
  const fitted = fitInterproceduralNumbering(
    programOf(key, unsplit, roots),
    options.scheme,
    BigInt(options.maxPaths),
  );
  if (!fitted) return null;
  const { numbering, plan, cutSites } = fitted;
  const refused = refusedHandOffs(targets, graphs);
  const functions = unsplit.map((fn, i) => {
    const split = fitted.program.procedures[i].splitEdges;
    const calls = unsplitCallRecords(graphs[i], refused);
    return { ...fn, ...(split ? { splitEdges: [...split] } : {}), ...(calls.length > 0 ? { calls } : {}) };
  });
  const { storage, arraySize, hashCount } = planComponentStorage(numbering, options.hashThreshold);
  const budgetCuts = new Set(cutSites);
  const notCrossed: NotCrossedNote[] = refused.map((r) => ({
    caller: numbering.procedures[r.caller].name,
    callee: numbering.procedures[r.callee].name,
    line: r.call.loc?.start.line ?? 0,
    column: r.call.loc?.start.column ?? 0,
    why: r.why,
  }));
  const sites: CallSiteNote[] = numbering.procedures.flatMap((p, i) =>
    p.callSites.map((site, k) => {
      const call = graphs[i].callSites[k].node;
      return {
        site: site.site,
        caller: p.name,
        callee: site.callee === null ? '?' : numbering.procedures[site.callee].name,
        line: call.loc?.start.line ?? 0,
        column: call.loc?.start.column ?? 0,
        cut: cutNote(site.cut, budgetCuts.has(site.site)),
      };
    }),
  );
  return {
    code: new InterproceduralCode(
      numbering,
      plan,
      graphs,
      file,
      {
        object: fresh('pp_mailbox'),
        ret: fresh('pp_ret'),
        nvc: fresh('pp_nvc'),
        root: fresh('pp_started_root'),
        entry: fresh('pp_started_entry'),
      },
      storage,
    ),
    functions,
    meta: {
      scheme: options.scheme,
      roots,
      cutSites: [...cutSites],
      pathCount: String(numbering.pathCount),
      storage,
      checksum: interproceduralChecksum(numbering),
    },
    arraySize,
    hashCount,
    note: {
      scheme: options.scheme,
      pathCount: String(numbering.pathCount),
      sites,
      notCrossed,
      fallback: null,
    },
  };
}

function cutNote(reason: CutReason | null, budget: boolean): CallSiteNote['cut'] {
  if (reason === null) return null;
  return budget ? 'budget' : 'recursive';
}
