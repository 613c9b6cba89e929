import { findCallTargets, parseSource, programPathOf } from '@pathprof/cfg';
import { createFileCoverage, type FileCoverage, type FileCoverageData } from 'istanbul-lib-coverage';
import { counted } from '../counted';
import type { Problems } from '../problems';
import type { ProfiledFile } from '../profiled-file';
import { armCounts } from './branch-counts';
import type { IstanbulFileCoverage } from './file-coverage';
import { GraphCounts } from './graph-counts';
import { istanbulStructure } from './istanbul-structure';
import { PointCounts, type PointCount } from './point-counts';

/**
 * What the profile could not tell exactly: the counts it only bounds (by the ids of the coverage object; the
 * coverage holds the lower bound), and the branches left out because an arm is not determined at all.
 */
export interface CoverageGaps {
  readonly s: Record<string, PointCount>;
  readonly f: Record<string, PointCount>;
  readonly b: Record<string, (PointCount | null)[]>;
  branchesLeftOut: number;
}

/**
 * istanbul's coverage of one file, derived from its path profile: the statements, functions and branches
 * babel-plugin-istanbul makes of the source (`istanbulStructure`: same locations, same order, same
 * `(anonymous_N)` names), counted from the paths: a statement by how often control reached its start, a
 * function by how often its body started, a branch arm by its decision edges or its start. A count the profile
 * only bounds (a statement after a call in a block some run left by an exception) is its lower bound, so
 * nothing is reported as run that the profile does not show ran; `gaps` says how many there were. Throws
 * when the source no longer gives the graphs that were profiled, or never did (code compiled before Babel).
 */
export function istanbulCoverage(file: ProfiledFile): { coverage: IstanbulFileCoverage; gaps: CoverageGaps } {
  if (file.meta.compiledBefore) {
    // ts-jest's helpers and exports are its output's statements and branches: the source has none of them.
    throw new Error(
      `${file.key}: profiled from code compiled before Babel (ts-jest, tsc: an input source map), whose ` +
        'statements and branches the source alone does not give; istanbul coverage not derived (istanbul over that code gives it: jest --coverage, nyc)',
    );
  }
  const ast = parseSource(file.source.text, file.path);
  const { program } = ast;
  // Interprocedural mode splits the calls of callees it knows: its graphs are built with them.
  const targets = file.interprocedural ? findCallTargets(programPathOf(ast)) : undefined;
  const structure = istanbulStructure(program);
  const graph = new GraphCounts(file);
  const points = new PointCounts(program, file, graph, targets);
  const gaps: CoverageGaps = { s: {}, f: {}, b: {}, branchesLeftOut: 0 };
  const bounded = (count: PointCount) => count.lower !== count.upper;
  const coverage: IstanbulFileCoverage = {
    path: file.path,
    statementMap: {},
    fnMap: {},
    branchMap: {},
    s: {},
    f: {},
    b: {},
  };
  for (const site of structure.statements) {
    const count = points.count(site.node);
    if (!count) continue;
    const id = String(Object.keys(coverage.statementMap).length);
    coverage.statementMap[id] = site.loc;
    coverage.s[id] = count.lower;
    if (bounded(count)) gaps.s[id] = count;
  }
  for (const site of structure.functions) {
    const count = points.count(site.body);
    if (!count) continue;
    const id = String(Object.keys(coverage.fnMap).length);
    coverage.fnMap[id] = { name: site.name, decl: site.decl, loc: site.loc, line: site.loc.start.line };
    coverage.f[id] = count.lower;
    if (bounded(count)) gaps.f[id] = count;
  }
  for (const site of structure.branches) {
    const arms = armCounts(site.node, graph, points);
    const counts = site.arms.map((arm) => arms[arm]);
    if (counts.some((c) => !c)) {
      gaps.branchesLeftOut++;
      continue;
    }
    const known = counts as PointCount[];
    const id = String(Object.keys(coverage.branchMap).length);
    coverage.branchMap[id] = {
      type: site.type,
      loc: site.loc,
      locations: site.locations,
      line: site.loc.start.line,
    };
    coverage.b[id] = known.map((c) => c.lower);
    if (known.some(bounded)) gaps.b[id] = known.map((c) => (bounded(c) ? c : null));
  }
  return { coverage, gaps };
}

/**
 * The file's istanbul coverage as istanbul-lib-coverage's object (line counts, summary), in any mode (a file
 * counted in interprocedural mode gets a path-mode run's figures). Throws as `istanbulCoverage` does.
 */
export function istanbulFileCoverage(file: ProfiledFile): FileCoverage {
  // Our BranchLocation allows istanbul's empty locations, which its types do not spell out.
  return createFileCoverage(istanbulCoverage(file).coverage as unknown as FileCoverageData);
}

/**
 * The istanbul coverage of one file counted by several builds in one run (the plugin's options changed between
 * accumulated commands): their counts added, as the exports add them.
 */
export function mergedFileCoverage(builds: readonly ProfiledFile[]): FileCoverage {
  const [first, ...rest] = builds.map(istanbulFileCoverage);
  for (const other of rest) first.merge(other);
  return first;
}

/**
 * The istanbul coverage of each file, for the exports: a file whose coverage cannot be derived (its source no
 * longer parses or gives the profiled graphs) is a problem and left out; counts the profile only bounds are
 * said in a note (they are reported as their lower bound).
 */
export function istanbulCoverages(
  files: readonly ProfiledFile[],
  problems: Problems,
): IstanbulFileCoverage[] {
  const out: IstanbulFileCoverage[] = [];
  let bounded = 0;
  let leftOut = 0;
  for (const file of files) {
    let derived;
    try {
      derived = istanbulCoverage(file);
    } catch (error) {
      problems.add(`${file.key}: ${(error as Error).message.replace(`${file.key}: `, '')}; skipped`);
      continue;
    }
    out.push(derived.coverage);
    const { s, f, b, branchesLeftOut } = derived.gaps;
    bounded += Object.keys(s).length + Object.keys(f).length + Object.keys(b).length;
    leftOut += branchesLeftOut;
  }
  if (bounded)
    problems.note(
      `${bounded} ${bounded === 1 ? 'statement, function or branch is' : 'statements, functions or branches are'} counted as the least the profile shows ` +
        '(after a call in a block that a run left by an exception: where it was raised is not recorded)',
    );
  if (leftOut)
    problems.note(
      `${counted(leftOut, 'branch', 'branches')} left out: the profile does not determine an arm of theirs`,
    );
  return out;
}
