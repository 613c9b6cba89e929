import * as t from '@babel/types';
import { forEachChild } from './child-nodes';

const IGNORE_NEXT = /^\s*pathprof ignore next\s*$/;
const IGNORE_FILE = /^\s*pathprof ignore file\s*$/;

/** `/* pathprof ignore file *\/` anywhere in the file. */
export function ignoresFile(file: t.File): boolean {
  return (file.comments ?? []).some((c) => IGNORE_FILE.test(c.value));
}

/**
 * The source ranges `/* pathprof ignore next *\/` excludes: the node the comment leads. Functions inside
 * such a range are not instrumented. A statement inside a function still belongs to that function's paths
 * (leaving it out would make the function's path numbers wrong); only the functions it contains are skipped.
 */
export function ignoredRanges(program: t.Program, file: t.Node | null): [number, number][] {
  // The file's comments, when the program comes with its file: most files have no such comment to look for.
  if (t.isFile(file) && !(file.comments ?? []).some((c) => IGNORE_NEXT.test(c.value))) return [];
  const ranges: [number, number][] = [];
  const visit = (node: t.Node): void => {
    if (
      node.leadingComments?.some((c) => IGNORE_NEXT.test(c.value)) &&
      node.start != null &&
      node.end != null
    ) {
      ranges.push([node.start, node.end]);
      return;
    }
    forEachChild(node, visit);
  };
  visit(program);
  return ranges;
}
