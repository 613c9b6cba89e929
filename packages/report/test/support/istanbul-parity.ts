import { createFileCoverage, type FileCoverageData } from 'istanbul-lib-coverage';
import type { CoverageGaps, IstanbulFileCoverage, Location } from '../../src';

type Kind = 'statements' | 'functions' | 'branches' | 'lines';
const KINDS: readonly Kind[] = ['statements', 'functions', 'branches', 'lines'];

/**
 * Per kind: how many istanbul has, how many of ours the profile only bounds, and how many of those it cannot
 * tell ran or not (lower bound 0) although istanbul says they ran: the hit/miss differences.
 */
export interface Parity {
  readonly differences: string[];
  readonly compared: Record<Kind, number>;
  readonly bounded: Record<Kind, number>;
  readonly unknownHits: Record<Kind, number>;
}

/** An entry's count as derived: the reported count (the lower bound) and, when bounded, the upper bound. */
interface Entry {
  readonly count: number;
  readonly upper: number;
}

/**
 * Compares the coverage derived from a path profile with babel-plugin-istanbul's for the same run: every
 * statement, function, branch arm and line of either, matched by location (and type, name), must be in both;
 * its count must equal istanbul's, or, where the profile only bounds it (`gaps`), the bounds must hold
 * istanbul's count. `differences` lists what does not; it is empty when they agree.
 */
export function istanbulParity(
  ours: { coverage: IstanbulFileCoverage; gaps: CoverageGaps },
  theirs: FileCoverageData | IstanbulFileCoverage,
): Parity {
  const a = entries(ours.coverage, ours.gaps);
  const b = entries(theirs, null);
  const parity: Parity = {
    differences: [],
    compared: { statements: 0, functions: 0, branches: 0, lines: 0 },
    bounded: { statements: 0, functions: 0, branches: 0, lines: 0 },
    unknownHits: { statements: 0, functions: 0, branches: 0, lines: 0 },
  };
  for (const kind of KINDS) {
    parity.compared[kind] = b[kind].size;
    for (const [where, { count: n }] of b[kind]) {
      const mine = a[kind].get(where);
      if (!mine) {
        parity.differences.push(`${kind} ${where}: istanbul ${n}, none derived`);
        continue;
      }
      if (mine.upper !== mine.count) {
        parity.bounded[kind]++;
        if (mine.count === 0 && n > 0) parity.unknownHits[kind]++;
      }
      if (n < mine.count || n > mine.upper)
        parity.differences.push(
          `${kind} ${where}: istanbul ${n}, derived ${mine.count === mine.upper ? mine.count : `${mine.count}..${mine.upper}`}`,
        );
    }
    for (const [where, { count }] of a[kind])
      if (!b[kind].has(where)) parity.differences.push(`${kind} ${where}: derived ${count}, not istanbul's`);
  }
  return parity;
}

function entries(
  coverage: FileCoverageData | IstanbulFileCoverage,
  gaps: CoverageGaps | null,
): Record<Kind, Map<string, Entry>> {
  const c = coverage as FileCoverageData;
  const at = (l: Location | { start: object; end: object }) => {
    const { start, end } = l as Location;
    return `${start.line}:${start.column}-${end.line}:${end.column}`;
  };
  const entry = (count: number, bound?: { upper: number } | null): Entry => ({
    count,
    upper: bound?.upper ?? count,
  });
  const statements = new Map(
    Object.entries(c.statementMap).map(([id, l]) => [at(l), entry(c.s[id], gaps?.s[id])]),
  );
  // A line counts as the most any statement starting on it ran (istanbul-lib-coverage's getLineCoverage).
  const lines = new Map<string, Entry>();
  for (const l of Object.values(c.statementMap)) {
    const line = `L${l.start.line}`;
    const s = statements.get(at(l))!;
    const seen = lines.get(line);
    lines.set(line, {
      count: Math.max(seen?.count ?? 0, s.count),
      upper: Math.max(seen?.upper ?? 0, s.upper),
    });
  }
  // Checks the line map above against istanbul's own.
  const own = createFileCoverage(c).getLineCoverage();
  for (const [line, n] of Object.entries(own))
    if (lines.get(`L${line}`)?.count !== n) throw new Error(`line ${line}: ${n} in istanbul-lib-coverage`);
  return {
    statements,
    functions: new Map(
      Object.entries(c.fnMap).map(([id, f]) => [`${f.name}@${at(f.loc)}`, entry(c.f[id], gaps?.f[id])]),
    ),
    branches: new Map(
      Object.entries(c.branchMap).flatMap(([id, b]) =>
        b.locations.map(
          (l, i) => [`${b.type}@${at(b.loc)} #${i} ${at(l)}`, entry(c.b[id][i], gaps?.b[id]?.[i])] as const,
        ),
      ),
    ),
    lines,
  };
}
