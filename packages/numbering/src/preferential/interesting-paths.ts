/**
 * The interesting paths of one function, as an earlier profile names them: Ball-Larus ids (the hot paths, or
 * those a test suite covered) and the fingerprint of the graph they were numbered on.
 */
export interface InterestingPaths {
  readonly functionName: string;
  readonly fingerprint: string;
  readonly pathIds: readonly number[];
}

/** Why an interesting set was refused; stable, so a caller can react (re-profile, skip) without parsing text. */
export type InterestingPathsProblem =
  'wrong-function' | 'stale-fingerprint' | 'invalid-path-id' | 'duplicate-path-id';

/** An interesting set that does not fit the function it is applied to. */
export class InterestingPathsError extends Error {
  constructor(
    readonly functionName: string,
    readonly problem: InterestingPathsProblem,
    message: string,
  ) {
    super(`${functionName}: ${message}`);
    this.name = 'InterestingPathsError';
  }
}
