import * as t from '@babel/types';
import type { ControlFlowGraph, EdgeCodePlan, FreshName } from '@pathprof/cfg';
import {
  InterestingPathsError,
  numberPreferentialPaths,
  simplifyPathOps,
  type InterestingFunction,
  type PathNumbering,
} from '@pathprof/numbering';
import type { PathFallback } from './fallbacks';
import type { FileCounters } from './file-counters';
import { FunctionFingerprints } from './function-fingerprint';
import { GraphPlans } from './graph-plans';
import type { LoadedInterestingSet } from './interesting-set-file';
import { graphMetadata, numberingChecksum, type FunctionMetadata } from './metadata';
import type { ResolvedOptions } from './options';
import { CounterPlan, type CountingFunction } from './counter-plan';
import { numberForPaths, placePathFunction, type CounterLayout } from './path-functions';
import { PreferentialPlan, type PreferentialFunction } from './preferential-plan';
import {
  assignmentExpression,
  expressionStatement,
  variableDeclaration,
  variableDeclarator,
} from '@pathprof/cfg';

/** A function as the build names it in its notes. */
export interface FunctionAt {
  readonly function: string;
  readonly line: number;
}

/** What the build says of a file in preferential mode (`result.metadata.pathprof.preferential`). */
export interface PreferentialNote {
  /** The interesting-set file, relative to Babel's working directory. */
  readonly interesting: string;
  /** Functions that changed since the set was made: counted in path mode (the build warns about them). */
  readonly stale: FunctionAt[];
  /** Functions the set does not list (new, or their file never ran): every path they take is residual. */
  readonly unlisted: FunctionAt[];
}

export interface PreferentialFile {
  readonly plan: EdgeCodePlan;
  readonly functions: FunctionMetadata[];
  readonly arraySize: number;
  readonly hashCount: number;
  /** `var S;` for the slot table, if any function has interesting paths. */
  readonly declarations: t.Statement[];
  /** `S = [ … ]`, run by the file's registration. */
  readonly setup: t.Statement[];
  readonly fallbacks: PathFallback[];
  readonly note: PreferentialNote;
}

/**
 * Plans a file in preferential mode against an interesting set. Each function is numbered by Ball-Larus as
 * in path mode, then matched with the set's entries of its name by fingerprint (numbering and source text;
 * several functions of one name pair with entries in order). A match numbers its listed paths compactly; a
 * function with no entry of its name is new to the set and has none (every path it takes is residual); a
 * function whose name is listed only with other fingerprints changed since the set was made, and is counted
 * in path mode. Interesting counters come first in the file's array, so the slot table covers only them.
 */
export function planPreferentialFile(
  key: string,
  source: string,
  graphs: readonly ControlFlowGraph[],
  set: LoadedInterestingSet,
  options: ResolvedOptions,
  file: FileCounters,
  fresh: FreshName,
): PreferentialFile {
  const metas = graphs.map((g) => graphMetadata(g));
  const fingerprints = new FunctionFingerprints(
    source,
    metas.map((meta) => meta.range),
  );
  const numbered = graphs.map((g, i) => {
    const numbering = numberForPaths(g, options);
    const meta = metas[i];
    const checksum = numberingChecksum(numbering);
    return { g, numbering, meta, checksum, fingerprint: fingerprints.of(checksum, meta.range) };
  });
  const entries = matchEntries(numbered, set.byFile.get(key) ?? []);

  const layout: CounterLayout = { arraySize: 0, hashCount: 0 };
  const slots: number[] = [];
  const preferential = new Map<ControlFlowGraph, PreferentialFunction>();
  const functions: FunctionMetadata[] = numbered.map((f) => f.meta);
  const note: PreferentialNote = { interesting: set.file, stale: [], unlisted: [] };
  numbered.forEach(({ g, numbering, meta, checksum, fingerprint }, i) => {
    const entry = entries[i];
    if (entry === 'stale') return;
    if (entry === null) note.unlisted.push(at(g));
    const ppp = numberAgainst(set, key, g.name, fingerprint, numbering, entry?.pathIds ?? [], options);
    const fn = {
      bl: simplifyPathOps(numbering),
      pppOps: simplifyPathOps({ ...numbering, prologue: ppp.prologue, edgeOps: ppp.edgeOps }),
      ppp,
      offset: layout.arraySize,
      table: layout.hashCount++,
    };
    layout.arraySize += ppp.arraySize;
    slots.push(...ppp.slotPathId);
    preferential.set(g, fn);
    functions[i] = {
      ...meta,
      preferential: {
        offset: fn.offset,
        table: fn.table,
        pathCount: numbering.pathCount,
        checksum,
        slotPathId: [...ppp.slotPathId],
        droppedPathIds: [...ppp.droppedPathIds],
        listed: entry !== null,
      },
    };
  });

  const stale = new Map<ControlFlowGraph, CountingFunction>();
  const fallbacks: PathFallback[] = [];
  numbered.forEach(({ g, numbering, meta }, i) => {
    if (entries[i] !== 'stale') return;
    note.stale.push(at(g));
    const { fn, path, fallback } = placePathFunction(g, numbering, layout);
    stale.set(g, fn);
    if (fallback) fallbacks.push(fallback);
    functions[i] = { ...meta, path };
  });

  const table = fresh('pp_slots');
  const plans: EdgeCodePlan[] = [new PreferentialPlan(preferential, file, table)];
  if (stale.size) plans.push(new CounterPlan(stale, file));
  return {
    plan: plans.length === 1 ? plans[0] : new GraphPlans(plans),
    functions,
    ...layout,
    declarations: slots.length ? [variableDeclaration('var', [variableDeclarator(t.cloneNode(table))])] : [],
    setup: slots.length
      ? [expressionStatement(assignmentExpression('=', t.cloneNode(table), t.valueToNode(slots)))]
      : [],
    fallbacks,
    note,
  };
}

/**
 * Per function (in graph order), the set's entry it takes, null when its name is not listed, or `stale` when
 * its name is listed only with other fingerprints. Exact matches are taken first, in order, so a new function
 * of a listed name does not take an entry that another function of that name matches.
 */
function matchEntries(
  functions: readonly { g: ControlFlowGraph; fingerprint: string }[],
  listed: readonly InterestingFunction[],
): (InterestingFunction | null | 'stale')[] {
  const unused = new Map<string, InterestingFunction[]>();
  for (const entry of listed) unused.set(entry.name, [...(unused.get(entry.name) ?? []), entry]);
  const matched = functions.map(({ g, fingerprint }) => {
    const same = unused.get(g.name) ?? [];
    const k = same.findIndex((entry) => entry.fingerprint === fingerprint);
    return k < 0 ? null : same.splice(k, 1)[0];
  });
  return matched.map(
    (entry, i) => entry ?? ((unused.get(functions[i].g.name)?.length ?? 0) > 0 ? 'stale' : null),
  );
}

function numberAgainst(
  set: LoadedInterestingSet,
  key: string,
  name: string,
  fingerprint: string,
  numbering: PathNumbering,
  pathIds: readonly number[],
  options: ResolvedOptions,
) {
  try {
    return numberPreferentialPaths(
      { functionName: name, fingerprint, numbering },
      { functionName: name, fingerprint, pathIds },
      { maxArraySize: options.hashThreshold },
    );
  } catch (error) {
    if (!(error instanceof InterestingPathsError)) throw error;
    throw new Error(
      `babel-plugin-pathprof: invalid options: "interesting": ${set.file}: ${key}: ${error.message}`,
    );
  }
}

function at(g: ControlFlowGraph): FunctionAt {
  return { function: g.name, line: g.range?.start.line ?? 0 };
}

/** The build-time warning for a file whose functions changed since the interesting set was made. */
export function staleWarning(key: string, note: PreferentialNote): string | null {
  if (note.stale.length === 0) return null;
  const list = note.stale.map((f) => `${f.function} (line ${f.line})`).join(', ');
  return `pathprof: ${key}: changed since ${note.interesting} was made, so counted in path mode (no residual paths): ${list}`;
}
