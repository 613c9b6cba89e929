import { transformSync } from '@babel/core';
import { basename, join } from 'node:path';
import vm from 'node:vm';
import pathprof from 'babel-plugin-pathprof';
import * as runtime from '@pathprof/runtime';
import type { Profile } from '@pathprof/runtime';
import { EdgeKind } from '@pathprof/cfg';
import { decodePath } from '@pathprof/numbering';
import { decodeFileProfile, functionFigures, Problems, TerminalStyle } from '../src';
import { selectFunctions, throughLine } from '../src/function-selection';
import { formatFunctionPaths } from '../src/show-paths';
import { profileInProcess, scriptOptions, virtualFile } from './support/in-process';
import { built } from './support/runs';

const source = `class DateTime {
  static fromISO(text) {
    if (!text) return null;
    return new DateTime(text.length > 10 ? 'long' : 'short');
  }
  constructor(kind) { this.kind = kind; }
  get year() { return this.kind === 'long' ? 2024 : 0; }
}
function fromISO(s) { return s; }
function pick(list, wanted) {
  const kept = [];
  for (const item of list) {
    if (item === wanted) {
      kept.push(item);
    } else if (item > wanted) {
      break;
    }
  }
  return kept.map((x) => x * 2).filter((y) => y > 2);
}
DateTime.fromISO('2024-01-01T00:00');
DateTime.fromISO('');
new DateTime('short').year;
fromISO('x');
pick([1, 2, 3], 2);
pick([2, 2], 2);
`;

(built ? describe : describe.skip)('show FILE[:FUNCTION|:LINE] or FUNCTION: what it selects', () => {
  const file = profileInProcess(source, 'selection.js');
  const names = (target: string) => {
    const selection = selectFunctions([file], target);
    return (
      selection.miss ?? selection.functions.map(({ fn, line }) => `${fn.meta.name}${line ? `@${line}` : ''}`)
    );
  };

  test('a name matches with or without its class, and a getter without get', () => {
    expect(names('selection.js:fromISO')).toEqual(['DateTime.fromISO', 'fromISO']);
    expect(names('selection.js:DateTime.fromISO')).toEqual(['DateTime.fromISO']);
    expect(names('selection.js:year')).toEqual(['get DateTime.year']);
    expect(names('selection.js:DateTime.year')).toEqual(['get DateTime.year']);
  });

  test('a member with a computed key answers to the key as written, with or without its class', () => {
    const list = profileInProcess(
      'class List { *[Symbol.iterator]() { yield 1; } }\n[...new List()];\n',
      'list.js',
    );
    const named = (target: string) => {
      const selection = selectFunctions([list], target);
      return selection.miss ?? selection.functions.map(({ fn }) => fn.meta.name);
    };
    expect(named('list.js:[Symbol.iterator]')).toEqual(['List.[Symbol.iterator]']);
    expect(named('list.js:List.[Symbol.iterator]')).toEqual(['List.[Symbol.iterator]']);
  });

  test('a file by its path from the working directory too: absolute, or relative to a parent', () => {
    expect(names(`${join(process.cwd(), 'virtual', 'selection.js')}:pick`)).toEqual(['pick']);
    expect(names(`../${basename(process.cwd())}/virtual/selection.js:pick`)).toEqual(['pick']);
  });

  test('a name alone, not a file, selects the functions of that name in every file', () => {
    expect(names('fromISO')).toEqual(['DateTime.fromISO', 'fromISO']);
    expect(names('DateTime.year')).toEqual(['get DateTime.year']);
    expect(names('fromIso')).toBe('no profiled file or function matches fromIso');
  });

  test('a miss names the closest functions or files', () => {
    expect(names('selection.js:fromIso8601')).toBe('no profiled function matches selection.js:fromIso8601');
    expect(names('selection.js:fromIOS')).toBe(
      'no profiled function matches selection.js:fromIOS (did you mean DateTime.fromISO, fromISO?)',
    );
    expect(names('selction.js:pick')).toBe(
      'no profiled file matches selction.js (did you mean virtual/selection.js?)',
    );
    expect(names('selection.js:400')).toBe('no profiled function at line 400 of virtual/selection.js');
  });

  test('a line selects the innermost functions there: two arrows side by side, top-level code', () => {
    expect(names('selection.js:13')).toEqual(['pick@13']);
    expect(names('selection.js:19')).toEqual(['<anonymous>@19', '<anonymous>@19']);
    expect(names('selection.js:21')).toEqual(['<program>@21']);
  });

  test('through a line: exactly the paths that run a block there, counted and listed as decoding each finds', () => {
    const pick = file.functions.find((f) => f.meta.name === 'pick')!;
    const checked: number[] = [];
    for (let line = 11; line <= 19; line++) {
      const through = throughLine(pick, line);
      if (!through) continue;
      const expected = new Set<number>();
      for (let id = 0; id < pick.numbering.pathCount; id++) {
        // Its code on the line (a block's extent), or its break there.
        const { blocks, edges } = decodePath(pick.numbering, id);
        const onLine = (r: number) =>
          r >= 0 && pick.meta.ranges[4 * r] <= line && line <= pick.meta.ranges[4 * r + 2];
        const breaks = line === 16 && edges.some((e) => pick.meta.edges[3 * e + 2] === EdgeKind.Break);
        if (breaks || blocks.some((b) => onLine(pick.meta.blockRanges[b]))) expected.add(id);
      }
      const listed = [...through.ends.numbersEndingBy(['return', 'throw', 'exception', 'backedge', 'cut'])];
      expect({ line, listed }).toEqual({ line, listed: [...expected] });
      expect([...through.counts.keys()].sort((a, b) => a - b)).toEqual(
        [...pick.counts.keys()].filter((id) => expected.has(id)).sort((a, b) => a - b),
      );
      const figures = functionFigures(through, { implicitExceptions: true });
      expect(figures.potentialPaths).toBe(expected.size);
      checked.push(line);
    }
    // Lines 17 and 18 (closing braces) hold no code of pick's own; the loop's lines and its break do.
    expect(checked).toEqual([11, 12, 13, 14, 15, 16, 19]);
    expect(throughLine(pick, 17)).toBeNull();
  });

  test('show --tests on paths counted per calling context names the test files that took them, exactly', () => {
    // Two test files' profiles of one build (each its own realm, as under jest), merged as the report merges.
    const src = `function sign(n) {
  if (n > 0) return 1;
  return n < 0 ? -1 : 0;
}
function signs(list) { return list.map((n) => sign(n)); }
signs(input);
`;
    const { filename, key } = virtualFile('contexts-tests.js');
    const code = transformSync(src, {
      ...scriptOptions(filename),
      plugins: [[pathprof, { runtime: 'require', contexts: true }]],
    })!.code!;
    const profileOf = (testFile: string, input: number[]): Profile => {
      try {
        vm.runInContext(code, vm.createContext({ require: () => runtime, input }));
        const profile = runtime.snapshot(runtime.getStore());
        return { ...profile, testFile, files: profile.files.filter((f) => f.key === key) };
      } finally {
        delete runtime.getStore().files[key];
        delete runtime.getStore().contexts;
      }
    };
    const runs = [profileOf('test/a.test.js', [1, 2, 0]), profileOf('test/b.test.js', [-1, 1])];
    const decode = (profile: Parameters<typeof decodeFileProfile>[0]) => {
      const problems = new Problems();
      const decoded = decodeFileProfile(profile, filename, src, problems)!;
      expect(problems.messages).toEqual([]);
      return decoded;
    };
    const merged = decode(runtime.mergeProfileCounts(runs)[0]);
    const alone = runs.map((run) => decode(run.files[0]));
    for (const [index, fn] of merged.functions.entries()) {
      expect(fn.tests).toBeDefined();
      for (const id of fn.counts.keys()) {
        // Each test file's count of a path is the count of its profile alone.
        const expected = alone.flatMap((file, i) => {
          const count = file.functions[index].counts.get(id) ?? 0;
          return count ? [{ testFile: runs[i].testFile, count }] : [];
        });
        expect(fn.tests!.get(id) ?? []).toEqual(expected);
        expect(expected.reduce((n, t) => n + t.count, 0)).toBe(fn.counts.get(id));
      }
    }
    const sign = merged.functions.find((f) => f.meta.name === 'sign')!;
    const text = formatFunctionPaths(
      merged,
      sign,
      new TerminalStyle({ isTTY: false }, {}),
      0,
      { implicitExceptions: false },
      { tests: true },
    );
    expect(text).toMatch(/ {6}taken by: test\/a\.test\.js ×2\n {16}test\/b\.test\.js ×1\n/);
    expect(text).toMatch(/ {6}taken by: test\/a\.test\.js ×1\n/);
    expect(text).toMatch(/ {6}taken by: test\/b\.test\.js ×1$/m);
  });

  test('show --tests names at most 8 tests under a path, then how many more (a hot path of luxon had 300)', () => {
    const fromISO = file.functions.find((f) => f.meta.name === 'fromISO')!;
    const [id] = [...fromISO.counts.keys()];
    // As a run split by test decodes it: eleven tests, 1 to 11 runs each, 66 runs, and 4 outside any test.
    const tests = Array.from({ length: 11 }, (_, i) => ({
      testFile: 'test/iso.test.js',
      name: [`case ${i + 1}`],
      count: i + 1,
    }));
    const split = { ...fromISO, counts: new Map([[id, 70]]), tests: new Map([[id, tests]]) };
    const style = new TerminalStyle({ isTTY: false }, {});
    const text = formatFunctionPaths(file, split, style, 0, { implicitExceptions: false }, { tests: true });
    expect(text.split('\n').slice(3)).toEqual([
      '      taken by: test/iso.test.js › case 11 ×11',
      '                test/iso.test.js › case 10 ×10',
      '                test/iso.test.js › case 9 ×9',
      '                test/iso.test.js › case 8 ×8',
      '                test/iso.test.js › case 7 ×7',
      '                test/iso.test.js › case 6 ×6',
      '                test/iso.test.js › case 5 ×5',
      '                test/iso.test.js › case 4 ×4',
      '                and 3 more tests',
      '                a run outside any test file ×4',
    ]);
    // Test files whose tests were not told apart (PATHPROF_TEST_NAMES unset): so many more test files.
    const files = tests.map(({ count }) => ({ testFile: `test/iso-${count}.test.js`, count }));
    const byFile = { ...split, tests: new Map([[id, files]]) };
    const listed = formatFunctionPaths(
      file,
      byFile,
      style,
      0,
      { implicitExceptions: false },
      { tests: true },
    );
    expect(listed).toContain('      taken by: test/iso-11.test.js ×11\n');
    expect(listed).toContain('                and 3 more test files\n');
  });
});
