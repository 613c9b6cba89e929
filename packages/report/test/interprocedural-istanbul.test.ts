import { transformSync } from '@babel/core';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as runtime from '@pathprof/runtime';
import pathprof from 'babel-plugin-pathprof';
import {
  decodeFileProfile,
  istanbulCoverages,
  pathReport,
  writeIstanbulReports,
  type IstanbulFileCoverage,
} from '../src';
import { githubAnnotations } from '../src/github-annotations';
import { filePageBody } from '../src/html/file-page';
import { writeHtmlReport } from '../src/html/html-report';
import { lineCoverage, type LineCoverage } from '../src/html/line-coverage';
import { crossesCalls, interproceduralReport } from '../src/interprocedural-report';
import { Problems } from '../src/problems';
import { thresholdFailures, type Thresholds } from '../src/thresholds';
import { profileInProcess, runInContext, scriptOptions, virtualFile } from './support/in-process';
import { built } from './support/runs';

// Crossed calls in loops on both sides, a callee whose loop restarts paths inside it, exceptions out of crossed
// callees caught in a caller's handler and passed through a caller without one, recursion (a cut site), a call
// in a condition and after a throwing call in one block.
const source = `
function pow(x, n) {
  let r = 1;
  for (let i = 0; i < n; i++) r *= x;
  return r;
}
function check(v) {
  if (v > 20) throw new Error('big ' + v);
  return v;
}
function relay(v) {
  const w = check(v);
  return w + 1;
}
function fact(n) {
  return n <= 1 ? 1 : n * fact(n - 1);
}
function main(limit) {
  let total = 0;
  for (let i = 0; i < limit; i++) {
    try {
      total += relay(pow(i, 2)) + (check(i) > 2 ? fact(i) : 0);
    } catch (e) {
      total -= 1;
    }
    if (pow(2, i) > 8 && i % 2) total += 1;
  }
  return total;
}
function unused(x) {
  return x ? pow(x, 2) : check(x);
}
main(7);
main(2);
`;

/** jest's four at 100%: some of this program is not run, so each one fails. */
const istanbulThresholds: Thresholds = { statements: 100, branches: 100, functions: 100, lines: 100 };

function coverageOf(options: Parameters<typeof profileInProcess>[2]): {
  coverage: IstanbulFileCoverage[];
  notes: string[];
  /** What the html's index row and source view show: istanbul's summary, line counts, untaken decisions. */
  html: LineCoverage | null;
  /** What `check` says of istanbul's four thresholds. */
  check: string[];
} {
  const file = profileInProcess(source, 'interprocedural-istanbul.js', options);
  if (file.interprocedural) {
    // The run exercised what the derivation must get right: paths across calls, exceptions out of them.
    const report = interproceduralReport(file)!;
    expect(report.paths.some(crossesCalls)).toBe(true);
    expect(report.paths.some((p) => p.steps.some((s) => s.text.includes('after an exception')))).toBe(true);
  }
  const problems = new Problems();
  const coverage = istanbulCoverages([file], problems);
  const check = thresholdFailures(
    pathReport([file], []),
    { global: istanbulThresholds },
    { implicitExceptions: false },
    [file],
  );
  return { coverage, notes: problems.messages, html: lineCoverage(file), check };
}

/**
 * A file counted in interprocedural mode gets the istanbul coverage (so the lcov) a path-mode run of the same
 * program gets: its paths decode into walks of each function's edges, which give the same edge and block counts.
 */
(built ? describe : describe.skip)('istanbul coverage of a file counted in interprocedural mode', () => {
  const byPathMode = coverageOf({});

  test.each(['piecewise', 'context'] as const)(
    '%s scheme: the same as in path mode (exports, html figures and marks, check)',
    (scheme) => {
      const byInterprocedural = coverageOf({ mode: 'interprocedural', scheme });
      expect(byPathMode.coverage).toHaveLength(1);
      expect(byPathMode.html!.untaken.size).toBeGreaterThan(0);
      expect(byPathMode.html!.missed.length).toBeGreaterThan(0);
      expect(byPathMode.check).toHaveLength(4);
      expect(byInterprocedural).toEqual(byPathMode);
    },
  );

  test('a file counted by two builds in one run (path, then interprocedural mode): the exports add their counts', () => {
    const builds = [
      profileInProcess(source, 'two-builds.js'),
      profileInProcess(source, 'two-builds.js', { mode: 'interprocedural' }),
    ];
    const exported = (files: typeof builds) => {
      const out = mkdtempSync(join(tmpdir(), 'pathprof-two-builds-'));
      try {
        writeIstanbulReports(istanbulCoverages(files, new Problems()), ['json'], { dir: out });
        return Object.values(JSON.parse(readFileSync(join(out, 'coverage-final.json'), 'utf8')))[0] as {
          s: Record<string, number>;
          f: Record<string, number>;
        };
      } finally {
        rmSync(out, { recursive: true, force: true });
      }
    };
    const one = exported([builds[0]]);
    const both = exported(builds);
    const doubled = (counts: Record<string, number>) =>
      Object.fromEntries(Object.entries(counts).map(([id, n]) => [id, 2 * n]));
    expect(Object.values(one.s).some((n) => n > 0)).toBe(true);
    expect(both.s).toEqual(doubled(one.s));
    expect(both.f).toEqual(doubled(one.f));
  });

  test('html: a file counted by two builds in one run has a page for each, each linked from the index', () => {
    const builds = [
      profileInProcess(source, 'two-builds.js'),
      profileInProcess(source, 'two-builds.js', { mode: 'interprocedural' }),
    ];
    const site = mkdtempSync(join(tmpdir(), 'pathprof-two-builds-html-'));
    try {
      writeHtmlReport(builds, pathReport(builds, []), site, 20, { implicitExceptions: false });
      const index = readFileSync(join(site, 'index.html'), 'utf8');
      const links = [...index.matchAll(/<a href="([^"]+)">virtual\/two-builds\.js<\/a>/g)].map((m) => m[1]);
      expect(links).toEqual([
        'virtual_two-builds.js~path.html',
        'virtual_two-builds.js~interprocedural.html',
      ]);
      expect(index).toContain('virtual/two-builds.js</a> <small>(interprocedural build)</small>');
      const [path, interprocedural] = links.map((name) => readFileSync(join(site, name), 'utf8'));
      expect(path).toContain('<title>pathprof: virtual/two-builds.js (path build)</title>');
      expect(path).not.toContain('class="call-tree"');
      expect(interprocedural).toContain(
        '<title>pathprof: virtual/two-builds.js (interprocedural build)</title>',
      );
      expect(interprocedural).toContain('class="call-tree"');
    } finally {
      rmSync(site, { recursive: true, force: true });
    }
  });

  test('two builds of one file skipped for one reason (its source changed) are one problem', () => {
    const source = 'function f(x) { return x ? 1 : 2; }\nf(1);\n';
    const { filename } = virtualFile('two-builds-changed.js');
    const builds = [{}, { mode: 'interprocedural' as const }].map((options) => {
      const code = transformSync(source, {
        ...scriptOptions(filename),
        plugins: [[pathprof, { runtime: 'require', ...options }]],
      })!.code!;
      runInContext(code);
      const key = 'virtual/two-builds-changed.js';
      try {
        return runtime.snapshot(runtime.getStore()).files.find((f) => f.key === key)!;
      } finally {
        delete runtime.getStore().files[key];
      }
    });
    const problems = new Problems();
    for (const build of builds)
      expect(decodeFileProfile(build, filename, `${source}// edited\n`, problems)).toBeNull();
    expect(problems.messages).toEqual([
      'virtual/two-builds-changed.js: source changed since it was instrumented (rerun the tests); skipped',
    ]);
  });

  test('check: a path threshold on a group with a file counted in interprocedural mode fails naming it', () => {
    const file = profileInProcess(source, 'interprocedural-check.js', { mode: 'interprocedural' });
    // Beside a file counted per function, whose paths alone meet the threshold.
    const plain = profileInProcess('function f(x) {\n  return x;\n}\nf(1);\n', 'path-mode-check.js');
    const files = [plain, file];
    const check = (thresholds: Thresholds) =>
      thresholdFailures(pathReport(files, []), { global: thresholds }, { implicitExceptions: false }, files);
    expect(check({ paths: 100 })).toEqual([
      'pathprof: paths for "global" cannot be measured: virtual/interprocedural-check.js ' +
        'was counted in interprocedural mode, which has no per-function paths (its paths run across calls); ' +
        "gate such files on istanbul's statements, branches, functions or lines, or count them in path mode",
    ]);
    // The istanbul metrics are measured over both (22 of 23 statements, and 2 of 2); the path metrics are not.
    expect(check({ paths: 0, completeFunctions: -1000, statements: 100 })).toEqual([
      expect.stringMatching(/^pathprof: paths, completeFunctions for "global" cannot be measured: /),
      'pathprof: Coverage for statements (96%) does not meet "global" threshold (100%)',
    ]);
    const alone = [plain];
    expect(
      thresholdFailures(
        pathReport(alone, []),
        { global: { paths: 100 } },
        { implicitExceptions: false },
        alone,
      ),
    ).toEqual([]);
  });

  test("GitHub annotations and the file page list such a file's decisions no run took", () => {
    const file = profileInProcess(source, 'interprocedural-annotations.js', { mode: 'interprocedural' });
    const annotations = githubAnnotations([file], { implicitExceptions: false }, process.cwd(), 100);
    expect(annotations[0]).toMatch(
      /^::warning file=virtual\/interprocedural-annotations\.js,line=\d+,title=pathprof%3A \d+ decisions? never taken in \w+::/,
    );
    // The same decisions as the html's line tooltips (path mode's, which the tests above compare).
    const listed = annotations.flatMap((a) => a.slice(a.indexOf('::', 2) + 2).split('%0A'));
    const shown = [...byPathMode.html!.untaken.values()].flat();
    expect(listed.sort()).toEqual(shown.sort());
    // The file page lists them too, each linked to its line, as the annotations write them.
    const page = filePageBody(file, lineCoverage(file), 20, { implicitExceptions: false });
    const items = [...page.matchAll(/<li><a href="#L(\d+)">L\1<\/a> (.*?) <small>\w+<\/small><\/li>/g)];
    expect(page).toContain(`<h2>Branch decisions no run took (${shown.length})</h2>`);
    expect(items.map(([, line, text]) => `L${line} ${decodeHtml(text)}`).sort()).toEqual(shown.sort());
  });
});

/** The text of escaped html (escapeHtml writes characters as `&#N;`). */
function decodeHtml(html: string): string {
  return html.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)));
}
