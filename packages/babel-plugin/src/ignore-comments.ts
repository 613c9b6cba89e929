import * as t from '@babel/types';

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
    for (const key of t.VISITOR_KEYS[node.type] ?? []) {
      const value = (node as unknown as Record<string, unknown>)[key];
      if (Array.isArray(value)) {
        for (const v of value) if (v && typeof v === 'object') visit(v as t.Node);
      } else if (value && typeof value === 'object') {
        visit(value as t.Node);
      }
    }
  };
  visit(program);
  return ranges;
}
