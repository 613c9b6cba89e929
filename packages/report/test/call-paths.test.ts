import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatTextReport, pathReport, TerminalStyle } from '../src';
import { callTreesSection } from '../src/html/call-trees';
import { writeHtmlReport } from '../src/html/html-report';
import { selectFunctions } from '../src/function-selection';
import { groupedDigits } from '../src/counted';
import {
  callPathFunctions,
  formatCallPaths,
  formatProjectCallPaths,
  interproceduralReport,
} from '../src/interprocedural-report';
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
// Calls not crossed: scale's destructuring parameter (kept in the list: k's default names x) reads its value first.
const scaled =
  'function scale({ x }, k = x) {\n  return x * k;\n}\nfunction total(xs) {\n  let n = 0;\n  for (const x of xs) n += scale({ x }) + scale({ x: -x });\n' +
  '  return n + scale({ x: n });\n}\nfunction other() {\n  return scale({ x: 1 });\n}\ntotal([1, 2]);\nother();\n';
const plain = new TerminalStyle({ isTTY: false }, {});

/** `pathprof-report calls FILE:name` (or `FILE` for null) as text, from a run in the given scheme. */
function callPaths(scheme: 'piecewise' | 'context', name: string | null = 'signs'): string {
  const file = profileInProcess(source, `call-paths-${scheme}.js`, { mode: 'interprocedural', scheme });
  const report = interproceduralReport(file)!;
  expect(report.scheme).toBe(scheme);
  return formatCallPaths(file, report, name === null ? null : { label: name, names: [name] }, plain, 20);
}

describe('pathprof-report calls', () => {
  test('the context scheme shows each restarted path as its context prefix, then its active suffix', () => {
    const text = callPaths('context');
    expect(text).toMatch(/2 call sites crossed/);
    // A path after the loop's back edge: the context names where it restarted, then the call it makes.
    expect(text).toMatch(
      / {4}context: how the part below was reached .*\n(?: {6}.*\n)+? {4}active: .*\n(?: {6}.*\n)*? +signs +L6 → sign\(x\)/,
    );
  });

  test('a context prefix that opens no call is not split off: it is only the restart the heading names', () => {
    const loop = 'let n = 0;\nfor (const x of [1, 2, 3]) n += x;\n';
    const file = profileInProcess(loop, 'call-paths-loop.js', { mode: 'interprocedural', scheme: 'context' });
    const text = formatCallPaths(file, interproceduralReport(file)!, null, plain, 20);
    expect(text).toMatch(/\(restarting in <program>\)\n {6}<program> {2}L2 starts again at/);
    expect(text).not.toMatch(/context:|active:/);
  });

  test("a restart says whether it is a loop's next iteration or a handler after an exception", () => {
    const guarded =
      "function boom(x) {\n  if (x) throw new Error('x');\n  return 1;\n}\n" +
      'function safe(x) {\n  try {\n    return boom(x);\n  } catch (e) {\n    return 0;\n  }\n}\nsafe(true);\nsafe(false);\n';
    const file = profileInProcess(guarded, 'call-paths-handler.js', { mode: 'interprocedural' });
    const text = formatCallPaths(file, interproceduralReport(file)!, null, plain, 20);
    expect(text).toMatch(/ {8}safe {7}L9 starts again in the handler, after an exception\n/);
    // A back edge ends the path, in words rather than 'back edge'.
    expect(callPaths('piecewise')).toMatch(
      / → loop: next iteration\n {6}signs {2}L6 the path ends; the loop's next iteration starts the next one\n/,
    );
    expect(callPaths('piecewise')).toMatch(
      / {6}signs {2}L6 starts again at the loop's next iteration: const x\n/,
    );
  });

  test('the piecewise scheme names the restart in the heading and does not split the path', () => {
    const text = callPaths('piecewise');
    expect(text).toMatch(/\(restarting in signs\)/);
    expect(text).not.toMatch(/context:|active:/);
  });

  test('the calls not crossed come first, one line per callee and reason, with where each is called', () => {
    const file = profileInProcess(scaled, 'not-crossed.js', { mode: 'interprocedural' });
    const report = interproceduralReport(file)!;
    const why = 'a destructuring parameter reads its value before the callee can take the path';
    expect(report.notCrossed).toEqual(
      [6, 6, 7]
        .map((line) => ({ caller: 'total', callee: 'scale', line, why }))
        .concat({ caller: 'other', callee: 'scale', line: 10, why }),
    );
    const text = formatCallPaths(file, report, null, plain, 20);
    expect(text).toContain('2 call sites crossed, 0 cut, 4 not crossed\n');
    expect(text).toContain(`\n    scale called in total L6 ×2, L7; other L10: ${why}\n`);
    // With a function, only the calls into or out of it.
    const total = formatCallPaths(file, report, { label: 'other', names: ['other'] }, plain, 20);
    expect(total).toContain(`\n    scale called in other L10: ${why}\n`);
  });

  test('a function is found as show finds it (without its class), and a wrong name is a miss with the closest', () => {
    const boxed = `${source}class Box {\n  static of(x) {\n    return sign(x);\n  }\n}\nBox.of(4);\n`;
    const file = profileInProcess(boxed, 'call-paths-class.js', { mode: 'interprocedural' });
    expect(callPathFunctions(file, 'of')).toEqual({ names: ['Box.of'] });
    expect(callPathFunctions(file, 'sgn')).toEqual({
      names: [],
      miss: 'virtual/call-paths-class.js has no function sgn (did you mean sign?)',
    });
    const report = interproceduralReport(file)!;
    const text = formatCallPaths(file, report, { label: 'of', names: ['Box.of'] }, plain, 20);
    expect(text).toMatch(/: 1 of the file's \d+ executed interprocedural paths run through of \(/);
    expect(text).toMatch(/ through more than one function; in the file, \d+ call sites crossed, 0 cut/);
    expect(text).toMatch(/×1 {2}Box\.of → sign /);
  });

  test('a run of unmatched cases of one switch is one step, in the text and the call trees', () => {
    const cases = ['a', 'b', 'c', 'd'].map((c, i) => `    case '${c}':\n      return ${i + 1};\n`).join('');
    const switched = `function kind(c) {\n  switch (c) {\n${cases}    default:\n      return 0;\n  }\n}\nkind('z');\n`;
    const file = profileInProcess(switched, 'call-paths-switch.js', { mode: 'interprocedural' });
    const text = formatCallPaths(file, interproceduralReport(file)!, null, plain, 20);
    expect(text).toContain(
      `\n        kind       L3 case 'a': … case 'c': → none of these 3 cases matches (L3–L7)\n`,
    );
    expect(text).not.toContain('does not match');
    expect(callTreesSection(file, 20)).toContain(
      'case &#39;a&#39;: … case &#39;c&#39;: → none of these 3 cases matches',
    );
  });

  test('--across lists only the paths through more than one function, and calls says so when it would help', () => {
    const file = profileInProcess(scaled, 'call-paths-across.js', { mode: 'interprocedural' });
    const report = interproceduralReport(file)!;
    const heading = (text: string) => text.match(/^ {2}path \d+ .*$/gm)!;
    const all = formatCallPaths(file, report, null, plain, 20);
    expect(all).toContain('\n\n  --across lists only those through more than one function');
    expect(heading(all).some((h) => !h.includes(' → '))).toBe(true);
    const across = formatCallPaths(file, report, null, plain, 20, true);
    expect(heading(across).length).toBe(report.paths.filter((p) => p.functions.length > 1).length);
    expect(heading(across).every((h) => h.includes(' → '))).toBe(true);
    expect(across).not.toContain('--across');
    expect(groupedDigits('175889829')).toBe('175,889,829');
    expect(groupedDigits(961)).toBe('961');
  });

  test('anonymous functions are told apart by their line, and column where a line has two', () => {
    const callbacks =
      'function half(x) {\n  return x / 2;\n}\n[1].map((x) => half(x));\n[2].map((x) => half(x));\n';
    const file = profileInProcess(callbacks, 'call-paths-anonymous.js', { mode: 'interprocedural' });
    const routes = interproceduralReport(file)!.paths.map((p) => p.functions.join(' → '));
    expect(routes).toEqual(expect.arrayContaining(['<anonymous L4> → half', '<anonymous L5> → half']));
    expect(callPathFunctions(file, '<anonymous L5>')).toEqual({ names: ['<anonymous L5>'] });
    // Two on one line: their columns too.
    const twice = profileInProcess(
      'function id(x) {\n  return x;\n}\n[1].map((x) => id(x)).map((y) => id(y));\n',
      'call-paths-columns.js',
      { mode: 'interprocedural' },
    );
    const starts = interproceduralReport(twice)!.paths.map((p) => p.functions[0]);
    expect(starts).toEqual(expect.arrayContaining(['<anonymous L4:9>', '<anonymous L4:27>']));
  });

  test('show on an interprocedural file points to calls instead of saying the function does not exist', () => {
    const file = profileInProcess(source, 'call-paths-show.js', { mode: 'interprocedural' });
    expect(selectFunctions([file], 'call-paths-show.js:signs')).toEqual({
      functions: [],
      miss: 'virtual/call-paths-show.js: counted in interprocedural mode, whose paths run across calls: `pathprof-report calls call-paths-show.js:signs` shows them',
    });
  });

  test('without a file, the hottest paths through more than one function across files, each under its file', () => {
    const file = profileInProcess(scaled, 'call-paths-project.js', { mode: 'interprocedural' });
    const report = interproceduralReport(file)!;
    const text = formatProjectCallPaths([{ file, report }], plain, 20);
    // scale's paths run through it alone (its calls are not crossed): not listed.
    const crossing = report.paths.filter((p) => p.functions.length > 1);
    expect(crossing.length).toBeGreaterThan(0);
    expect(crossing.length).toBeLessThan(report.paths.length);
    expect(text).toContain(
      `1 file counted in interprocedural mode (piecewise scheme): ${report.executedPaths} paths executed, ${crossing.length} of them through more than one function;`,
    );
    expect(text).toContain(
      '\n\n  path P ×C: the path numbered P of the file (0 to N − 1, as in json), taken C times;',
    );
    // Listed hottest first, only those that cross a call.
    const listed = [
      ...text.matchAll(/^ {2}virtual\/call-paths-project\.js path (\d+) {2}×(\d+) {2}(.*) {2}\(/gm),
    ];
    expect(listed.map((m) => Number(m[1]))).toEqual(crossing.map((p) => p.number));
    expect(listed.every((m) => m[3].includes(' → '))).toBe(true);
  });

  test('the default report of interprocedural files alone: a line each, no empty table, then how to read them', () => {
    const file = profileInProcess(source, 'text-only-ipp.js', { mode: 'interprocedural' });
    const alone = profileInProcess(
      'function f({ x }, y = x) {\n  return y;\n}\nf({});\n',
      'text-alone-ipp.js',
      {
        mode: 'interprocedural',
      },
    );
    const text = formatTextReport(pathReport([file, alone], []), plain);
    expect(text.split('\n')).toEqual([
      expect.stringMatching(
        /^virtual\/text-only-ipp\.js: interprocedural \(piecewise\): \d+ paths executed of N = \d+, \d+ through more than one function; 2 call sites crossed$/,
      ),
      expect.stringMatching(
        /^virtual\/text-alone-ipp\.js: interprocedural \(piecewise\): 2 paths executed of N = \d+; no call crossed \(1 call not crossed, `calls` says why\): per-function paths, as in path mode$/,
      ),
      '',
      "All files: 2 files, counted as interprocedural paths: no coverage percentage (N counts every combination of the functions' paths that crossed calls allow, feasible or not); `pathprof-report calls [FILE[:FUNCTION]]` decodes their paths into source",
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

  test('html: the index says what interprocedural files ran, not 0 functions; calls not crossed as a list by callee', () => {
    const file = profileInProcess(scaled, 'call-paths-html.js', { mode: 'interprocedural' });
    const site = mkdtempSync(join(tmpdir(), 'pathprof-call-trees-'));
    try {
      writeHtmlReport([file], pathReport([file], []), site, 20, { implicitExceptions: false });
      const index = readFileSync(join(site, 'index.html'), 'utf8');
      const crossing = interproceduralReport(file)!.paths.filter((p) => p.functions.length > 1).length;
      expect(index).not.toContain('0 functions');
      expect(index).toContain(
        `<p>1 file counted as interprocedural paths: 4 paths executed, ${crossing} of them through more than one function, drawn as call trees`,
      );
      expect(index).toContain(
        `<td class="none" data-sort="-1">4 executed <small>${crossing} across calls</small></td>`,
      );
      const page = readFileSync(
        join(
          site,
          readdirSync(site).find((f) => f.includes('call-paths-html'))!,
        ),
        'utf8',
      );
      expect(page).toContain(
        '<ul class="not-crossed"><li>scale called in total L6 ×2, L7; other L10: a destructuring parameter reads its value before the callee can take the path</li></ul>',
      );
    } finally {
      rmSync(site, { recursive: true, force: true });
    }
  });

  test('html: in the context scheme the greyed context steps are explained', () => {
    const file = profileInProcess(source, 'call-trees-context.js', {
      mode: 'interprocedural',
      scheme: 'context',
    });
    const section = callTreesSection(file, 20);
    expect(section).toContain("<p>Greyed steps are a path's context: how its active part was reached");
    expect(section).toMatch(/<li class="step call context"><span class="fn">&#60;program&#62;<\/span>/);
    // Each function named where the path enters or comes back to it, not on each of its steps.
    expect(section).toContain(
      '<li class="step decision"><span class="fn">sign</span> <a href="#L2">L2</a> x &#60; 0 → true</li><li class="step decision"><a href="#L2">L2</a> return x',
    );
  });
});
