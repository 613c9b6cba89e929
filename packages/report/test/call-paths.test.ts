import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatTextReport, pathReport, TerminalStyle } from '../src';
import { callTreesSection } from '../src/html/call-trees';
import { writeHtmlReport } from '../src/html/html-report';
import { selectFunctions } from '../src/function-selection';
import { groupedDigits } from '../src/counted';
import { callPathFunctions, formatCallPaths, interproceduralReport } from '../src/interprocedural-report';
import { WHY_NOT_CROSSED } from '../src/not-crossed-calls';
import { formatProjectCallPaths } from '../src/project-call-paths';
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
// Calls not crossed (a destructuring parameter kept in the list, async, spread) in a switch's cases, a
// conditional, a loop, and a try block that an implicit exception (x.y.z) leaves after the call; a recursive
// call, cut.
const uncrossed = `function scale({ length }, k = length) {
  return k;
}
async function later(x) {
  return x;
}
function count(...xs) {
  return xs.length;
}
function kind(c) {
  switch (c) {
    case 'a':
      return scale(1);
    case 'b':
      return scale(2) + scale(3);
    default:
      return c ? later(c) : count(...[c]);
  }
}
function risky(x) {
  try {
    if (x === 2) throw new Error('two');
    return scale(x) + x.y.z;
  } catch (e) {
    return count(...[x, x]);
  }
}
function depth(n) {
  return n > 0 ? depth(n - 1) : 0;
}
function main(xs) {
  let n = depth(1);
  for (const x of xs) {
    n += kind(x) ? 1 : 0;
    n += x > 1 ? scale(x) : 0;
    risky(x);
  }
  return n;
}
main(['a', 'b', 'c', '', 1, 2, 3, { y: { z: 1 } }]);
`;

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
    // A loop head with no code of its own (no test) is named by its loop, not as line 0.
    const forever =
      'function first(xs) {\n  for (let i = 0; ; i++) {\n    if (xs[i]) return i;\n  }\n}\nfirst([0, 0, 1]);\n';
    const looped = profileInProcess(forever, 'call-paths-forever.js', { mode: 'interprocedural' });
    expect(formatCallPaths(looped, interproceduralReport(looped)!, null, plain, 20)).toContain(
      " L2 starts again at the loop's next iteration: for (let i = 0; ; i++)\n",
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
    const why =
      'its parameters run code before the callee can take the path (destructuring; older builds also refused defaults)';
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

  test('a call not crossed is a step where a path surely ran it: each callee is entered as often as the paths call it', () => {
    for (const scheme of ['piecewise', 'context'] as const) {
      const file = profileInProcess(uncrossed, `call-paths-uncrossed-${scheme}.js`, {
        mode: 'interprocedural',
        scheme,
      });
      const report = interproceduralReport(file)!;
      // Each callee not crossed starts a path at its entry at each call (it is entered no other way).
      for (const callee of ['scale', 'later', 'count']) {
        const entered = report.paths
          .filter((p) => p.start.function === callee && p.start.at === 'entry')
          .reduce((n, p) => n + p.count, 0);
        const called = (certain: boolean) =>
          report.paths.reduce((n, p) => {
            // The context prefix repeats steps an earlier path ran.
            const steps = p.steps.slice(p.contextLength);
            const calls = steps.filter((s) => s.kind === 'not-crossed-call' && s.callee === callee);
            return n + p.count * calls.filter((s) => s.certain === certain).length;
          }, 0);
        // Every call is placed, and each one perhaps made was made (x.y.z throws after scale(x); a script's
        // top-level function read may throw for all the build knows).
        expect([callee, called(true) + called(false)]).toEqual([callee, entered]);
        expect(called(false)).toBe(callee === 'scale' ? 6 : 0);
      }
      const text = formatCallPaths(file, report, null, plain, 50);
      expect(text).toContain(
        ` L15 → scale(2), not crossed, ${WHY_NOT_CROSSED.parameters}; scale's paths are counted on their own\n`,
      );
      expect(text).toContain(
        ' L23 → scale(x)? perhaps not made: an exception left this code, perhaps before the call; not crossed,',
      );
      expect(text).toContain(
        " L29 → depth(n - 1), cut (recursion); depth's paths are counted on their own\n",
      );
      // The call trees mark them, and those perhaps run apart.
      const trees = callTreesSection(file, 50);
      expect(trees).toContain(
        '<li class="step not-crossed-call"><a href="#L15">L15</a> → scale(2), not crossed',
      );
      expect(trees).toMatch(
        /<li class="step not-crossed-call perhaps">(<span class="fn">risky<\/span> )?<a href="#L23">/,
      );
    }
  });

  test('calls with no static callee are steps exactly where a path made them; runs of calls are folded', () => {
    const dynamic = `function parse(s, out, cb) {
  if (s.length > 2) out.push(s.trim());
  else out.push(new Date(0).getTime());
  return cb(out, String.raw\`\${s}\`);
}
function risky(o, f) {
  try {
    f(1); o.g(2);
    return 0;
  } catch (e) {
    return 1;
  }
}
function many(out) {
  out.push(1); out.push(1); out.push(1);
  out.push(2); out.push(3); out.push(4); out.push(5);
  out.push(6); out.push(7); out.push(8); out.push(9); out.push(10);
  return out.concat([0, 1]).map(String).filter(Boolean).slice(0, 100);
}
function keep(x) {
  return x;
}
for (const s of ['abc', 'a']) parse(s, [], keep);
risky({}, keep);
many([]);
`;
    const file = profileInProcess(dynamic, 'call-paths-dynamic.js', { mode: 'interprocedural' });
    const report = interproceduralReport(file)!;
    const madeIn = (fn: string) =>
      report.paths
        .filter((p) => p.functions.includes(fn))
        .map((p) =>
          p.steps
            .filter((step) => step.kind === 'unknown-call' && step.function === fn)
            .map((step) => `L${step.line} ${step.call}${step.certain ? '' : '?'}`),
        );
    // Each branch's calls, in the order they are made, and no other.
    expect(madeIn('parse').sort()).toEqual([
      ['L2 s.trim()', 'L2 out.push(s.trim())', 'L4 String.raw`…`', 'L4 cb(out, String.raw`${s}`)'],
      [
        'L3 new Date(0)',
        'L3 new Date(0).getTime()',
        'L3 out.push(new Date(0).getTime())',
        'L4 String.raw`…`',
        'L4 cb(out, String.raw`${s}`)',
      ],
    ]);
    // keep, passed as a value, is entered by each call of cb or f the paths made, and only by those.
    const entered = report.paths.filter((p) => p.start.function === 'keep').reduce((n, p) => n + p.count, 0);
    const made = report.paths.reduce(
      (n, p) => n + p.count * p.steps.filter((s) => s.call?.startsWith('cb(') || s.call === 'f(1)').length,
      0,
    );
    expect([entered, made]).toEqual([3, 3]);
    // o.g is not a function: f(1) was surely made (nothing before it may throw), o.g(2) perhaps not.
    expect(madeIn('risky')).toEqual([['L8 f(1)', 'L8 o.g(2)?']]);
    // A long call reads as its last member.
    expect(madeIn('many')[0].slice(12)).toEqual([
      'L18 out.concat([0, 1])',
      'L18 out.concat([0, 1]).map(String)',
      'L18 out.concat([0, 1]).map(String).filter(…)',
      'L18 ….slice(…)',
    ]);
    const text = formatCallPaths(file, report, { label: 'many', names: ['many'] }, plain, 20);
    expect(text).toMatch(
      /\n +many +L15 → out\.push\(1\) ×3, callee not known statically.*\n +many +L16 → out\.push\(2\), /,
    );
    expect(text).toMatch(
      /\n +many +L17 → out\.push\(7\), callee not known statically\n +many +L17 … and 7 more calls not crossed, to L18 \(json lists each\)\n/,
    );
    expect(formatCallPaths(file, report, null, plain, 20)).toContain(
      ' L8 → o.g(2)? perhaps not made: an exception left this code, perhaps before the call; callee not known statically',
    );
    expect(callTreesSection(file, 20)).toContain(
      '<li class="step unknown-call perhaps"><a href="#L8">L8</a> → o.g(2)? perhaps not made',
    );
  });

  test('a profile of a build that recorded no blocks for its calls still reads: the calls not crossed listed apart', () => {
    const file = profileInProcess(scaled, 'call-paths-older.js', { mode: 'interprocedural' });
    const ipp = file.meta.interprocedural!;
    const older = {
      ...file,
      meta: {
        ...file.meta,
        functions: file.meta.functions.map(({ calls: _calls, ...fn }) => fn),
        interprocedural: {
          ...ipp,
          notCrossed: [6, 6, 7, 10].map((line) => ({
            caller: line === 10 ? 3 : 2,
            callee: 1,
            line,
            why: 'parameters' as const,
          })),
        },
      },
    };
    const [now, then] = [interproceduralReport(file)!, interproceduralReport(older)!];
    expect(then.notCrossed).toEqual(now.notCrossed);
    const steps = (r: typeof now) => r.paths.flatMap((p) => p.steps);
    expect(steps(now).some((s) => s.kind === 'not-crossed-call')).toBe(true);
    // Without blocks its calls are not steps of the paths; everything else decodes the same.
    expect(then.paths).toEqual(
      now.paths.map((p) => ({ ...p, steps: p.steps.filter((s) => s.kind !== 'not-crossed-call') })),
    );
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

  test('without a file, a first view: files with paths across calls, the hottest such paths a line each, how to decode them', () => {
    const file = profileInProcess(scaled, 'call-paths-project.js', { mode: 'interprocedural' });
    const report = interproceduralReport(file)!;
    const other = profileInProcess(source, 'call-paths-project-2.js', { mode: 'interprocedural' });
    const files = [
      { key: file.key, report },
      { key: other.key, report: interproceduralReport(other)! },
    ];
    const text = formatProjectCallPaths(files, plain, 2);
    // scale's paths run through it alone (its calls are not crossed): not listed.
    const crossing = files.flatMap((f) => f.report.paths.filter((p) => p.functions.length > 1));
    const executed = report.executedPaths + files[1].report.executedPaths;
    expect(text).toContain(
      `2 files counted in interprocedural mode (piecewise scheme): ${executed} paths executed, ${crossing.length} of them through more than one function, in 2 files\n`,
    );
    // Hottest first, one line each, no steps.
    const lines = [...text.matchAll(/^ {4}×(\d+) +(\S+) +path (\d+) {2}(.*) {2}\(/gm)];
    expect(lines.length).toBe(2);
    const hottest = crossing.map((p) => p.count).sort((a, b) => b - a);
    expect(lines.map((m) => Number(m[1]))).toEqual(hottest.slice(0, 2));
    expect(lines.every((m) => m[4].includes(' → '))).toBe(true);
    expect(text).toContain(`    … and ${crossing.length - 2} more paths (--limit N lists more)`);
    expect(text).not.toMatch(/ L\d+ /);
    expect(text).toMatch(
      /\n`pathprof-report calls FILE` decodes a file's paths into source, .* e\.g\. `pathprof-report calls virtual\/call-paths-project.*\.js(:\w+)? --across`$/,
    );
    expect(text).toMatch(
      /\n {4}virtual\/call-paths-project\.js {4}\d+ of 4 paths across calls; N = \d+; 2 call sites crossed, 0 cut, 4 not crossed\n/,
    );
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
      "All files: 2 files, counted as interprocedural paths: no path coverage percentage (N counts every combination of the functions' paths that crossed calls allow, feasible or not); `pathprof-report calls [FILE[:FUNCTION]]` decodes their paths into source",
      "istanbul's statements, branches, functions and lines, as a path-mode run gives them: `lcov`, `istanbul`, `html`, `check`",
    ]);
  });

  test('json: interprocedural files are a list of their own; a report of path-mode files has the keys it had', () => {
    const ipp = profileInProcess(source, 'json-ipp.js', { mode: 'interprocedural' });
    const plainFile = profileInProcess(source, 'json-path.js');
    const mixed = pathReport([ipp, plainFile], []);
    expect(mixed.files.map((f) => f.file)).toEqual(['virtual/json-path.js']);
    expect(mixed.summary.files).toBe(1);
    expect(mixed.interproceduralFiles).toEqual([
      { file: 'virtual/json-ipp.js', ...interproceduralReport(ipp)! },
    ]);
    expect(Object.keys(mixed.interproceduralFiles![0])).toEqual([
      'file',
      'scheme',
      'pathCount',
      'executedPaths',
      'crossedSites',
      'cutSites',
      'notCrossed',
      'paths',
    ]);
    expect(Object.keys(pathReport([plainFile], []))).toEqual(['format', 'summary', 'files', 'problems']);
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
      // Columns of their own instead of functions' coverage and untaken paths, then istanbul's four, derived
      // as for a path-mode run (interprocedural-istanbul.test.ts compares them).
      expect(index).toContain(
        '<th tabindex="0" aria-sort="none">Paths executed</th><th tabindex="0" aria-sort="none">Across calls</th>',
      );
      expect(index).toContain(
        '<th tabindex="0" aria-sort="none">Not crossed</th><th tabindex="0" aria-sort="none">Statements</th>',
      );
      expect(index).toMatch(
        new RegExp(
          `<td data-sort="4">4</td><td data-sort="${crossing}">${crossing}</td><td data-sort="\\d+">[^]*<td class="\\w+" data-sort="[\\d.]+">[\\d.]+% <small>\\d+/\\d+</small></td></tr>`,
        ),
      );
      expect(index).toContain('<p class="istanbul">As istanbul counts: statements ');
      expect(index).not.toMatch(/id="untaken-only"|>n\/a</);
      // Beside files counted per function, a row in their table.
      const plainFile = profileInProcess(source, 'mixed-path-mode.js');
      writeHtmlReport([file, plainFile], pathReport([file, plainFile], []), site, 20, {
        implicitExceptions: false,
      });
      expect(readFileSync(join(site, 'index.html'), 'utf8')).toMatch(
        new RegExp(
          `<td class="none" data-sort="-1">4 executed <small>${crossing} across calls</small></td>(<td data-sort="-1" title="counted in interprocedural mode: no per-function paths">–</td>){2}<td class="\\w+" data-sort="[\\d.]+">`,
        ),
      );
      const page = readFileSync(
        join(
          site,
          readdirSync(site).find((f) => f.includes('call-paths-html'))!,
        ),
        'utf8',
      );
      expect(page).toContain(
        '<ul class="not-crossed"><li>scale called in total L6 ×2, L7; other L10: its parameters run code before the callee can take the path (destructuring; older builds also refused defaults)</li></ul>',
      );
      // No functions' paths to select on the page, nor untaken ones to step through.
      expect(page).toContain('<p class="help">Each path runs across calls, drawn as a call tree');
      expect(page).not.toContain('path no run took');
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
