import { transformSync } from '@babel/core';
import { EdgeKind } from '@pathprof/cfg';
import { decodePath } from '@pathprof/numbering';
import * as runtime from '@pathprof/runtime';
import pathprof, { type FileMetadata } from 'babel-plugin-pathprof';
import {
  decodeFileProfile,
  formatTextReport,
  functionFigures,
  pathReport,
  Problems,
  type FunctionPaths,
  type ProfiledFile,
} from '../src';
import { throughLine } from '../src/function-selection';
import { contradictionOf } from '../src/infeasible-paths';
import { formatFunctionPaths } from '../src/show-paths';
import { unexecutedPaths } from '../src/unexecuted-paths';
import { TerminalStyle } from '../src/terminal-style';
import { runInContext, scriptOptions, virtualFile } from './support/in-process';
import { built } from './support/runs';

// One parameter tested again and again (through `!`, `== null`, `?.`, `typeof`, a `switch`), in a loop, a
// `finally` and a `?:`.
const source = `
function f(opts, xs) {
  let n = 0;
  if (opts) n++;
  for (const x of xs) {
    if (x) n++;
    if (!x) n += 2;
    if (opts) n += 3;
  }
  try {
    if (opts == null) throw new Error('none');
  } finally {
    if (opts) n--;
  }
  switch (typeof opts) {
    case 'object':
      n += 4;
      break;
    default:
      n -= 1;
  }
  if (typeof opts === 'object') n++;
  return opts?.k ? n : -n;
}
for (const [opts, xs] of [[{ k: 1 }, [0, 1]], [0, [2]], [{}, []]]) f(opts, xs);
try { f(null, [0]); } catch (e) {}
`;

/** The file's profile after one run, and the file decoded by the report. */
function profiled(): { profile: runtime.FileProfile; file: ProfiledFile } {
  const { filename, key } = virtualFile('infeasible.js');
  const code = transformSync(source, {
    ...scriptOptions(filename),
    plugins: [[pathprof, { runtime: 'require' }]],
  })!.code!;
  try {
    runInContext(code);
    const profile = runtime.snapshot(runtime.getStore()).files.find((f) => f.key === key)!;
    const problems = new Problems();
    const file = decodeFileProfile(profile, filename, source, problems)!;
    expect(problems.messages).toEqual([]);
    return { profile, file };
  } finally {
    delete runtime.getStore().files[key];
  }
}

(built ? describe : describe.skip)('infeasible paths', () => {
  const { profile, file } = profiled();
  const fn = file.functions.find((g) => g.meta.name === 'f')!;

  test('counted exactly, end by end, as an enumeration of every path finds them', () => {
    const enumerated = { return: 0, throw: 0, exception: 0, backedge: 0, cut: 0 };
    for (let id = 0; id < fn.numbering.pathCount; id++)
      if (contradictionOf(fn, id)) enumerated[fn.ends.kindOfNumber(id)]++;
    expect(fn.infeasible!.counts).toEqual(enumerated);
    expect(enumerated.return).toBeGreaterThan(0);
    expect(enumerated.throw).toBeGreaterThan(0);
    // The switch's case test is one of the decisions on `opts`, which relate (`opts`, `== null`, `typeof`).
    const kindOf = (e: number) => fn.meta.edges[3 * e + 2] as EdgeKind;
    const [opts] = fn.meta.implied!;
    expect(opts.some((e, i) => i % 2 === 1 && kindOf(e) === EdgeKind.CaseMatch)).toBe(true);
    expect(enumerated.backedge).toBeGreaterThan(0);
  });

  test('through a line too: those of the paths through it', () => {
    // Line 4, `if (opts) n++;`: the paths from entry (not those from the loop head).
    const through = throughLine(fn, 4)!;
    const enumerated = { return: 0, throw: 0, exception: 0, backedge: 0, cut: 0 };
    for (const id of through.ends.numbersEndingBy(['return', 'throw', 'exception', 'backedge', 'cut']))
      if (contradictionOf(through, id)) enumerated[through.ends.kindOfNumber(id)]++;
    expect(through.infeasible!.counts).toEqual(enumerated);
    expect(enumerated.return).toBeGreaterThan(0);
    expect(enumerated.return).toBeLessThan(fn.infeasible!.counts!.return);
  });

  test('left out of the figures and never listed as not executed', () => {
    const options = { implicitExceptions: false };
    const figures = functionFigures(fn, options);
    const { counts } = fn.infeasible!;
    const infeasible = counts!.return + counts!.throw + counts!.backedge + counts!.cut;
    const all = fn.ends.counts;
    expect(figures.infeasiblePaths).toBe(infeasible);
    expect(figures.potentialPaths).toBe(all.return + all.throw + all.backedge + all.cut - infeasible);
    // Every unexecuted path listed is feasible, and they are all the figures count.
    const missing = unexecutedPaths(fn, file.source, 1e6, options);
    expect(missing.filter(({ id }) => contradictionOf(fn, id))).toEqual([]);
    expect(missing).toHaveLength(figures.potentialPaths - figures.executedPaths);
    const shown = formatFunctionPaths(file, fn, new TerminalStyle({ isTTY: false }, {}), 0, options);
    // Path ids number every path: the header says so when there are more than it counts.
    const n = fn.numbering.pathCount;
    expect(shown.split('\n')[0]).toMatch(
      `; path ids 0 to ${n - 1} number all the function's ${n} paths (implicit-exception and infeasible ones too)`,
    );
    expect(shown).toMatch(
      new RegExp(
        `${infeasible} infeasible paths set aside \\(no run can take them\\), e\\.g\\. path \\d+: L\\d+ .* contradicts L\\d+ `,
      ),
    );
  });

  test("the text report's footer names a function to show them in", () => {
    const report = pathReport([file], [], { implicitExceptions: false });
    const text = formatTextReport(report, new TerminalStyle({ isTTY: false }, {}));
    expect(text).toMatch(
      /left out above: \d+; `pathprof-report show virtual\/infeasible\.js:f` gives an example$/m,
    );
  });

  test('a run that took an infeasible path makes the report fail', () => {
    // Claim that two decisions an executed path takes contradict: what a wrong analysis would say.
    const meta = runtime.expandMetadata(profile.meta) as FileMetadata;
    const k = meta.functions.findIndex((g) => g.name === 'f');
    const decides = (e: number) => [EdgeKind.True, EdgeKind.False].includes(fn.meta.edges[3 * e + 2]);
    const taken = decodePath(fn.numbering, [...fn.counts.keys()][0]).edges.filter(decides);
    expect(taken.length).toBeGreaterThan(1);
    const forged: FunctionPaths['meta'] = {
      ...meta.functions[k],
      correlated: [[2 * taken[0] + 1, 2 * taken[1]]],
    };
    const functions = meta.functions.map((g, i) => (i === k ? forged : g));
    const { filename } = virtualFile('infeasible.js');
    expect(() =>
      decodeFileProfile({ ...profile, meta: { ...meta, functions } }, filename, source, new Problems()),
    ).toThrow(/f: path \d+ ran, but its decisions on edges \d+ and \d+ were found contradicting/);
  });
});
