import { transformSync } from '@babel/core';
import istanbul from 'babel-plugin-istanbul';
import type { Position } from '@pathprof/cfg';
import { locationKey, type CountsByLocation } from './coverage-from-paths';

/** The parts of istanbul's per-file coverage object (`__coverage__[path]`) the comparison reads. */
export interface IstanbulFileCoverage {
  fnMap: Record<string, { loc: { start: Position } }>;
  f: Record<string, number>;
  branchMap: Record<string, { type: string; loc: { start: Position } }>;
  b: Record<string, number[]>;
}

/** The branch types `branchCounts` derives; `binary-expr` (logical leaves) and `default-arg` are not. */
export const COMPARED_BRANCHES = ['if', 'cond-expr', 'switch', 'default-arg'];

/** `code` instrumented by babel-plugin-istanbul as a user's config would, counting into `__coverage__`. */
export function instrumentWithIstanbul(code: string, filename: string): string {
  const result = transformSync(code, {
    filename,
    babelrc: false,
    configFile: false,
    sourceType: 'unambiguous',
    plugins: [[istanbul, { cwd: process.cwd(), exclude: [], useInlineSourceMaps: false }]],
  });
  if (!result?.code) throw new Error(`istanbul gave no output for ${filename}`);
  return result.code;
}

/** Istanbul's function and compared branch counts of one file, keyed like `functionCounts`/`branchCounts`. */
export function istanbulCounts(coverage: IstanbulFileCoverage): {
  functions: CountsByLocation;
  branches: CountsByLocation;
} {
  const functions: CountsByLocation = new Map();
  for (const [id, fn] of Object.entries(coverage.fnMap)) {
    functions.set(locationKey('function', fn.loc.start), [coverage.f[id]]);
  }
  const branches: CountsByLocation = new Map();
  for (const [id, branch] of Object.entries(coverage.branchMap)) {
    if (COMPARED_BRANCHES.includes(branch.type)) {
      branches.set(locationKey(branch.type, branch.loc.start), coverage.b[id]);
    }
  }
  return { functions, branches };
}
