import { writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { writeHtmlReport } from './html/html-report';
import { istanbulCoverage } from './istanbul/istanbul-coverage';
import { formatLcov } from './lcov';
import { diffReports, formatDiff } from './path-diff';
import { pathReport } from './path-report';
import { Problems } from './problems';
import { loadProfiledFiles } from './profiled-file';
import { ProgressBar } from './progress-bar';
import { formatFunctionPaths, selectFunctions } from './show-paths';
import { TerminalStyle } from './terminal-style';
import { formatTextReport } from './text-report';
import { thresholdFailures } from './thresholds';

const usage = `usage: pathprof-report [COMMAND] [OPTIONS] [DIR...]   (DIR: profile directories, default .pathprof)
  text                        per file and function: potential, executed paths, coverage, hottest paths
  show FILE[:FUNCTION]        each path decoded into the decisions it takes; the paths not taken
  json                        the report as pathprof-report/1 JSON
  lcov                        an lcov tracefile derived from the path profile
  istanbul                    istanbul's coverage-final.json derived from the path profile
  check --paths N [--per-file]  exit 1 when path coverage is below N %
  diff DIR_A DIR_B            paths newly taken and no longer taken from run A to run B
  html                        a static site: files, sources, paths to select and highlight, graphs
options: --root DIR (where sources are; default: ., then each DIR's parent), -o/--output FILE (html: a folder, default
  pathprof-html), --limit N (show, html: unexecuted paths per function), --top N (text)
exit codes: 0 done, 1 threshold not met or nothing matched, 2 bad usage or something skipped`;

const commands = ['text', 'show', 'json', 'lcov', 'istanbul', 'check', 'diff', 'html'] as const;
type Command = (typeof commands)[number];

/** `pathprof-report`: see `usage` and the package README. Sets `process.exitCode`. */
export function main(argv: string[]): void {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        root: { type: 'string' },
        output: { type: 'string', short: 'o' },
        paths: { type: 'string' },
        'per-file': { type: 'boolean', default: false },
        limit: { type: 'string', default: '50' },
        top: { type: 'string', default: '3' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    return fail(`pathprof-report: ${(error as Error).message}\n${usage}`);
  }
  const { values, positionals } = parsed;
  if (values.help) return void console.log(usage);
  const command: Command = commands.includes(positionals[0] as Command)
    ? (positionals.shift() as Command)
    : 'text';
  const problems = new Problems();
  const style = new TerminalStyle(process.stdout);
  const load = (given: string[]) => {
    const dirs = given.length ? given : ['.pathprof'];
    const roots = values.root ? [values.root] : ['.', ...dirs.map((dir) => dirname(resolve(dir)))];
    const progress = new ProgressBar('pathprof-report: decoding');
    const files = loadProfiledFiles(dirs, roots, problems, progress.update);
    progress.finish();
    return files;
  };
  const emit = (text: string) => {
    if (values.output) writeFileSync(values.output, text);
    else process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  };
  let status = 0;
  switch (command) {
    case 'text':
    case 'json': {
      const report = pathReport(load(positionals), problems.messages);
      emit(
        command === 'json'
          ? `${JSON.stringify(report, null, 2)}\n`
          : formatTextReport(report, style, Number(values.top)),
      );
      break;
    }
    case 'lcov':
    case 'istanbul': {
      const coverage = load(positionals).map(istanbulCoverage);
      emit(
        command === 'lcov'
          ? formatLcov(coverage)
          : `${JSON.stringify(Object.fromEntries(coverage.map((c) => [c.path, c])))}\n`,
      );
      break;
    }
    case 'show': {
      const target = positionals.shift();
      if (!target) return fail(`pathprof-report: show needs FILE[:FUNCTION]\n${usage}`);
      const selected = selectFunctions(load(positionals), target);
      if (selected.length === 0) {
        console.error(`pathprof-report: no profiled function matches ${target}`);
        status = 1;
      }
      emit(
        selected
          .map(({ file, fn }) => formatFunctionPaths(file, fn, style, Number(values.limit)))
          .join('\n\n'),
      );
      break;
    }
    case 'check': {
      const minimum = Number(values.paths);
      if (values.paths === undefined || !Number.isFinite(minimum))
        return fail(`pathprof-report: check needs --paths N\n${usage}`);
      const failures = thresholdFailures(
        pathReport(load(positionals), problems.messages),
        minimum,
        values['per-file'],
      );
      for (const message of failures) console.error(message);
      if (failures.length) status = 1;
      break;
    }
    case 'html': {
      const files = load(positionals);
      const index = writeHtmlReport(
        files,
        pathReport(files, problems.messages),
        values.output ?? 'pathprof-html',
        Number(values.limit),
      );
      console.log(`pathprof-report: wrote ${index}`);
      break;
    }
    case 'diff': {
      if (positionals.length !== 2)
        return fail(`pathprof-report: diff needs two profile directories\n${usage}`);
      const [before, after] = positionals.map((dir) => pathReport(load([dir]), []));
      emit(formatDiff(diffReports(before, after)));
      break;
    }
  }
  for (const message of problems.notes) console.error(`pathprof-report: ${message}`);
  for (const message of problems.messages) console.error(`pathprof-report: ${message}`);
  process.exitCode = problems.any ? 2 : status;
}

function fail(message: string): void {
  console.error(message);
  process.exitCode = 2;
}
