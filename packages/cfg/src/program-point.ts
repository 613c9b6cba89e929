import type * as t from '@babel/types';

/**
 * Where control is when a statement or an expression starts to run: in `block` of the graph of `root` (the
 * graph's `node`), after code of the same block that may throw when `afterThrowable`. The point is reached exactly as often as the block is entered
 * when nothing before it may throw; otherwise at least as often as the block is left normally, at most as
 * often as it is entered (where in a block an exception was raised is not recorded). What counts statements
 * from a path profile reads these (istanbul's statements are such points).
 */
export interface ProgramPoint {
  readonly root: t.Node;
  readonly block: number;
  readonly afterThrowable: boolean;
}

/** The program points a graph builder records, by node (see `buildCfg`). */
export type ProgramPoints = Map<t.Node, ProgramPoint>;
