import type { InterproceduralNumbering } from './number-program';
import { PathCursor } from './path-cursor';
import type { SupergraphPath } from './supergraph-path';

/** The number of an observable path (Algorithms 5.1 and 6.1); throws a RangeError for a path that is not one. */
export function encodeInterproceduralPath(numbering: InterproceduralNumbering, path: SupergraphPath): bigint {
  const cursor = new PathCursor(numbering, path.entryPoint);
  for (const step of path.steps) cursor.take(step);
  if (!cursor.finished) throw new RangeError('the path stops before Exit_global');
  return cursor.pathNumber;
}
