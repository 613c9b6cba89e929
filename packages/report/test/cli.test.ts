import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isMetadataFile } from '@pathprof/runtime';
import type { PathReport } from '../src';
import { built, fixtures, profileDir, report, reportBin, reportIn, withProfileDir } from './support/runs';

// Each test starts processes (mocha, the CLI): seconds alone, longer beside the whole suite.
jest.setTimeout(60_000);

/** mocha over fixtures/js-shop with path profiling into `out`. */
function mocha(out: string, env: NodeJS.ProcessEnv = {}, args: string[] = []) {
  return spawnSync(process.execPath, [require.resolve('mocha/bin/mocha.js'), ...args], {
    cwd: join(fixtures, 'js-shop'),
    env: { ...process.env, PATHPROF_DIR: out, ...env },
    encoding: 'utf8',
  });
}

/** The CLI's answers to mistakes: each names the problem and fails, nothing passes by accident. */
(built ? describe : describe.skip)('pathprof-report usage', () => {
  test('check with no profiles fails instead of passing at 100%', () => {
    withProfileDir((dir) => {
      const run = report('js-shop', ['check', '--paths', '0', dir]);
      expect(run.status).toBe(1);
      expect(run.stderr).toContain(
        `pathprof-report: no profiles in ${dir}: run the tests with pathprof first`,
      );
    });
  });

  test('a mistyped command or option is an error that suggests the closest one', () => {
    const run = report('js-shop', ['chek', '--paths', '80']);
    expect(run.status).toBe(2);
    // The error and where the usage is, not the usage itself (the error would scroll off the screen).
    expect(run.stderr).toBe(
      'pathprof-report: unknown command "chek" (did you mean "check"?)\npathprof-report --help lists the commands and options\n',
    );
    expect(report('js-shop', ['shwo', 'src/cart.js']).stderr).toContain('(did you mean "show"?)');
    const option = report('js-shop', ['show', 'cart.js:total', '--limt', '3']);
    expect(option.status).toBe(2);
    expect(option.stderr.split('\n')[0]).toBe(
      'pathprof-report: unknown option --limt (did you mean --limit?)',
    );
    expect(report('js-shop', ['nonsense']).stderr).toMatch(
      /^pathprof-report: "nonsense" is neither a command \(text, show, .*\) nor a profile directory/,
    );
  });

  test('run in a subdirectory, the report says where the profile directory is', () => {
    withProfileDir((project) => {
      mkdirSync(join(project, '.pathprof'));
      mkdirSync(join(project, 'src'));
      const run = reportIn(join(project, 'src'), [], { NO_COLOR: '1', PATHPROF_DIR: '' });
      expect(run.status).toBe(2);
      expect(run.stderr).toBe(
        `pathprof-report: .pathprof: no such profile directory (${join(project, '.pathprof')} is: run the report in ${project})\n`,
      );
      expect(run.stdout).toBe('');
    });
  });

  test.each([
    [['--limit', 'ten'], '--limit must be a whole number, not "ten"'],
    [['--top=-1'], '--top must be a whole number, not "-1"'],
    [['check', '--paths', '120'], '--paths must be a percentage from 0 to 100, not "120"'],
    [['check', '--paths', 'x'], '--paths must be a percentage from 0 to 100, not "x"'],
  ])('numeric options are validated: %j', (args, message) => {
    const run = report('js-shop', args);
    expect(run.status).toBe(2);
    expect(run.stderr.split('\n')[0]).toBe(`pathprof-report: ${message}`);
  });

  test('PATHPROF_DIR naming a file is an error naming PATHPROF_DIR, for the report and under mocha', () => {
    withProfileDir((dir) => {
      const file = join(dir, 'not-a-directory');
      writeFileSync(file, '');
      const run = report('js-shop', ['text'], { NO_COLOR: '1', PATHPROF_DIR: file });
      expect(run.status).toBe(2);
      expect(run.stderr).toBe(`pathprof-report: PATHPROF_DIR=${file} is not a directory\n`);
      const tests = mocha(file);
      expect(tests.status).not.toBe(0);
      expect(tests.stderr).toContain(`pathprof: PATHPROF_DIR=${file} is not a directory`);
    });
  });

  // mocha sets the exit code from its result in an 'exit' listener it adds when the run ends, after the
  // runtime's; with --exit it calls process.exit(0) itself. Either way the failed write must fail the command.
  test.each([[[]], [['--exit']]])(
    'a profile that cannot be written at exit fails mocha %j, naming PATHPROF_DIR',
    (args) => {
      withProfileDir((dir) => {
        const target = join(dir, 'profiles');
        // The directory is free while the files load; the suite's last hook puts a file in its place.
        const late = join(dir, 'late.js');
        writeFileSync(
          late,
          `after(() => require('node:fs').writeFileSync(${JSON.stringify(target)}, ''));\n`,
        );
        const tests = mocha(target, {}, ['--file', late, ...args]);
        expect(tests.stdout).toContain('2 passing');
        expect(tests.stderr).toContain(
          `pathprof: could not write the profile: PATHPROF_DIR=${target} is not a directory`,
        );
        expect(tests.status).toBe(1);
      });
    },
  );

  test('-o creates missing directories and replaces the file whole; leftovers of other runs are noted and not counted', () => {
    withProfileDir((out) => {
      expect(mocha(out).status).toBe(0);
      // A profile left by another run: the report ignores it (it would double every count).
      const [name] = readdirSync(out).filter((n) => n.startsWith('pathprof-') && !isMetadataFile(n));
      const leftover = JSON.parse(readFileSync(join(out, name), 'utf8'));
      writeFileSync(join(out, 'pathprof-leftover.json'), JSON.stringify({ ...leftover, run: 'older' }));
      const target = join(out, 'reports', 'new', 'report.json');
      const run = report('js-shop', ['json', '-o', target, out]);
      expect(run.stderr).toBe(`pathprof-report: ${out}: ignored 1 profile(s) left by other runs\n`);
      expect(run.status).toBe(0);
      const json = JSON.parse(readFileSync(target, 'utf8')) as PathReport;
      const shippingZone = json.files
        .find((f) => f.file === 'src/catalog.js')!
        .functions.find((f) => f.name === 'shippingZone')!;
      expect(shippingZone.activations).toBe(2);
      expect(existsSync(target)).toBe(true);
      // Written beside the target and renamed over it (a new file, not the old one rewritten in place), for
      // json and for the text reports: a reader never sees half of one; no temporary file is left.
      for (const args of [['json'], ['text'], ['show', 'catalog.js:priceOf']]) {
        const before = statSync(target).ino;
        expect(report('js-shop', [...args, '-o', target, out]).status).toBe(0);
        expect(statSync(target).ino).not.toBe(before);
      }
      expect(readdirSync(dirname(target))).toEqual(['report.json']);
    });
  });

  test.each([['json'], ['lcov'], ['show', 'src/catalog.js']])(
    'a reader that stops early (| head) ends %j quietly, without an EPIPE stack trace',
    async (...args) => {
      const out = profileDir();
      try {
        expect(mocha(out).status).toBe(0);
        const child = spawn(process.execPath, [reportBin, ...args, out], {
          cwd: join(fixtures, 'js-shop'),
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        // The reader is gone before the first write: every write meets a closed pipe.
        child.stdout.destroy();
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        const status = await new Promise<number | null>((done) => child.on('close', done));
        expect(stderr).toBe('');
        expect(status).toBe(0);
      } finally {
        rmSync(out, { recursive: true, force: true });
      }
    },
  );
});
