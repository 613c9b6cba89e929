import type { DecodedFrame } from 'babel-plugin-pathprof';
import { contextTests, walkContexts, type ContextNode, type ContextTree } from './context-tree';
import { counted } from './counted';
import { decodeDecisions, formatDecision } from './decisions';
import { testLines } from './path-tests';
import type { FunctionPaths, ProfiledFile } from './profiled-file';
import type { TerminalStyle } from './terminal-style';

/** Where a frame's function is: `file:line`; `[cut]` for a cut. */
export function frameLocation(files: ReadonlyMap<string, ProfiledFile>, frame: DecodedFrame): string {
  if (frame.kind === 'cut') return '';
  const line = files.get(frame.file)?.meta.functions[frame.function]?.range[0];
  return line === undefined ? frame.file : `${frame.file}:${line}`;
}

/** The function's paths (path mode), for decoding the paths it took in a context. */
export function functionPathsOf(
  files: ReadonlyMap<string, ProfiledFile>,
  frame: DecodedFrame,
): { file: ProfiledFile; fn: FunctionPaths } | null {
  if (frame.kind === 'cut') return null;
  const file = files.get(frame.file);
  const meta = file?.meta.functions[frame.function];
  const fn = file?.functions.find((f) => f.meta === meta);
  return file && fn ? { file, fn } : null;
}

/**
 * `pathprof-report contexts [FILE[:FUNCTION]]`: the calling-context tree, hottest branch first, each
 * context with how often a function was entered in it (`calls`) and in it or below it (`total`); a frame
 * entered by a call known statically shows that call's line. With a FUNCTION, the paths it took in each of
 * its contexts (path mode with `contexts`), at most `limit` per context. With `tests`, the tests that entered
 * each context (`--tests`).
 */
export function formatContextTree(
  tree: ContextTree,
  files: readonly ProfiledFile[],
  showPaths: (frame: DecodedFrame) => boolean,
  style: TerminalStyle,
  limit: number,
  tests = false,
): string {
  const byKey = new Map(files.map((f) => [f.key, f]));
  const countedFiles = files.filter((f) => f.contexts).length;
  const out = [
    style.bold('Calling contexts') +
      `: ${counted(tree.calls, 'call')} in ${counted(tree.contexts, 'context')} of ${counted(countedFiles, 'file')}` +
      (tree.cutCalls
        ? `; ${counted(tree.cutCalls, 'call')} in contexts cut short ([cut]: too many stacks)`
        : ''),
    style.dim('   calls    total  context'),
  ];
  for (const [node, depth] of walkContexts(tree.roots)) {
    const where = frameLocation(byKey, node.frame);
    const call = node.callPlace !== null ? style.dim(`  ← ${node.callPlace}`) : '';
    const name = node.frame.kind === 'cut' ? style.yellow('[cut]') : node.frame.name;
    out.push(
      `${String(node.calls).padStart(8)} ${String(node.total).padStart(8)}  ${'  '.repeat(depth)}${name}  ${style.dim(where)}${call}`,
    );
    if (tests) out.push(...enteredBy(node, depth, style));
    if (node.paths.size && showPaths(node.frame)) out.push(...pathLines(byKey, node, depth, limit, style));
  }
  return out.join('\n');
}

/** The tests that entered a context, one a line under it, or why none are known. */
function enteredBy(node: ContextNode, depth: number, style: TerminalStyle): string[] {
  const indent = ' '.repeat(19 + 2 * depth);
  const known = contextTests(node);
  if (!known)
    return [`${indent}${style.dim('entered by: (no test recorded: the run did not name its tests)')}`];
  return testLines(known).map(
    (text, i) => `${indent}${style.dim(i === 0 ? 'entered by: ' : '            ')}${text}`,
  );
}

function pathLines(
  files: ReadonlyMap<string, ProfiledFile>,
  node: ContextNode,
  depth: number,
  limit: number,
  style: TerminalStyle,
): string[] {
  const owner = functionPathsOf(files, node.frame);
  if (!owner) return [];
  const indent = ' '.repeat(19 + 2 * depth);
  const paths = [...node.paths].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  const out: string[] = [];
  for (const [id, count] of paths.slice(0, limit)) {
    const decoded = decodeDecisions(owner.fn, id, owner.file.source);
    out.push(`${indent}${style.dim('path')} ${id}  ×${count}  ${decoded.description}`);
    for (const d of decoded.decisions) out.push(`${indent}    ${style.dim(formatDecision(d))}`);
  }
  if (paths.length > limit) out.push(`${indent}${style.dim(`… and ${paths.length - limit} more paths`)}`);
  return out;
}

/**
 * Brendan Gregg's folded stacks (`frame;frame;frame count`), one line per context with calls, as flame-graph
 * tools and speedscope read them: the counts are calls, each frame `name (file:line)`.
 */
export function foldedStacks(tree: ContextTree, files: readonly ProfiledFile[]): string {
  const byKey = new Map(files.map((f) => [f.key, f]));
  const label = (frame: DecodedFrame) =>
    frame.kind === 'cut' ? '[cut]' : `${frame.name} (${frameLocation(byKey, frame)})`.replace(/;/g, ',');
  const lines: string[] = [];
  const visit = (nodes: readonly ContextNode[], above: string): void => {
    for (const node of nodes) {
      const stack = above ? `${above};${label(node.frame)}` : label(node.frame);
      if (node.calls > 0) lines.push(`${stack} ${node.calls}`);
      visit(node.children, stack);
    }
  };
  visit(tree.roots, '');
  return lines.length ? `${lines.join('\n')}\n` : '';
}

/** The tree as `pathprof-report json` carries it. */
export interface ContextReport {
  readonly calls: number;
  readonly contexts: number;
  readonly cutCalls: number;
  readonly tree: ContextReportNode[];
}

export interface ContextReportNode {
  /** The function's name and where it is (`file:line`); `[cut]` where the context was cut short. */
  readonly function: string;
  readonly location: string;
  /** The line of the call that entered it, when known statically. */
  readonly callLine: number | null;
  readonly calls: number;
  readonly total: number;
  /** Paths taken in this context, `[path, count]`, hottest first (path mode with `contexts`). */
  readonly paths?: [number, number][];
  /**
   * The tests that entered it, most entries first (`name` null: its test file outside its tests; absent: the
   * whole test file), when the run named its tests; `unattributedCount`, its entries outside any test file.
   */
  readonly tests?: { file: string; name?: readonly string[] | null; count: number }[];
  readonly unattributedCount?: number;
  readonly children: ContextReportNode[];
}

export function contextReport(tree: ContextTree, files: readonly ProfiledFile[]): ContextReport {
  const byKey = new Map(files.map((f) => [f.key, f]));
  const node = (n: ContextNode): ContextReportNode => ({
    function: n.frame.kind === 'cut' ? '[cut]' : n.frame.name,
    location: frameLocation(byKey, n.frame),
    callLine: n.callLine,
    calls: n.calls,
    total: n.total,
    ...(n.paths.size ? { paths: [...n.paths].sort((a, b) => b[1] - a[1] || a[0] - b[0]) } : {}),
    ...testsOf(n),
    children: n.children.map(node),
  });
  return { calls: tree.calls, contexts: tree.contexts, cutCalls: tree.cutCalls, tree: tree.roots.map(node) };
}

function testsOf(node: ContextNode): Pick<ContextReportNode, 'tests' | 'unattributedCount'> {
  const known = contextTests(node);
  if (!known) return {};
  const tests = known.tests.map((t) => ({ file: t.testFile, name: t.name, count: t.count }));
  return known.unattributed > 0 ? { tests, unattributedCount: known.unattributed } : { tests };
}
