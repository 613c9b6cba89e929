import type * as t from '@babel/types';

/** A construct the graph builder cannot represent exactly; names the file and the position. */
export class CfgError extends Error {
  constructor(
    readonly filename: string,
    node: t.Node,
    problem: string,
  ) {
    const loc = node.loc ? `:${node.loc.start.line}:${node.loc.start.column + 1}` : '';
    super(`${filename}${loc}: ${problem}`);
    this.name = 'CfgError';
  }
}
