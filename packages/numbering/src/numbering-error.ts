/** Why the engine refused a graph or an option; `code` is stable so callers can react without parsing text. */
export type NumberingErrorCode =
  | 'invalid-graph'
  | 'invalid-option'
  | 'exceptional-backedge'
  | 'forced-edges-cycle'
  | 'path-budget-too-small'
  | 'inexact-arithmetic';

export class NumberingError extends Error {
  constructor(
    readonly code: NumberingErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'NumberingError';
  }
}
