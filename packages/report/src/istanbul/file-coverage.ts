/**
 * istanbul's per-file coverage object (the values of `coverage-final.json`, what `nyc report`, Codecov and
 * IDEs read). Lines are 1-based, columns 0-based, as in istanbul.
 */
export interface Position {
  line: number;
  column: number;
}

export interface Location {
  start: Position;
  end: Position;
}

export interface FunctionMapping {
  name: string;
  decl: Location;
  loc: Location;
  line: number;
}

/** istanbul's branch types that a path profile can supply (see branch-counts.ts for what it cannot). */
export type BranchType = 'if' | 'cond-expr' | 'binary-expr' | 'switch' | 'default-arg';

/** A branch's location: istanbul leaves it empty for an `if` without `else`. */
export type BranchLocation = Location | { start: Record<string, never>; end: Record<string, never> };

export interface BranchMapping {
  type: BranchType;
  loc: Location;
  locations: BranchLocation[];
  line: number;
}

export interface IstanbulFileCoverage {
  path: string;
  statementMap: Record<string, Location>;
  fnMap: Record<string, FunctionMapping>;
  branchMap: Record<string, BranchMapping>;
  s: Record<string, number>;
  f: Record<string, number>;
  b: Record<string, number[]>;
}

export function location(
  startLine: number,
  startColumn: number,
  endLine: number,
  endColumn: number,
): Location {
  return { start: { line: startLine, column: startColumn }, end: { line: endLine, column: endColumn } };
}
