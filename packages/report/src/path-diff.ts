import { counted } from './counted';
import { formatDecision } from './decisions';
import type { ExecutedPath, FunctionReport, PathReport } from './path-report';

/** One function's change between two runs; `comparable` is false when its numbering changed. */
export interface FunctionDiff {
  readonly file: string;
  readonly name: string;
  readonly line: number;
  readonly comparable: boolean;
  readonly taken: ExecutedPath[];
  readonly dropped: ExecutedPath[];
}

/**
 * The paths run `after` took that run `before` did not, and those it no longer takes. Functions are matched
 * by file, name and line; a path id means the same path only under the same numbering (checksum), so a
 * function whose graph changed is reported as not comparable instead of diffed.
 */
export function diffReports(before: PathReport, after: PathReport): FunctionDiff[] {
  const index = (report: PathReport) => {
    const map = new Map<string, { file: string; fn: FunctionReport }>();
    for (const file of report.files)
      for (const fn of file.functions)
        map.set(`${file.file}\0${fn.name}\0${fn.location.start.line}`, { file: file.file, fn });
    return map;
  };
  const a = index(before);
  const b = index(after);
  const diffs: FunctionDiff[] = [];
  for (const key of new Set([...a.keys(), ...b.keys()])) {
    const old = a.get(key);
    const now = b.get(key);
    const { file, fn } = (now ?? old)!;
    const comparable = !old || !now || old.fn.checksum === now.fn.checksum;
    // Each report's paths are described at each read: read once.
    const before = comparable ? (old?.fn.paths ?? []) : [];
    const after = comparable ? (now?.fn.paths ?? []) : [];
    const ids = (paths: readonly ExecutedPath[]) => new Set(paths.map((p) => p.id));
    const [idsBefore, idsAfter] = [ids(before), ids(after)];
    const taken = after.filter((p) => !idsBefore.has(p.id));
    const dropped = before.filter((p) => !idsAfter.has(p.id));
    if (!comparable || taken.length || dropped.length)
      diffs.push({ file, name: fn.name, line: fn.location.start.line, comparable, taken, dropped });
  }
  return diffs;
}

export function formatDiff(diffs: readonly FunctionDiff[]): string {
  const out: string[] = [];
  const path = (sign: string, p: ExecutedPath) =>
    `  ${sign} path ${p.id} (×${p.count}) ${p.description}: ${p.decisions.map(formatDecision).join('; ')}`;
  for (const d of diffs) {
    out.push(
      `${d.file}:${d.line} ${d.name}${d.comparable ? '' : ': changed between the runs, paths not comparable'}`,
    );
    out.push(...d.taken.map((p) => path('+', p)), ...d.dropped.map((p) => path('-', p)));
  }
  const taken = diffs.reduce((n, d) => n + d.taken.length, 0);
  const dropped = diffs.reduce((n, d) => n + d.dropped.length, 0);
  out.push(`${counted(taken, 'path')} newly taken, ${dropped} no longer taken`);
  return out.join('\n');
}
