import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fingerprint } from 'babel-plugin-pathprof';
import { decodeDecisions } from './decisions';
import type { ExecutedPath, PathReport } from './path-report';
import type { FunctionPaths, ProfiledFile } from './profiled-file';
import { pathLines } from './show-paths';
import type { TerminalStyle } from './terminal-style';
import { counted } from './counted';

/**
 * How a function of a file counted in preferential mode stands to its interesting set: `compared` (the set
 * lists it: every path it took outside the set is residual), `unlisted` (the set does not know it: new, or its
 * file did not run in the baseline; every path it took is residual), `changed` (it changed since the set was
 * made: counted in path mode, its paths cannot be compared).
 */
export type PreferentialStatus = 'compared' | 'unlisted' | 'changed';

/** A preferential function in the report (`pathprof-report json`). */
export interface FunctionPreferential {
  readonly status: PreferentialStatus;
  /** How many paths its interesting set names (0 when not `compared`). */
  readonly interestingPaths: number;
  /** How many counters they take (holes included: PPP ids are compact, not always dense). */
  readonly counters: number;
  /** Its executed paths outside the set (0 for a `changed` function: nothing to compare with). */
  readonly residualPaths: number;
}

/** The function's standing in preferential mode; null for a file counted in another mode. */
export function preferentialStatus(file: ProfiledFile, fn: FunctionPaths): PreferentialStatus | null {
  if (file.meta.mode !== 'preferential') return null;
  if (!fn.preferential) return 'changed';
  return fn.preferential.listed ? 'compared' : 'unlisted';
}

/** Whether an executed path of a preferential function is outside its interesting set. */
export function isResidual(fn: FunctionPaths, id: number): boolean {
  return fn.preferential !== undefined && !fn.preferential.interesting.has(id);
}

export function functionPreferential(file: ProfiledFile, fn: FunctionPaths): FunctionPreferential | null {
  const status = preferentialStatus(file, fn);
  if (status === null) return null;
  return {
    status,
    interestingPaths: fn.preferential?.interesting.size ?? 0,
    counters: fn.preferential?.counters ?? 0,
    residualPaths: [...fn.counts.keys()].filter((id) => isResidual(fn, id)).length,
  };
}

/**
 * A run counted in preferential mode: its residual paths, and what was not compared (under the text report's
 * table, on the HTML index); null for a run without preferential functions.
 */
export function preferentialSummary(report: PathReport): string | null {
  const functions = report.files.flatMap((f) => f.functions).filter((fn) => fn.preferential);
  if (functions.length === 0) return null;
  const compared = functions.filter((fn) => fn.preferential!.status === 'compared');
  const residual = compared.reduce((n, fn) => n + fn.preferential!.residualPaths, 0);
  const changed = functions.filter((fn) => fn.preferential!.status === 'changed').length;
  const unlisted = functions.filter((fn) => fn.preferential!.status === 'unlisted').length;
  return (
    `Preferential: ${counted(residual, 'residual path')} (outside the interesting set) in ` +
    `${compared.filter((fn) => fn.preferential!.residualPaths > 0).length} of ${counted(compared.length, 'function')}; ` +
    `not compared: ${changed} changed since the set was made, ${unlisted} not in it ` +
    '(`pathprof-report residual` lists them)'
  );
}

/** A function in `pathprof-report residual`. */
export interface ResidualFunction {
  readonly file: string;
  readonly name: string;
  readonly line: number;
  readonly status: PreferentialStatus;
  readonly executedPaths: number;
  readonly interestingPaths: number;
  /** Its residual paths, most frequent first. */
  readonly residual: ExecutedPath[];
}

/** What `pathprof-report residual` prints: the runs' paths outside their interesting sets. */
export interface ResidualReport {
  /** The interesting-set files the run was instrumented against. */
  readonly sets: string[];
  /** Functions with residual paths, and those whose paths could not be compared, that ran. */
  readonly functions: ResidualFunction[];
  /** Residual paths of the `compared` functions: what `--check` fails on. */
  readonly residualPaths: number;
}

export function residualReport(files: readonly ProfiledFile[]): ResidualReport {
  const sets = new Set<string>();
  const functions: ResidualFunction[] = [];
  for (const file of files) {
    if (file.meta.preferential) sets.add(file.meta.preferential.interesting);
    for (const fn of file.functions) {
      const status = preferentialStatus(file, fn);
      if (status === null || fn.counts.size === 0) continue;
      const residual = [...fn.counts]
        .filter(([id]) => isResidual(fn, id))
        .sort((a, b) => b[1] - a[1] || a[0] - b[0])
        .map(([id, count]) => ({ id, count, ...decodeDecisions(fn, id, file.source) }));
      if (status === 'compared' && residual.length === 0) continue;
      functions.push({
        file: file.key,
        name: fn.meta.name,
        line: fn.meta.range[0],
        status,
        executedPaths: fn.counts.size,
        interestingPaths: fn.preferential?.interesting.size ?? 0,
        residual,
      });
    }
  }
  const compared = functions.filter((f) => f.status === 'compared');
  return {
    sets: [...sets].sort(),
    functions,
    residualPaths: compared.reduce((n, f) => n + f.residual.length, 0),
  };
}

/**
 * The residual paths of the functions the sets list, each decoded into its decisions (at most `limit` per
 * function); then the functions whose paths could not be compared, with why.
 */
export function formatResidual(report: ResidualReport, style: TerminalStyle, limit: number): string {
  if (report.sets.length === 0)
    return 'No file was counted in preferential mode (plugin option mode: "preferential").';
  const compared = report.functions.filter((f) => f.status === 'compared');
  const others = report.functions.filter((f) => f.status !== 'compared');
  const out = [
    style.bold(`Residual paths: taken by this run, not in the interesting set (${report.sets.join(', ')})`),
  ];
  for (const fn of compared) {
    out.push(
      '',
      style.bold(`${fn.file}:${fn.line} ${fn.name}`) +
        `: ${fn.residual.length} residual of ${counted(fn.executedPaths, 'executed path')} (${fn.interestingPaths} interesting)`,
    );
    for (const path of fn.residual.slice(0, limit))
      out.push(...pathLines(`path ${path.id}  ×${path.count}`, path));
    if (fn.residual.length > limit)
      out.push(style.dim(`  … and ${fn.residual.length - limit} more (--limit N shows more)`));
  }
  if (others.length) {
    out.push('', style.bold('Not compared (the interesting set cannot say which of their paths are new):'));
    for (const fn of others) {
      const why =
        fn.status === 'changed'
          ? 'changed since the interesting set was made (counted in path mode)'
          : 'not in the interesting set (new, or its file did not run in the baseline)';
      out.push(`  ${fn.file}:${fn.line} ${fn.name}: ${why}; ${counted(fn.executedPaths, 'path')} executed`);
    }
  }
  out.push(
    '',
    `${counted(report.residualPaths, 'residual path')} in ${counted(compared.length, 'function')}` +
      (others.length ? `; ${counted(others.length, 'function')} not compared` : ''),
  );
  return out.join('\n');
}

/**
 * Problems with the interesting sets the files were instrumented against: one set file built in two
 * versions, or a set file whose content changed since (a transform cache that kept builds made against the
 * old set). The set is looked for where the sources are (`roots`); one not found cannot be checked.
 */
export function interestingSetProblems(
  files: readonly ProfiledFile[],
  roots: readonly string[],
): { problems: string[]; notes: string[] } {
  const problems: string[] = [];
  const notes: string[] = [];
  const bySet = new Map<string, Map<string, string[]>>();
  for (const file of files) {
    const set = file.meta.preferential;
    if (!set) continue;
    const digests = bySet.get(set.interesting) ?? new Map<string, string[]>();
    digests.set(set.digest, [...(digests.get(set.digest) ?? []), file.key]);
    bySet.set(set.interesting, digests);
  }
  const advice =
    'a transform cache kept builds made against an older set: under jest use babel-plugin-pathprof/jest-transform, or run once with --no-cache';
  for (const [set, digests] of bySet) {
    const found = roots.map((root) => resolve(root, set)).find((p) => existsSync(p));
    const current = found ? fingerprint(readFileSync(found, 'utf8')) : null;
    if (current === null) notes.push(`${set}: not found under ${roots.join(', ')}; not checked for changes`);
    if (digests.size > 1 || (current !== null && !digests.has(current))) {
      const stale = [...digests].filter(([digest]) => digest !== current).flatMap(([, keys]) => keys);
      problems.push(
        `${stale.join(', ')}: instrumented against another version of ${set} than ${current ? 'its current one' : 'other files'} (${advice})`,
      );
    }
  }
  return { problems, notes };
}
