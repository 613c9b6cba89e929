import type { Decision, DecodedDecisions } from './decisions';
import type { FunctionPaths, PathTest } from './profiled-file';

/** The tests that took an executed path, most runs first, and how many of its runs no test file recorded. */
export interface PathTests {
  readonly tests: readonly PathTest[];
  /** Runs in processes that did not split counts by test (plain node, mocha): no test to name. */
  readonly unattributed: number;
}

/** Which tests took path `id` of `fn`; null when no profile of its file split counts by test. */
export function pathTests(fn: FunctionPaths, id: number): PathTests | null {
  if (!fn.tests) return null;
  const tests = [...(fn.tests.get(id) ?? [])].sort((a, b) => b.count - a.count);
  const attributed = tests.reduce((n, t) => n + t.count, 0);
  return { tests, unattributed: (fn.counts.get(id) ?? 0) - attributed };
}

/** Tests named under a path at most (show, html): a hot path of a large suite is taken by hundreds. */
export const TESTS_SHOWN = 8;

/**
 * What a report prints under an executed path: its tests, most runs first, `×` their runs (at most
 * `TESTS_SHOWN`, then how many more: the JSON lists them all), and the runs outside any test file.
 */
export function testLines(known: PathTests): string[] {
  const lines = known.tests.slice(0, TESTS_SHOWN).map((t) => `${testLabel(t)} ×${t.count}`);
  const more = known.tests.slice(TESTS_SHOWN);
  // A run that did not tell a file's tests apart names whole test files, and counts them so.
  const noun = more.every((t) => t.name === undefined) ? 'test file' : 'test';
  if (more.length > 0) lines.push(`and ${more.length} more ${noun}${more.length === 1 ? '' : 's'}`);
  if (known.unattributed > 0) lines.push(`a run outside any test file ×${known.unattributed}`);
  return lines;
}

/**
 * `test/cart.test.js › coupons › percent`; `test/cart.test.js (outside its tests)` for loading and hooks;
 * `test/cart.test.js` when its tests were not told apart.
 */
export function testLabel(test: Pick<PathTest, 'testFile' | 'name'>): string {
  if (test.name === undefined) return test.testFile;
  return test.name ? [test.testFile, ...test.name].join(' › ') : `${test.testFile} (outside its tests)`;
}

/**
 * For a path no test took: the executed paths (`executed`, most executed first) that follow it longest,
 * sharing its first `shared` decisions (at most `most` of them): their tests are the ones to extend so that they
 * take it, by deciding otherwise at the next decision. Null when no executed path shares its first decision.
 */
export function closestExecuted(
  path: DecodedDecisions,
  executed: readonly { readonly id: number; readonly path: DecodedDecisions }[],
  most = 3,
): { readonly ids: number[]; readonly shared: number } | null {
  let best: number[] = [];
  let shared = 0;
  for (const { id, path: other } of executed) {
    if (other.start !== path.start) continue;
    const n = commonPrefix(path.decisions, other.decisions);
    if (n > shared) [best, shared] = [[id], n];
    else if (n === shared && n > 0) best.push(id);
  }
  return shared > 0 ? { ids: best.slice(0, most), shared } : null;
}

function commonPrefix(a: readonly Decision[], b: readonly Decision[]): number {
  let n = 0;
  while (n < a.length && n < b.length && sameDecision(a[n], b[n])) n++;
  return n;
}

function sameDecision(a: Decision, b: Decision): boolean {
  return a.line === b.line && a.column === b.column && a.kind === b.kind;
}
