import type { DecodedInterproceduralPath } from '@pathprof/numbering';
import type { NamedProgram } from './named-program';

/** A decoded path as the paper's tables print it: `EG v1 v2 … XG`. */
export function formatDecoded(named: NamedProgram, decoded: DecodedInterproceduralPath): string {
  return ['EG', ...decoded.vertices.map((v) => named.vertexName(v)), 'XG'].join(' ');
}
