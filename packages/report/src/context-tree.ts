import { ContextDecoder, type DecodedFrame } from 'babel-plugin-pathprof';
import type { PathTests } from './path-tests';
import type { Problems } from './problems';
import type { PathTest, ProfiledFile } from './profiled-file';

/**
 * One node of the calling-context tree: a frame (a function entered from the frame above it, at a call site
 * when the call was known statically), how often a function was entered in exactly this context (`calls`)
 * and in this context or below it (`total`), and, when paths were counted per context, the paths this frame's
 * function took in this context.
 */
export interface ContextNode {
  /** The frames from the root to this node, as `file:function#site` keys: unique in the tree. */
  readonly id: string;
  readonly frame: DecodedFrame;
  /** The file's line of the call that entered it (a statically known call), or null. */
  readonly callLine: number | null;
  /** Its column (0-based), or null. */
  readonly callColumn: number | null;
  /**
   * Where that call is, as the reports print it: `L18`, or `L20:48` when another context under the same one
   * was entered from the same line (`area(s) > area(best)`: two calls, two contexts); null when not known.
   */
  callPlace: string | null;
  calls: number;
  total: number;
  /** Path number → count, in exactly this context (path mode with `contexts`). */
  readonly paths: Map<number, number>;
  /**
   * The tests that entered it, by their name's JSON (`[testFile, ...name]`), when some profile named its
   * tests; null when none did.
   */
  readonly tests: Map<
    string,
    { readonly testFile: string; readonly name?: readonly string[] | null; count: number }
  > | null;
  /** Hottest first. */
  readonly children: ContextNode[];
}

/** The calling-context tree of some files: its roots (hottest first) and what it sums to. */
export interface ContextTree {
  readonly roots: ContextNode[];
  /** Function entries counted in all contexts. */
  readonly calls: number;
  /** Distinct contexts entered. */
  readonly contexts: number;
  /** Entries in contexts cut short (the realm held its most encoding stacks). */
  readonly cutCalls: number;
}

/**
 * Decodes every counted context of `files` (those counted with `contexts`) and merges them into one tree:
 * frames in the same place with the same function and call site are one node. Contexts that cannot be
 * decoded (a caller's file missing from the profiles, a value out of range) are left out with a problem.
 */
export function contextTree(files: readonly ProfiledFile[], problems: Problems): ContextTree {
  const decoder = new ContextDecoder(files.filter((f) => f.contexts));
  const sites = new Map(files.map((f) => [f.key, f.meta.contexts?.sites ?? []]));
  const top = new Map<string, ContextNode>();
  const kids = new Map<ContextNode, Map<string, ContextNode>>();
  let calls = 0;
  let contexts = 0;
  let cutCalls = 0;
  const byTest = files.some((f) => f.testContexts);
  const nodeOf = (frames: DecodedFrame[]): ContextNode => {
    let level = top;
    let node: ContextNode | undefined;
    let id = '';
    let previousFile: string | null = null;
    for (const frame of frames) {
      const key = frame.kind === 'cut' ? '[cut]' : `${frame.file}:${frame.function}#${frame.site ?? ''}`;
      id = id ? `${id};${key}` : key;
      let next = level.get(key);
      if (!next) {
        // The call site, in the caller's file: its line and column.
        const at =
          frame.kind === 'function' && frame.site !== null && previousFile !== null ? 2 * frame.site : null;
        const callerSites = previousFile === null ? undefined : sites.get(previousFile);
        const line = at === null ? null : (callerSites?.[at] ?? null);
        const column = at === null ? null : (callerSites?.[at + 1] ?? null);
        next = {
          id,
          frame,
          callLine: line,
          callColumn: column,
          callPlace: null,
          calls: 0,
          total: 0,
          paths: new Map(),
          tests: byTest ? new Map() : null,
          children: [],
        };
        level.set(key, next);
        if (node) node.children.push(next);
      }
      node = next;
      previousFile = frame.kind === 'function' ? frame.file : previousFile;
      level = kids.get(node) ?? new Map();
      kids.set(node, level);
    }
    return node!;
  };
  const decode = (
    file: ProfiledFile,
    stack: number,
    value: number,
    stacks = file.contexts!.stacks,
  ): DecodedFrame[] | null => {
    try {
      return decoder.decode(file.key, file.hash, stacks, stack, value);
    } catch (error) {
      problems.add(`${file.key}: a calling context cannot be decoded (${(error as Error).message}); skipped`);
      return null;
    }
  };
  for (const file of files) {
    if (!file.contexts) continue;
    for (const [stack, value, n] of file.contexts.entries) {
      const frames = decode(file, stack, value);
      if (!frames) continue;
      const node = nodeOf(frames);
      node.calls += n;
      calls += n;
      contexts++;
      if (frames.some((f) => f.kind === 'cut')) cutCalls += n;
    }
    for (const [stack, value, pairs] of file.contexts.paths ?? []) {
      const frames = decode(file, stack, value);
      if (!frames) continue;
      const node = nodeOf(frames);
      for (const [p, n] of pairs) node.paths.set(p, (node.paths.get(p) ?? 0) + n);
    }
    // Each test's contexts are among the file's (they sum to them): decoded, they name nodes already made.
    for (const { testFile, name, contexts } of file.testContexts ?? []) {
      const id = JSON.stringify([testFile, ...(name === undefined ? [] : [name])]);
      for (const [stack, value, n] of contexts.entries) {
        const frames = decode(file, stack, value, contexts.stacks);
        if (!frames) continue;
        const tests = nodeOf(frames).tests!;
        const known = tests.get(id);
        if (known) known.count += n;
        else tests.set(id, { testFile, name, count: n });
      }
    }
  }
  const roots = [...top.values()];
  const finish = (nodes: ContextNode[]): void => {
    const lines = nodes.map((n) => n.callLine);
    for (const node of nodes) {
      finish(node.children);
      node.total = node.calls + node.children.reduce((sum, c) => sum + c.total, 0);
      const shared = lines.indexOf(node.callLine) !== lines.lastIndexOf(node.callLine);
      if (node.callLine !== null)
        node.callPlace = `L${node.callLine}${shared && node.callColumn !== null ? `:${node.callColumn + 1}` : ''}`;
    }
    nodes.sort((a, b) => b.total - a.total || frameName(a.frame).localeCompare(frameName(b.frame)));
  };
  finish(roots);
  return { roots, calls, contexts, cutCalls };
}

/**
 * The tests that entered `node`, most entries first, and its entries no test file recorded (a plain node
 * run's); null when no profile named its tests.
 */
export function contextTests(node: ContextNode): PathTests | null {
  if (!node.tests) return null;
  const tests: PathTest[] = [...node.tests.values()].sort((a, b) => b.count - a.count);
  return { tests, unattributed: node.calls - tests.reduce((n, t) => n + t.count, 0) };
}

/** A frame's function name, or `[cut]`. */
export function frameName(frame: DecodedFrame): string {
  return frame.kind === 'cut' ? '[cut]' : frame.name;
}

/**
 * The tree pruned to what concerns FILE[:FUNCTION]: the frames of that file (that function) with everything
 * above and below them; the other branches are dropped. Null when nothing matches.
 */
export function selectContexts(
  tree: ContextTree,
  matches: (frame: DecodedFrame) => boolean,
): ContextTree | null {
  const prune = (node: ContextNode): ContextNode | null => {
    if (matches(node.frame)) return node;
    const children = node.children.map(prune).filter((c): c is ContextNode => c !== null);
    // Its own counts stay what they are; only the branches that do not lead to a match are dropped.
    return children.length === 0 ? null : { ...node, children };
  };
  const roots = tree.roots.map(prune).filter((c): c is ContextNode => c !== null);
  if (roots.length === 0) return null;
  return { ...tree, roots };
}

/** Every node of the tree, depth first, with its depth. */
export function* walkContexts(nodes: readonly ContextNode[], depth = 0): Generator<[ContextNode, number]> {
  for (const node of nodes) {
    yield [node, depth];
    yield* walkContexts(node.children, depth + 1);
  }
}
