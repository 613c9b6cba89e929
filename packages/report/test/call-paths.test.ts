import { formatTextReport, pathReport, TerminalStyle } from '../src';
import { formatCallPaths, interproceduralReport } from '../src/interprocedural-report';
import { profileInProcess } from './support/in-process';

// A loop calling a helper: its paths restart at the loop's head after each back edge.
const source = `function sign(x) {
  return x < 0 ? -1 : 1;
}
function signs(xs) {
  let n = 0;
  for (const x of xs) n += sign(x);
  return n;
}
signs([1, -2, 3]);
`;
const plain = new TerminalStyle({ isTTY: false }, {});

/** `pathprof-report calls FILE:name` (or `FILE` for null) as text, from a run in the given scheme. */
function callPaths(scheme: 'piecewise' | 'context', name: string | null = 'signs'): string {
  const file = profileInProcess(source, `call-paths-${scheme}.js`, { mode: 'interprocedural', scheme });
  const report = interproceduralReport(file)!;
  expect(report.scheme).toBe(scheme);
  return formatCallPaths(file, report, name, plain, 20);
}

describe('pathprof-report calls', () => {
  test('the context scheme shows each restarted path as its context prefix, then its active suffix', () => {
    const text = callPaths('context');
    expect(text).toMatch(/2 call sites crossed/);
    // A path after the loop's back edge: the context names where it restarted, then the call it makes.
    expect(text).toMatch(/ {4}context:\n(?: {6}.*\n)+? {4}active:\n(?: {6}.*\n)*? +signs +L6 → sign\(x\)/);
  });

  test('the piecewise scheme names the restart in the heading and does not split the path', () => {
    const text = callPaths('piecewise');
    expect(text).toMatch(/\(restarting in signs\)/);
    expect(text).not.toMatch(/context:|active:/);
  });

  test('the heading lists the calls of known callees that paths do not cross, each with why', () => {
    const scaled = `function scale(x, k = 2) {\n  return x * k;\n}\nfunction total(xs) {\n  let n = 0;\n  for (const x of xs) n += scale(x);\n  return n;\n}\ntotal([1, 2]);\n`;
    const file = profileInProcess(scaled, 'not-crossed.js', { mode: 'interprocedural' });
    const report = interproceduralReport(file)!;
    expect(report.notCrossed).toEqual([
      {
        caller: 'total',
        callee: 'scale',
        line: 6,
        why: 'its parameters run code before its body (defaults or destructuring)',
      },
    ]);
    const text = formatCallPaths(file, report, null, plain, 20);
    expect(text).toContain('1 call site crossed, 0 cut, 1 not crossed:\n');
    expect(text).toContain(
      '\n  L6 total → scale: its parameters run code before its body (defaults or destructuring)\n',
    );
  });

  test('the default report of interprocedural files alone: their lines, no empty table, no totals of none', () => {
    const file = profileInProcess(source, 'text-only-ipp.js', { mode: 'interprocedural' });
    const text = formatTextReport(pathReport([file], []), plain);
    expect(text.split('\n')).toEqual([
      expect.stringMatching(
        /^virtual\/text-only-ipp\.js: interprocedural \(piecewise\): \d+ paths executed of N = \d+, 2 call sites crossed; /,
      ),
      '',
      'All files: 1 file, counted as interprocedural paths: no coverage percentage (N is far larger than anything a test suite runs)',
    ]);
  });

  test("with a function, the heading counts the paths through it, out of the file's", () => {
    const all = callPaths('piecewise', null);
    const executed = Number(/: (\d+) interprocedural paths executed \(/.exec(all)![1]);
    const listed = (text: string) => text.match(/^ {2}path \d+ /gm)!.length;
    expect(listed(all)).toBe(executed);
    const text = callPaths('piecewise', 'sign');
    expect(text).toContain(
      `: ${listed(text)} of the file's ${executed} executed interprocedural paths run through sign (`,
    );
    expect(listed(text)).toBeLessThan(executed);
  });
});
