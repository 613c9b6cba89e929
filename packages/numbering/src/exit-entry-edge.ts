/** A graph's edges plus the non-executable EXIT→ENTRY edge, which closes every execution into a cycle. */
export interface WithExitEntryEdge {
  /** The id of EXIT→ENTRY: the last one. */
  readonly rootEdge: number;
  readonly src: Int32Array;
  readonly dst: Int32Array;
  /** 1 for the edges forced into the spanning tree: EXIT→ENTRY and the codeless (exceptional, silent) edges. */
  readonly forced: Uint8Array;
}

export function withExitEntryEdge(
  src: Int32Array,
  dst: Int32Array,
  codeless: Uint8Array,
  entry: number,
  exit: number,
): WithExitEntryEdge {
  const rootEdge = src.length;
  const extendedSrc = new Int32Array(rootEdge + 1);
  extendedSrc.set(src);
  extendedSrc[rootEdge] = exit;
  const extendedDst = new Int32Array(rootEdge + 1);
  extendedDst.set(dst);
  extendedDst[rootEdge] = entry;
  const forced = new Uint8Array(rootEdge + 1);
  forced.set(codeless);
  forced[rootEdge] = 1;
  return { rootEdge, src: extendedSrc, dst: extendedDst, forced };
}
