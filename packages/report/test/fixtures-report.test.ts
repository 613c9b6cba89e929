/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The page.evaluate callbacks run in chromium: their DOM types are the browser's.
import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isMetadataFile } from '@pathprof/runtime';
import { createCoverageMap, type FileCoverageData } from 'istanbul-lib-coverage';
import { istanbulCoverage, loadProfiledFiles, pathReport, Problems, type PathReport } from '../src';
import { COLLAPSED } from '../src/html/graph-svg';
import { writeHtmlReport } from '../src/html/html-report';
import { profileInProcess, switchOf } from './support/in-process';
import { istanbulParity } from './support/istanbul-parity';
import { launchChromium } from './support/chromium';
import {
  built,
  fixtures,
  jestWithIstanbul,
  profileDir,
  report,
  reportIn,
  runJest,
  withProfileDir,
} from './support/runs';

// Each test starts processes (jest, the CLI, chromium): seconds alone, longer beside the whole suite.
jest.setTimeout(60_000);

const ESC = '\u001b';

/**
 * The example projects' jest runs, reported in every format: the numbers are the calls their tests make
 * (worked out by hand from the tests, not copied from the output).
 */
(built ? describe : describe.skip)('pathprof-report on the example projects', () => {
  const shop = profileDir();
  const geometry = profileDir();
  beforeAll(() => {
    runJest('js-shop', shop, ['-w', '2']);
    // Its tests told apart by name; the shop's by test file only (the default).
    runJest('ts-geometry', geometry, ['--runInBand'], { PATHPROF_TEST_NAMES: '1' });
  });
  afterAll(() => {
    for (const dir of [shop, geometry]) rmSync(dir, { recursive: true, force: true });
  });

  test('text: potential and executed paths per function, hottest paths, a summary', () => {
    const run = report('js-shop', [shop]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const row = (name: string) => run.stdout.split('\n').find((l) => l.trim().startsWith(`${name} `));
    // discount returns 5 ways (no coupon, percent, fixed at or above its minimum, fixed below it, another
    // kind); it ran 4 times: twice without a coupon, once percent, once fixed above the minimum. Its 5 other
    // paths end by an exception of a property read or call (`!coupon` cannot throw): apart, none ran.
    expect(row('discount')).toMatch(/^ {2}discount +13 +5 +3 +60\.0% +0\/5 +#0 ×2, #2 ×1, #8 ×1$/);
    // priceOf returns or throws (its own `throw`): 5 known products, 2 unknown (mango, caviar).
    expect(row('priceOf')).toMatch(/^ {2}priceOf +3 +2 +2 +100\.0% +0\/1 +#2 ×5, #1 ×2$/);
    // A file's coverage is the mean of its functions': cart.js (100 + 66.7 + 60) / 3.
    expect(run.stdout).toMatch(/^src\/cart\.js +12 +8 +75\.6% +1\/3 +0\/14$/m);
    expect(run.stdout).toContain(
      [
        'All files: 2 files, 7 functions, 3 with every path executed',
        "Path coverage: 77.0% (mean of the functions'); pooled: 20 of 35 paths (57.1%)",
        'Implicit-exception paths, left out above: 0 of 29 executed (--implicit-exceptions counts them)',
        // The function with the most paths no run took (parseOrder: 10), as the example of what to run next.
        "Next: `pathprof-report show src/catalog.js:parseOrder` decodes a function's paths (#ids above) into " +
          'decisions and lists those no run took; `pathprof-report html` writes a browsable report',
      ].join('\n'),
    );
    expect(run.stdout).not.toContain(ESC);
  });

  test('--implicit-exceptions counts every path, as the figures did before they were told apart', () => {
    const run = report('js-shop', [shop, '--implicit-exceptions']);
    expect(run.stdout).toMatch(/^ {2}discount +13 +10 +3 +30\.0% +0\/5 /m);
    expect(run.stdout).toContain('pooled: 20 of 64 paths (31.3%)');
    expect(run.stdout).toContain('Implicit-exception paths (counted above): 0 of 29 executed');
  });

  test('nothing to divide by prints n/a, never 100%', () => {
    withProfileDir((empty) => {
      const run = report('js-shop', [empty]);
      expect(run.stdout).toContain("Path coverage: n/a (mean of the functions'); pooled: 0 of 0 paths (n/a)");
      const json = JSON.parse(report('js-shop', ['json', empty]).stdout) as PathReport;
      expect(json.summary).toMatchObject({ coverage: null, meanCoverage: null, completeFunctions: 0 });
    });
  });

  test('sources are looked up under --root (default: the current directory, then the directory holding the profiles)', () => {
    const elsewhere = report('ts-geometry', [shop]);
    expect(elsewhere.status).toBe(2);
    expect(elsewhere.stderr).toContain('pathprof-report: src/cart.js: source not found under');
    expect(report('ts-geometry', ['--root', '../js-shop', shop]).stdout).toMatch(
      /All files: 2 files, 7 functions/,
    );
  });

  test('colour when FORCE_COLOR asks for it, none when NO_COLOR or not a terminal', () => {
    expect(report('js-shop', [shop], { FORCE_COLOR: '1' }).stdout).toMatch(
      new RegExp(`${ESC}\\[33m +66\\.7%${ESC}\\[39m`),
    );
    expect(report('js-shop', [shop], {}).stdout).not.toContain(ESC);
  });

  test('show: executed paths as decisions with counts, and what a test must do to take the others', () => {
    const run = report('js-shop', ['show', 'src/cart.js:discount', shop, '--limit', '1']);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(
      'src/cart.js:13 discount: 3 of 5 paths executed (60.0%); implicit-exception paths apart: 0 of 5',
    );
    expect(run.stdout).toContain(
      [
        '  path 8  ×1  entry → return',
        '      L14 coupon → true',
        "      L15 coupon.kind === 'percent' → false",
        "      L16 coupon.kind === 'fixed' → true",
        '      L16 sum >= coupon.minimum → true',
        '      L16 return Math.min(coupon.value, sum);',
      ].join('\n'),
    );
    // The fixed coupon below its minimum is the first returning path no test takes.
    expect(run.stdout).toContain(
      [
        '  not executed:',
        '  path 5  entry → return',
        '      L14 coupon → true',
        "      L15 coupon.kind === 'percent' → false",
        "      L16 coupon.kind === 'fixed' → false",
        '      L17 return 0;',
      ].join('\n'),
    );
    // At a line: the function there, its paths through the line (3 of discount's 5 returning paths decide on
    // line 16); a misspelt name is answered with the closest ones.
    const line = report('js-shop', ['show', 'src/cart.js:16', shop, '--limit', '0']);
    expect(line.stdout).toMatch(
      /^src\/cart\.js:13 discount, through line 16: 1 of 3 paths executed \(33\.3%\)/,
    );
    // --tests: which test files took each path (the setup file names each profile's), and for an untaken one
    // the executed path that follows it longest, with its tests: the one to extend.
    const tests = report('js-shop', ['show', 'src/cart.js:discount', shop, '--limit', '1', '--tests']);
    expect(tests.stdout).toContain('      L14 return 0;\n      taken by: test/cart.test.js ×2\n');
    expect(tests.stdout).toContain(
      [
        '      L17 return 0;',
        "      closest: path 8, the same first 2 decisions; then L16 coupon.kind === 'fixed' → false",
        '      path 8 taken by: test/cart.test.js ×1',
      ].join('\n'),
    );
    const typo = report('js-shop', ['show', 'cart.js:discont', shop]);
    expect(typo.status).toBe(1);
    expect(typo.stderr).toBe(
      'pathprof-report: no profiled function matches cart.js:discont (did you mean discount?)\n',
    );
  });

  test('show: loop paths are entering the loop, one iteration, leaving it', () => {
    const run = report('js-shop', ['show', 'cart.js:total', shop, '--limit', '0']);
    // total ran 3 times over carts of 2, 1 and 1 items: 3 entries into the loop, 1 more iteration, 3 exits.
    expect(run.stdout).toContain('path 8  ×3  leaving the loop: loop head → return');
    expect(run.stdout).toContain('L6 for (const item of items) → loop: done, leaves the loop');
    expect(run.stdout).toMatch(/path \d+ {2}×1 {2}one loop iteration: loop head → the loop head/);
    const entries = [...run.stdout.matchAll(/×(\d+) {2}entering the loop/g)].reduce(
      (n, m) => n + Number(m[1]),
      0,
    );
    expect(entries).toBe(3);
  });

  test('show: TypeScript, a parameter default, try/catch and switch', () => {
    const parse = report('ts-geometry', ['show', 'parse.ts:parseShape', geometry, '--limit', '0']);
    expect(parse.stdout).toContain(
      [
        '  path 21  ×1  entry → return',
        '      L4 log: (message: string) => void = () => {} → value present: default skipped',
        '      L7 throws',
        '      L10 return null;',
      ].join('\n'),
    );
    const area = report('ts-geometry', ['show', 'shapes.ts:area', geometry, '--limit', '30']);
    expect(area.stdout).toContain(
      "      L9 case 'circle': → does not match\n      L11 case 'rect': → matches",
    );
    expect(area.stdout).toContain('no case matches: default\n      L23 reaches the end of the function');
  });

  test('json: pathprof-report/2 with ids, counts and decisions', () => {
    const run = report('ts-geometry', ['json', geometry]);
    const json = JSON.parse(run.stdout) as PathReport;
    expect(json.format).toBe('pathprof-report/2');
    expect(json.summary).toMatchObject({ files: 2, functions: 6 });
    const classify = json.files
      .find((f) => f.file === 'src/shapes.ts')!
      .functions.find((f) => f.name === 'classify')!;
    expect(classify).toMatchObject({
      kind: 'function',
      location: { start: { line: 25 } },
      // Three returns (degenerate, large, small); area() or the comparison throwing is apart.
      potentialPaths: 3,
      executedPaths: 2,
      coverage: 66.67,
      exceptionPaths: { potentialPaths: 2, executedPaths: 0, counted: false },
      activations: 2,
    });
    expect(classify.paths.map((p) => p.decisions.map((d) => `${d.code} ${d.kind}`))).toEqual(
      expect.arrayContaining([
        ['a === 0 true', "return 'degenerate'; return"],
        ['a === 0 false', 'a > 100 true', "return a > 100 ? 'large' : 'small'; return"],
      ]),
    );
    // Each executed path names its tests (PATHPROF_TEST_NAMES=1: the jest environment split the counts by test).
    expect(classify.paths.map((p) => p.tests)).toEqual([
      [{ file: 'test/shapes.test.ts', name: ['classes'], count: 1 }],
      [{ file: 'test/shapes.test.ts', name: ['classes'], count: 1 }],
    ]);
    // The one returning path no test took, with the decisions that take it: a small nonzero area.
    expect(
      classify.unexecutedPaths.map((p) => [p.end, p.decisions.map((d) => `${d.code} ${d.kind}`)]),
    ).toEqual([['return', ['a === 0 false', 'a > 100 false', "return a > 100 ? 'large' : 'small'; return"]]]);
    expect(classify.moreUnexecutedPaths).toBe(0);
    // The large area's path follows it longest: the same first decision (a === 0 → false), then a > 100 → true.
    const large = classify.paths.find((p) => p.decisions[1]?.kind === 'true')!;
    expect(classify.unexecutedPaths[0].closest).toEqual({ paths: [large.id], sharedDecisions: 1 });
    // parse.ts's parseShape has more untaken paths than --limit 2 lists: the rest are counted.
    const limited = JSON.parse(
      report('ts-geometry', ['json', '--limit', '2', geometry]).stdout,
    ) as PathReport;
    const parseShape = limited.files[0].functions.find((f) => f.name === 'parseShape')!;
    expect(parseShape.unexecutedPaths).toHaveLength(2);
    expect(parseShape.moreUnexecutedPaths).toBe(parseShape.potentialPaths - parseShape.executedPaths - 2);
    expect(parseShape.moreUnexecutedPaths).toBeGreaterThan(0);
  });

  test('istanbul and lcov: functions, branches and lines derived from the path profile', () => {
    const run = report('ts-geometry', ['istanbul', geometry]);
    const map = createCoverageMap(JSON.parse(run.stdout));
    const shapes = map.fileCoverageFor(join(fixtures, 'ts-geometry', 'src', 'shapes.ts'));
    // area: circle once, rect twice, polygon once; classify: zero area once, large once, small never.
    expect(Object.values(shapes.b)).toEqual([
      [1, 2, 1],
      [1, 1],
      [1, 0],
    ]);
    expect(Object.values(shapes.branchMap).map((b) => b.type)).toEqual(['switch', 'if', 'cond-expr']);
    expect(shapes.f).toEqual({ 0: 4, 1: 2 });
    expect(shapes.getLineCoverage()).toMatchObject({ 26: 2, 27: 2, 28: 1 });
    const lcov = report('js-shop', ['lcov', shop]).stdout;
    const [cart, catalog] = lcov.split('end_of_record');
    expect(cart).toContain('SF:src/cart.js\n');
    expect(cart).toContain('FNDA:4,discount');
    // if (coupon.kind === 'fixed' && sum >= coupon.minimum): taken once, never skipped; both operands ran once.
    expect(cart).toMatch(/BRDA:16,3,0,1\nBRDA:16,3,1,0\nBRDA:16,4,0,1\nBRDA:16,4,1,1\n/);
    expect(cart).toContain('DA:17,0');
    // shippingZone('US') never ran: its `return 'americas'` is a line no path ran (it used to say 1).
    expect(catalog).toContain('DA:33,0');
    // Closing braces are no statements: lines 36 and 37 close the switch and the function.
    expect(catalog).toContain('DA:35,1');
    expect(catalog).not.toMatch(/^DA:3[67],/m);
  });

  test('istanbul: statements, lines, functions and branches equal babel-plugin-istanbul on the same tests', () => {
    for (const [project, profiles] of [
      ['js-shop', shop],
      ['ts-geometry', geometry],
    ] as const) {
      withProfileDir((out) => {
        jestWithIstanbul(project, out);
        const theirs = JSON.parse(readFileSync(join(out, 'coverage-final.json'), 'utf8')) as Record<
          string,
          FileCoverageData
        >;
        const problems = new Problems();
        const files = loadProfiledFiles([profiles], [join(fixtures, project)], problems);
        expect(problems.messages).toEqual([]);
        expect(files.map((f) => f.path).sort()).toEqual(Object.keys(theirs).sort());
        for (const file of files) {
          const parity = istanbulParity(istanbulCoverage(file), theirs[file.path]);
          expect({ file: file.key, differences: parity.differences }).toEqual({
            file: file.key,
            differences: [],
          });
          expect(parity.unknownHits).toEqual({ statements: 0, functions: 0, branches: 0, lines: 0 });
        }
      });
    }
  });

  test('istanbul --reporter: istanbul-reports writes cobertura, clover, json-summary and the console formats', () => {
    withProfileDir((out) => {
      const run = report('js-shop', [
        'istanbul',
        '--reporter',
        'cobertura',
        '--reporter',
        'clover',
        '--reporter',
        'json-summary',
        '--reporter',
        'text-summary',
        '-o',
        out,
        shop,
      ]);
      expect(run.status).toBe(0);
      expect(readdirSync(out).sort()).toEqual([
        'clover.xml',
        'cobertura-coverage.xml',
        'coverage-summary.json',
      ]);
      expect(readFileSync(join(out, 'cobertura-coverage.xml'), 'utf8')).toContain(
        'filename="src/catalog.js"',
      );
      const summary = JSON.parse(readFileSync(join(out, 'coverage-summary.json'), 'utf8'));
      expect(summary.total.functions).toMatchObject({ total: 5, covered: 5 });
      expect(run.stdout).toMatch(/Statements +: [\d.]+% \( \d+\/\d+ \)/);
      expect(report('js-shop', ['istanbul', '--reporter', 'teamcity', shop]).stdout).toContain(
        "##teamcity[buildStatisticValue key='CodeCoverageAbsMTotal' value='5']",
      );
      const bad = report('js-shop', ['istanbul', '--reporter', 'cobertra', shop]);
      expect(bad.status).toBe(2);
      expect(bad.stderr).toContain('unknown reporter "cobertra"');
    });
  });

  test('check: jest-like threshold messages and exit code 1', () => {
    // The headline is the mean of the functions' coverage: 77.02% over js-shop's 7 functions.
    const fail = report('js-shop', ['check', '--paths', '80', shop]);
    expect(fail.status).toBe(1);
    expect(fail.stderr).toBe(
      'pathprof: Coverage for paths (77.02%) does not meet "global" threshold (80%)\n',
    );
    // cart.js: (100 + 66.67 + 60) / 3; catalog.js: (100 + 100 + 37.5 + 75) / 4.
    const perFile = report('js-shop', ['check', '--paths', '78', '--per-file', shop]);
    expect(perFile.status).toBe(1);
    expect(perFile.stderr).toBe(
      'pathprof: Coverage for paths (75.56%) does not meet "src/cart.js" threshold (78%)\n',
    );
    expect(report('js-shop', ['check', '--paths', '77', shop]).status).toBe(0);
    const nothing = report('js-shop', ['check', shop]);
    expect(nothing.status).toBe(2);
    expect(nothing.stderr).toContain('check needs --paths N or a coverageThreshold');
  });

  test('check: coverageThreshold from package.json "pathprof" or .pathprofrc (paths and istanbul\'s metrics), grouped as jest groups files', () => {
    withProfileDir((project) => {
      cpSync(join(fixtures, 'js-shop', 'src'), join(project, 'src'), { recursive: true });
      const packageJson = (pathprof?: unknown) =>
        writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'shop', pathprof }));
      packageJson({
        coverageThreshold: {
          global: { paths: 78, pooledPaths: -10, branches: 92 },
          'src/cart.js': { completeFunctions: 50, statements: 94, lines: -1 },
          'lib/': { paths: 1 },
        },
      });
      // global measures the files no other group has: catalog.js, 78.13% but 23 - 12 = 11 paths unexecuted,
      // and istanbul's 11 of 12 branch arms; cart.js has 14 of 15 statements and 1 line not run.
      const grouped = reportIn(project, ['check', shop]);
      expect(grouped.status).toBe(1);
      expect(grouped.stderr).toBe(
        [
          'pathprof: Uncovered count for pooledPaths (11) exceeds global threshold (10)',
          'pathprof: Coverage for branches (91.67%) does not meet "global" threshold (92%)',
          'pathprof: Coverage for completeFunctions (33.33%) does not meet "src/cart.js" threshold (50%)',
          'pathprof: Coverage for statements (93.33%) does not meet "src/cart.js" threshold (94%)',
          'pathprof: Coverage data for lib/ was not found.',
          '',
        ].join('\n'),
      );
      // A glob measures each file it matches; implicit exceptions counted: cart.js's functions have
      // 1 of 2, 4 of 14 and 3 of 10 paths executed, (50 + 28.57 + 30) / 3 = 36.19%.
      packageJson();
      const rc = join(project, '.pathprofrc');
      writeFileSync(
        rc,
        JSON.stringify({ implicitExceptions: true, coverageThreshold: { 'src/c*.js': { paths: 37 } } }),
      );
      expect(reportIn(project, ['check', shop]).stderr).toBe(
        'pathprof: Coverage for paths (36.19%) does not meet "src/cart.js" threshold (37%)\n',
      );
      packageJson({ implicitExceptions: false });
      const twice = reportIn(project, ['check', shop]);
      expect(twice.status).toBe(2);
      expect(twice.stderr).toContain(
        `${join(project, 'package.json')} ("pathprof") and ${rc}: two configurations`,
      );
      packageJson();
      writeFileSync(rc, JSON.stringify({ coverageThreshold: { global: { path: 80 } } }));
      const typo = reportIn(project, ['text', shop]);
      expect(typo.status).toBe(2);
      expect(typo.stderr).toContain(`${rc}: coverageThreshold "global": unknown metric "path"`);
    });
  });

  test('check under GitHub Actions: annotations for the untaken paths of changed and listed files', () => {
    withProfileDir((project) => {
      const git = (...args: string[]) => {
        const run = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
          cwd: project,
        });
        if (run.status !== 0) throw new Error(`git ${args.join(' ')}: ${run.stderr}`);
      };
      cpSync(join(fixtures, 'js-shop', 'src', 'catalog.js'), join(project, 'src', 'catalog.js'));
      git('init', '-q');
      git('add', '.');
      git('commit', '-q', '-m', 'catalog');
      cpSync(join(fixtures, 'js-shop', 'src', 'cart.js'), join(project, 'src', 'cart.js'));
      git('add', '.');
      git('commit', '-q', '-m', 'cart');
      const env = { NO_COLOR: '1', GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: project };
      const changed = reportIn(project, ['check', '--paths', '0', '--changed-since', 'HEAD~1', shop], env);
      expect(changed.status).toBe(0);
      const lines = changed.stdout.trim().split('\n');
      // cart.js changed: total and discount have untaken paths; each at the line where its first untaken
      // path leaves the executed ones (an empty cart's loop; a fixed coupon of another kind than percent).
      expect(lines.map((l) => l.split('::')[1])).toEqual([
        'warning file=src/cart.js,line=6,title=pathprof%3A 2 untaken paths in total',
        'warning file=src/cart.js,line=16,title=pathprof%3A 2 untaken paths in discount',
      ]);
      expect(lines[1].split('::')[2]).toBe(
        "path 5 (entry → return): L14 coupon → true; L15 coupon.kind === 'percent' → false; " +
          "L16 coupon.kind === 'fixed' → false; L17 return 0;%0Apath 7 (entry → return): L14 coupon → true; " +
          "L15 coupon.kind === 'percent' → false; L16 coupon.kind === 'fixed' → true; " +
          'L16 sum >= coupon.minimum → false; L17 return 0;',
      );
      const listed = reportIn(project, ['check', '--paths', '0', '--annotate', 'src/catalog.js', shop], env);
      expect(listed.stdout).toMatch(
        /^::warning file=src\/catalog\.js,line=\d+,title=pathprof%3A 10 untaken paths in parseOrder::/m,
      );
      expect(listed.stdout).not.toContain('src/cart.js');
      const none = reportIn(project, ['check', '--paths', '0', shop], env);
      expect(none.stdout).toBe(
        '::notice::pathprof: not a pull request: no changed files to annotate (--changed-since REF, --annotate FILE)\n',
      );
    });
  });

  test('diff: paths newly taken and no longer taken between two runs', () => {
    withProfileDir((fewer) => {
      runJest('js-shop', fewer, ['-t', 'percent']);
      const run = report('js-shop', ['diff', shop, fewer]);
      expect(run.status).toBe(0);
      // Only the percent coupon test ran: discount kept its percent path and lost the others.
      expect(run.stdout).toContain(
        'src/cart.js:13 discount\n  - path 0 (×2) entry → return: L14 coupon → false; L14 return 0;',
      );
      expect(run.stdout).not.toMatch(/^ {2}\+ /m);
      expect(run.stdout).toMatch(/^0 paths newly taken, \d+ no longer taken$/m);
    });
  });

  test('bad input: each bad profile is named and skipped, the rest is reported, exit code 2', () => {
    withProfileDir((dir) => {
      cpSync(shop, dir, { recursive: true });
      writeFileSync(join(dir, 'pathprof-empty.json'), '');
      writeFileSync(join(dir, 'pathprof-truncated.json'), '{"format":"pathprof-profile/1","files":[');
      writeFileSync(join(dir, 'pathprof-foreign.json'), '{"format":"something-else"}');
      const run = report('js-shop', [dir]);
      expect(run.status).toBe(2);
      expect(run.stderr).toContain(`${join(dir, 'pathprof-empty.json')}: empty file; skipped`);
      expect(run.stderr).toContain(
        `${join(dir, 'pathprof-truncated.json')}: not valid JSON (truncated or corrupt)`,
      );
      expect(run.stderr).toContain(`${join(dir, 'pathprof-foreign.json')}: not a pathprof profile`);
      expect(run.stdout).toMatch(/All files: 2 files, 7 functions/);
      expect(run.stdout).toContain('pooled: 20 of 35 paths');
    });
  });

  test('a changed source or numbering is flagged and never decoded', () => {
    withProfileDir((dir) => {
      cpSync(shop, dir, { recursive: true });
      for (const name of readdirSync(dir).filter((n) => n.startsWith('pathprof-') && !isMetadataFile(n))) {
        const profile = JSON.parse(readFileSync(join(dir, name), 'utf8'));
        for (const file of profile.files) {
          // The metadata, edited, inline (a profile may hold it, as a browser's does).
          file.meta = JSON.parse(readFileSync(join(dir, file.metaFile), 'utf8'));
          delete file.metaFile;
          if (file.key === 'src/cart.js') file.hash = '00000000';
          const priceOf = file.meta.functions.find((f: { name: string }) => f.name === 'priceOf');
          if (priceOf) priceOf.path.checksum = '00000000';
        }
        writeFileSync(join(dir, name), JSON.stringify(profile));
      }
      const run = report('js-shop', [dir]);
      expect(run.status).toBe(2);
      expect(run.stderr).toContain(
        'src/cart.js: source changed since it was instrumented (rerun the tests); skipped',
      );
      expect(run.stderr).toContain('src/catalog.js: priceOf was numbered by another version of pathprof');
      expect(run.stdout).not.toMatch(/^src\/cart\.js|^ {2}priceOf /m);
      expect(run.stdout).toMatch(/^ {2}parseOrder /m);
      // show on the changed file gives the reason, not a misleading "no profiled file matches".
      const show = report('js-shop', ['show', 'cart.js:discount', dir]);
      expect(show.status).toBe(2);
      expect(show.stderr).toContain(
        'src/cart.js: source changed since it was instrumented (rerun the tests); skipped',
      );
      expect(show.stderr).not.toContain('no profiled file');
    });
  });

  test('html in chromium: a sortable, filterable index; line counts, syntax, functions left to test, paths highlighted to the column, n for the next untaken path', async () => {
    const site = profileDir();
    const browser = await launchChromium();
    try {
      const run = report('js-shop', ['html', shop, '-o', site]);
      expect(run.status).toBe(0);
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(pathToFileURL(join(site, 'index.html')).href);
      const rows = async () =>
        page.evaluate(() =>
          [...document.querySelectorAll('tbody tr')]
            .filter((r) => !(r as HTMLElement).hidden)
            .map((r) => [...(r as HTMLTableRowElement).cells].map((c) => c.textContent).join(' | ')),
        );
      // Paths beside istanbul's four figures, as the istanbul export derives them (tested equal to istanbul's).
      expect(await rows()).toEqual([
        'src/cart.js | 75.6% | 1/3 | 4 | 93.3% 14/15 | 90.0% 9/10 | 100.0% 2/2 | 90.9% 10/11',
        'src/catalog.js | 78.1% | 2/4 | 11 | 95.5% 21/22 | 91.7% 11/12 | 100.0% 3/3 | 95.0% 19/20',
      ]);
      await page.click('th:has-text("Untaken paths")');
      await page.click('th:has-text("Untaken paths")');
      expect((await rows()).map((r) => r.split(' | ')[0])).toEqual(['src/catalog.js', 'src/cart.js']);
      await page.fill('#filter', 'cart');
      expect((await rows()).map((r) => r.split(' | ')[0])).toEqual(['src/cart.js']);
      await page.screenshot();

      await page.click('text=src/cart.js');
      const highlights = (names: string[], line?: number) =>
        page.evaluate(
          ({ names, line }) =>
            names.map((name) => [
              name,
              [...(CSS.highlights.get(name) ?? [])]
                .filter(
                  (r) =>
                    line === undefined ||
                    (r as Range).startContainer.parentElement?.closest('.line')?.id === `L${line}`,
                )
                .map((r) => (r as Range).toString()),
            ]),
          { names, line },
        );
      // As istanbul's report marks them, to the column: the code no run reached (discount's last
      // `return 0;`), and the conditions with an outcome no run took (line 16's, never false).
      expect(await highlights(['pp-missed', 'pp-undecided'])).toEqual([
        ['pp-missed', ['return 0;']],
        ['pp-undecided', ["coupon.kind === 'fixed'", 'sum >= coupon.minimum']],
      ]);
      // Line counts and colours: discount's `return 0;` (line 17) never ran; line 16 ran, but two of its
      // decisions were never taken (the tooltip names them); keywords are highlighted.
      const line = (n: number) => page.locator(`#L${n}`);
      expect(await line(17).getAttribute('class')).toBe('line miss');
      expect(await line(17).locator('.c').textContent()).toBe('0×');
      expect(await line(16).getAttribute('class')).toBe('line partial');
      expect(await line(16).getAttribute('title')).toBe(
        "never taken: L16 coupon.kind === 'fixed' → false; L16 sum >= coupon.minimum → false",
      );
      expect(await line(10).getAttribute('class')).toBe('line hit');
      expect(await line(4).locator('.tk').first().textContent()).toBe('function');
      expect(await line(4).locator('.tk').first().isVisible()).toBe(true);

      // What is left: the functions with untaken paths, each a link to its section.
      expect(await page.locator('nav.todo li').allTextContents()).toEqual([
        'total line 4: 2 untaken paths',
        'discount line 13: 2 untaken paths',
      ]);
      await page.click('nav.todo a:has-text("discount")');
      expect(page.url()).toMatch(/#fn-2$/);
      const heading = page.locator('#fn-2 h2');
      expect(await heading.isVisible()).toBe(true);
      expect((await heading.boundingBox())!.y).toBeLessThan(900);

      // discount's path 8: the fixed coupon above its minimum; the code it runs and its five decisions
      // highlighted to the column.
      const path = page.locator('.path', { hasText: 'path 8 (×1)' });
      await path.click();
      expect(await path.getAttribute('aria-selected')).toBe('true');
      expect(page.url()).toMatch(/#src%2Fcart\.js-2-8$/);
      const highlighted = async () =>
        (await highlights(['pp-taken', 'pp-untaken'])).filter(([, ranges]) => ranges.length);
      expect(await highlighted()).toEqual([
        [
          'pp-taken',
          [
            'coupon',
            "coupon.kind === 'percent'",
            "coupon.kind === 'fixed'",
            'sum >= coupon.minimum',
            'return Math.min(coupon.value, sum);',
          ],
        ],
      ]);
      expect(await highlights(['pp-path'])).toEqual([
        [
          'pp-path',
          [
            '!coupon',
            "coupon.kind === 'percent'",
            "coupon.kind === 'fixed'",
            'sum >= coupon.minimum',
            'return Math.min(coupon.value, sum);',
          ],
        ],
      ]);
      for (const n of [14, 15, 16]) expect(await line(n).getAttribute('class')).toContain('decision');
      const edges = JSON.parse((await path.getAttribute('data-edges'))!) as number[];
      const section = path.locator('xpath=ancestor::section');
      expect(await section.locator('.edge.on').count()).toBe(edges.length);
      // The graph is dagre's layout, with arrowheads.
      expect(await section.locator('svg.graph path.edge[marker-end]').count()).toBeGreaterThan(edges.length);
      expect(await section.locator('svg.graph marker').count()).toBe(1);

      // n: the next path no run took after the selected one (discount's path 5), then the one after it.
      await page.keyboard.press('n');
      const selected = () => page.locator('.path[aria-selected="true"]').getAttribute('id');
      expect(await selected()).toBe('src/cart.js-2-5');
      expect(await highlighted()).toEqual([
        ['pp-untaken', ['coupon', "coupon.kind === 'percent'", "coupon.kind === 'fixed'", 'return 0;']],
      ]);
      // A path no run took is red on a light red ground, not on the blue of a taken one.
      expect(
        await page
          .locator('.path[aria-selected="true"]')
          .evaluate((p) => getComputedStyle(p).backgroundColor),
      ).toBe('rgb(253, 236, 234)');
      await page.keyboard.press('n');
      expect(await selected()).toBe('src/cart.js-2-7');
      await page.keyboard.press('p');
      expect(await selected()).toBe('src/cart.js-2-5');

      // Implicit-exception paths no run took are behind the toggle.
      const implicit = page.locator('.path.implicit').first();
      expect(await implicit.isVisible()).toBe(false);
      await page.check('#show-implicit');
      expect(await implicit.isVisible()).toBe(true);
      const shot = await page.screenshot();
      expect(shot.length).toBeGreaterThan(1000);

      // A link to a path opens the page with it selected.
      await page.goto(
        `${pathToFileURL(join(site, 'src_cart.js.html')).href}#${encodeURIComponent('src/cart.js-2-7')}`,
      );
      expect(await selected()).toBe('src/cart.js-2-7');

      // Two paths through one line run different code there: parseOrder's iteration over 'apple x 2' and
      // the one over 'bread' (no quantity: `quantity ?? 1` takes its default); the decision is `quantity`.
      await page.goto(pathToFileURL(join(site, 'src_catalog.js.html')).href);
      await page.click('[id="src/catalog.js-2-26"]');
      expect(await highlights(['pp-path', 'pp-taken'], 19)).toEqual([
        ['pp-path', ['items.push({ sku, quantity: Number(quantity ?? ', ') })']],
        ['pp-taken', ['quantity']],
      ]);
      await page.click('[id="src/catalog.js-2-8"]');
      expect(await highlights(['pp-path', 'pp-taken'], 19)).toEqual([
        ['pp-path', ['items.push({ sku, quantity: Number(quantity ?? 1) })']],
        ['pp-taken', ['quantity']],
      ]);

      // A graph too large to draw whole is drawn collapsed: a 300-case switch (603 blocks; at 3,000 cases
      // once a 168,000-pixel SVG) shows its first cases, then one box for the rest of them, labelled with
      // their lines; the run took case 1, drawn hot.
      const source = switchOf('huge', 300);
      const huge = profileInProcess(source, 'huge.js');
      const options = { implicitExceptions: false };
      writeHtmlReport([huge], pathReport([huge], [], options), site, 50, options);
      await page.goto(pathToFileURL(join(site, 'virtual_huge.js.html')).href);
      const summary = page.locator('summary:has-text("collapsed to")');
      const [, blocks, nodes] = (await summary.textContent())!.match(
        /^Graph of (\d+) blocks, collapsed to (\d+) nodes/,
      )!;
      expect(Number(blocks)).toBe(huge.functions.find((f) => f.meta.name === 'huge')!.meta.blockCount);
      expect(Number(nodes)).toBeLessThanOrEqual(COLLAPSED);
      await summary.click();
      const graph = page.locator('svg.graph');
      const size = Number(await graph.getAttribute('width')) * Number(await graph.getAttribute('height'));
      expect(size).toBeLessThan(1500 * 2000);
      const boxes = page.locator('svg.graph .group');
      expect(await boxes.first().isVisible()).toBe(true);
      const spans = (await boxes.locator('text').allTextContents()).map((t) => t.split('–').map(Number));
      const lastCase = source.split('\n').findIndex((line) => line.includes('case 299:')) + 1;
      expect(Math.max(...spans.map(([, last]) => last))).toBeGreaterThanOrEqual(lastCase);
      expect(await graph.locator('path.edge.hot').count()).toBeGreaterThan(0);
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
      rmSync(site, { recursive: true, force: true });
    }
  });
});
