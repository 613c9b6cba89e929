import { basename, resolve } from 'node:path';
import { EdgeKind } from '@pathprof/cfg';
import { decodePath, PathEnds } from '@pathprof/numbering';
import { closestWords } from '@pathprof/runtime';
import { exceptionOrigins } from './exception-origins';
import { infeasiblePaths } from './infeasible-paths';
import type { FunctionPaths, ProfiledFile } from './profiled-file';

/** A function `show` selected; given a line, restricted to the paths through it (`throughLine`). */
export interface SelectedFunction {
  readonly file: ProfiledFile;
  readonly fn: FunctionPaths;
  readonly line?: number;
}

/** What `FILE[:FUNCTION|:LINE]` selects, or why nothing, with the closest names when it is a likely typo. */
export type Selection =
  | { readonly functions: SelectedFunction[]; readonly miss?: undefined }
  | { readonly functions: []; readonly miss: string };

/**
 * `show FILE[:FUNCTION|:LINE]`: the files whose key ends with FILE; of them the functions named FUNCTION (with
 * or without its class or object, and a getter's or setter's `get `/`set `: `fromISO` finds
 * `DateTime.fromISO`), or the innermost functions at LINE (each restricted to the paths through the line).
 * `show FUNCTION`, a name that is no file's: the functions of that name in every file.
 */
export function selectFunctions(files: readonly ProfiledFile[], target: string): Selection {
  const { file: wanted, name } = splitTarget(target);
  const matched = files.filter((f) => isFile(f, wanted));
  if (matched.length === 0) {
    const named =
      name === null
        ? functionsNamed(
            files.filter((f) => !f.interprocedural),
            wanted,
          )
        : [];
    if (named.length) return { functions: named };
    return {
      functions: [],
      miss: `no profiled file${name === null ? ' or function' : ''} matches ${wanted}${suggestion(closestKeys(wanted, files))}`,
    };
  }
  // Interprocedural files have no per-function paths: `calls` shows theirs.
  if (matched.every((f) => f.interprocedural))
    return {
      functions: [],
      miss: `${matched.map((f) => f.key).join(', ')}: counted in interprocedural mode, whose paths run across calls: \`pathprof-report calls ${target}\` shows them`,
    };
  if (name === null)
    return { functions: matched.flatMap((file) => file.functions.map((fn) => ({ file, fn }))) };
  if (/^\d+$/.test(name)) {
    const line = Number(name);
    const functions = matched.flatMap((file) =>
      innermostAt(file.functions, line).map((fn) => ({ file, fn, line })),
    );
    return functions.length
      ? { functions }
      : {
          functions: [],
          miss: `no profiled function at line ${line} of ${matched.map((f) => f.key).join(', ')}`,
        };
  }
  const functions = functionsNamed(matched, name);
  if (functions.length) return { functions };
  // The functions one of whose names is closest, by their full names.
  const all = [...new Set(matched.flatMap((f) => f.functions.map((fn) => fn.meta.name)))];
  const near = new Set(closestWords(name, all.flatMap(namesOf)));
  const meant = all.filter((full) => namesOf(full).some((n) => near.has(n)));
  return { functions: [], miss: `no profiled function matches ${target}${suggestion(meant)}` };
}

/**
 * Whether `wanted` names `file`: its key or the key's end (`cart.js` is `src/cart.js`), or its path from the
 * working directory (an absolute path, `../shop/src/cart.js`).
 */
export function isFile(file: ProfiledFile, wanted: string): boolean {
  return file.key === wanted || file.key.endsWith(`/${wanted}`) || file.path === resolve(wanted);
}

/** The functions of `files` that answer to `name` (`namesOf`). */
function functionsNamed(files: readonly ProfiledFile[], name: string): SelectedFunction[] {
  return files.flatMap((file) =>
    file.functions.filter((fn) => namesOf(fn.meta.name).includes(name)).map((fn) => ({ file, fn })),
  );
}

/** The keys of the files whose base name is closest to `wanted`'s (a typo's likely meaning). */
export function closestKeys(wanted: string, files: readonly ProfiledFile[]): string[] {
  const keys = files.map((f) => f.key);
  return closestWords(
    basename(wanted),
    keys.map((k) => basename(k)),
  ).map((b) => keys.find((k) => basename(k) === b)!);
}

/** `FILE[:FUNCTION]`: the file as a key suffix (a leading `./` dropped), and the function's name if given. */
export function splitTarget(target: string): { file: string; name: string | null } {
  const colon = target.lastIndexOf(':');
  const [filePart, name] = colon > 0 ? [target.slice(0, colon), target.slice(colon + 1)] : [target, null];
  return { file: filePart.replace(/^\.\//, ''), name };
}

/** Edges that are statements of their own, with no code in a block: `break;`, `continue;`, `return;`. */
const jumps: ReadonlySet<EdgeKind> = new Set([
  EdgeKind.Break,
  EdgeKind.Continue,
  EdgeKind.Return,
  EdgeKind.Throw,
]);

/**
 * The function with only the paths through `line`: those that run a block whose code extends over the line,
 * or take a jump (`break`, `continue`, `return`, `throw`) written there. Null when the function has neither
 * there (a comment, a brace, `} else {`).
 */
export function throughLine(fn: FunctionPaths, line: number): FunctionPaths | null {
  const { meta, numbering } = fn;
  const covers = (r: number) => r >= 0 && meta.ranges[4 * r] <= line && line <= meta.ranges[4 * r + 2];
  const blocks = new Set<number>();
  meta.blockRanges.forEach((r, b) => {
    if (b !== numbering.entry && b !== numbering.exit && covers(r)) blocks.add(b);
  });
  const edges = new Set<number>();
  meta.edgeRanges.forEach((r, e) => {
    if (jumps.has(meta.edges[3 * e + 2] as EdgeKind) && covers(r)) edges.add(e);
  });
  if (blocks.size === 0 && edges.size === 0) return null;
  const counts = new Map(
    [...fn.counts].filter(([id]) => {
      const path = decodePath(numbering, id);
      return path.blocks.some((b) => blocks.has(b)) || path.edges.some((e) => edges.has(e));
    }),
  );
  const ends = new PathEnds(numbering, exceptionOrigins(meta), { blocks, edges });
  // The infeasible paths through the line, counted as the others are.
  const infeasible = fn.infeasible && infeasiblePaths(meta, numbering, ends);
  return { ...fn, counts, ends, ...(infeasible ? { infeasible } : {}) };
}

/** The functions whose extent holds `line` and that hold no other such function. */
function innermostAt(functions: readonly FunctionPaths[], line: number): FunctionPaths[] {
  const holding = functions.filter(({ meta: { range } }) => range[0] <= line && line <= range[2]);
  return holding.filter((outer) => !holding.some((inner) => inner !== outer && within(inner, outer)));
}

function within(inner: FunctionPaths, outer: FunctionPaths): boolean {
  const [l1, c1, l2, c2] = inner.meta.range;
  const [m1, d1, m2, d2] = outer.meta.range;
  const startsAfter = l1 > m1 || (l1 === m1 && c1 >= d1);
  const endsBefore = l2 < m2 || (l2 === m2 && c2 <= d2);
  return startsAfter && endsBefore && (l1 !== m1 || c1 !== d1 || l2 !== m2 || c2 !== d2);
}

/**
 * The names a function answers to: its own (`get DateTime.year`), without `get `/`set ` (`DateTime.year`), and
 * without what it is a member of (`year`; `[Symbol.iterator]` of `List.[Symbol.iterator]`, a computed key).
 */
export function namesOf(name: string): string[] {
  const plain = name.replace(/^[gs]et /, '');
  const computed = plain.indexOf('.[');
  const member = computed >= 0 ? plain.slice(computed + 1) : plain.slice(plain.lastIndexOf('.') + 1);
  return [...new Set([name, plain, member])];
}

/** ` (did you mean a, b?)` after a miss, or nothing. */
export function suggestion(names: readonly string[]): string {
  return names.length ? ` (did you mean ${names.join(', ')}?)` : '';
}
