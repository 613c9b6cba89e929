import { closeSync, existsSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import picomatch from 'picomatch';
import { changedFiles } from './changed-files';
import type { CoverageOptions } from './coverage-figures';
import { githubAnnotations } from './github-annotations';
import { writeHtmlReport } from './html/html-report';
import { istanbulCoverages } from './istanbul/istanbul-coverage';
import { istanbulReporters, writeIstanbulReports } from './istanbul/istanbul-reports';
import { closestWord } from '@pathprof/runtime';
import { counted } from './counted';
import { diffReports, formatDiff } from './path-diff';
import { pathReport } from './path-report';
import { Problems } from './problems';
import { loadProfiledFiles, type ProfiledFile } from './profiled-file';
import { formatProjectCallPaths } from './project-call-paths';
import { ProgressBar } from './progress-bar';
import { ConfigError, readReportConfig } from './report-config';
import { closestKeys, isFile, selectFunctions, splitTarget, suggestion } from './function-selection';
import { formatFunctionPaths } from './show-paths';
import type { DecodedFrame } from 'babel-plugin-pathprof';
import { callPathFunctions, formatCallPaths, interproceduralReport } from './interprocedural-report';
import { formatInterestingSet } from '@pathprof/numbering';
import { interestingSet, type PathSelection } from './interesting-set-writer';
import { formatResidual, interestingSetProblems, residualReport } from './preferential-report';
import { contextTree, selectContexts } from './context-tree';
import { contextReport, foldedStacks, formatContextTree } from './contexts-report';
import { TerminalStyle } from './terminal-style';
import { formatTextReport } from './text-report';
import { writeJson } from './json-stream';
import { checkThresholds, thresholdFailures, type CoverageThreshold } from './thresholds';

const usage = `usage: pathprof-report [COMMAND] [OPTIONS] [DIR...]   (DIR: profile directories, default $PATHPROF_DIR or .pathprof)
  text                        per file and function: potential, executed paths, coverage, hottest paths
  show FILE[:FUNCTION|:LINE]  each path decoded into the decisions it takes; the paths not taken (at a line:
                              the innermost function there, its paths through the line; FUNCTION alone: every
                              file's); --tests: the tests that took each path, the closest executed paths to
                              each untaken one
  calls [FILE[:FUNCTION]]     interprocedural mode: the hottest paths across calls, decoded into source; without
                              FILE, a summary: the files and hottest paths through more than one function, a
                              line each (10 of each unless --limit); --across: only those
  prefer --covered|--hot P    the interesting set for preferential mode, from this run: per function every executed
                              path, or its hottest paths making up P% of its executions (-o FILE, default stdout)
  residual [--check]          preferential mode: the paths this run took outside its interesting set, decoded;
                              --check exits 1 when there is one
  contexts [FILE[:FUNCTION]]  calling contexts (plugin option contexts): the calling-context tree, hottest first,
                              with call counts; with FUNCTION, its paths in each of its contexts; --tests: the
                              tests that entered each context
  folded                      calling contexts as folded stacks (a;b;c count) for flame-graph tools
  json                        the report as pathprof-report/2 JSON (with calling contexts: "contexts")
  lcov                        an lcov tracefile derived from the path profile (istanbul's lcovonly)
  istanbul [--reporter R...]  istanbul's coverage-final.json derived from the path profile; with --reporter,
                              istanbul-reports' R (cobertura, clover, json-summary, lcov, html, text-summary,
                              teamcity, text, …) into -o DIR (default coverage), console ones to stdout
  check [--paths N [--per-file]]  exit 1 when a threshold (--paths, or coverageThreshold in the configuration)
                              is not met; under GitHub Actions, annotations for untaken paths in changed files
  diff DIR_A DIR_B            paths newly taken and no longer taken from run A to run B
  html                        a static site: files, sources, paths to select and highlight, graphs, and the
                              calling contexts as a flame graph
options: --root DIR (where sources are; default: ., then each DIR's parent), -o/--output FILE (html: a folder, default
  pathprof-html), --limit N (show, json, html: unexecuted paths per function; calls: paths), --top N (text), --implicit-exceptions
  (count paths ending by an implicit exception in the figures), --annotate FILE|GLOB (check: also annotate these
  files), --changed-since REF (check: the changed files, default origin/$GITHUB_BASE_REF)
configuration: package.json "pathprof" or .pathprofrc: { "implicitExceptions": false, "coverageThreshold": {
  "global": { "paths": 80, "pooledPaths": 10, "completeFunctions": -5, "branches": 90 }, "src/core/": {…},
  "src/**/*.js": {…} } }  (metrics: paths, pooledPaths, completeFunctions, statements, branches, functions, lines)
exit codes: 0 done, 1 threshold not met, no profiles to check or nothing matched, 2 bad usage or something skipped`;

// After a usage error, rather than the whole usage: the error stays on the screen, not scrolled above 30 lines.
const seeHelp = 'pathprof-report --help lists the commands and options';

const commands = [
  'text',
  'show',
  'calls',
  'prefer',
  'residual',
  'contexts',
  'folded',
  'json',
  'lcov',
  'istanbul',
  'check',
  'diff',
  'html',
] as const;
type Command = (typeof commands)[number];

const options = {
  root: { type: 'string' },
  output: { type: 'string', short: 'o' },
  paths: { type: 'string' },
  'per-file': { type: 'boolean', default: false },
  limit: { type: 'string' },
  top: { type: 'string', default: '3' },
  'implicit-exceptions': { type: 'boolean', default: false },
  tests: { type: 'boolean', default: false },
  across: { type: 'boolean', default: false },
  reporter: { type: 'string', multiple: true },
  annotate: { type: 'string', multiple: true, default: [] },
  'changed-since': { type: 'string' },
  covered: { type: 'boolean', default: false },
  hot: { type: 'string' },
  check: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} satisfies ParseArgsConfig['options'];

/** parseArgs' error, with the closest option to an unknown one (`--limt` → `--limit`). */
function optionError(error: NodeJS.ErrnoException): string {
  const unknown = /^Unknown option '(-{1,2}[^']+)'/.exec(error.message);
  if (error.code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION' || !unknown) return error.message;
  const meant = closestWord(
    unknown[1],
    Object.keys(options).map((name) => `--${name}`),
  );
  return `unknown option ${unknown[1]}${meant ? ` (did you mean ${meant}?)` : ''}`;
}

/** `pathprof-report`: see `usage` and the package README. Sets `process.exitCode`. */
export function main(argv: string[]): void {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options });
  } catch (error) {
    return fail(`pathprof-report: ${optionError(error as NodeJS.ErrnoException)}\n${seeHelp}`);
  }
  const { values, positionals } = parsed;
  if (values.help) return void console.log(usage);
  const first = positionals[0];
  if (first !== undefined && !commands.includes(first as Command) && !existsSync(first)) {
    const meant = closestWord(first, commands);
    return fail(
      meant
        ? `pathprof-report: unknown command "${first}" (did you mean "${meant}"?)\n${seeHelp}`
        : `pathprof-report: "${first}" is neither a command (${commands.join(', ')}) nor a profile directory\n${seeHelp}`,
    );
  }
  const command: Command = commands.includes(first as Command) ? (positionals.shift() as Command) : 'text';
  let limit: number, top: number, minimum: number | undefined, hot: number | undefined;
  try {
    limit = wholeNumber('--limit', values.limit ?? '50');
    top = wholeNumber('--top', values.top);
    minimum = values.paths === undefined ? undefined : percentage('--paths', values.paths);
    hot = values.hot === undefined ? undefined : percentage('--hot', values.hot);
  } catch (error) {
    return fail(`pathprof-report: ${(error as Error).message}\n${seeHelp}`);
  }
  const override = process.env.PATHPROF_DIR;
  if (override && existsSync(override) && !statSync(override).isDirectory()) {
    return fail(`pathprof-report: PATHPROF_DIR=${override} is not a directory`);
  }
  let config;
  try {
    config = readReportConfig(process.cwd());
  } catch (error) {
    if (error instanceof ConfigError) return fail(`pathprof-report: ${error.message}`);
    throw error;
  }
  const coverage: CoverageOptions = {
    implicitExceptions: values['implicit-exceptions'] || config.implicitExceptions,
  };
  const problems = new Problems();
  const style = new TerminalStyle(process.stdout);
  let loaded = 0;
  const rootsFor = (dirs: string[]) =>
    values.root ? [values.root] : ['.', ...dirs.map((dir) => dirname(resolve(dir)))];
  const dirsOf = (given: string[]) => (given.length ? given : [override || '.pathprof']);
  const load = (given: string[]) => {
    const dirs = dirsOf(given);
    const roots = rootsFor(dirs);
    const progress = new ProgressBar('pathprof-report: decoding');
    const files = loadProfiledFiles(dirs, roots, problems, progress.update);
    progress.finish();
    if (files.length === 0 && !problems.any)
      problems.note(`no profiles in ${dirs.join(', ')}: run the tests with pathprof first`);
    loaded += files.length;
    return files;
  };
  const emit = (text: string) => {
    if (values.output) writeAtomically(values.output, (append) => append(text));
    else process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  };
  let status = 0;
  switch (command) {
    case 'text':
    case 'json': {
      const files = load(positionals);
      // The JSON lists each function's unexecuted paths (a bot acts on them); the text only counts them.
      const unexecutedLimit = command === 'json' ? limit : 0;
      const report = pathReport(files, problems.messages, { ...coverage, unexecutedLimit });
      if (command === 'text') {
        // Nothing read, for a reason the problems give (no profile directory here): a table of nothing hides it.
        if (files.length > 0 || !problems.any) emit(formatTextReport(report, style, top));
        break;
      }
      const withContexts = files.some((f) => f.contexts)
        ? { ...report, contexts: contextReport(contextTree(files, problems), files) }
        : report;
      // Streamed, down to each executed path (files, functions, paths): see `writeJson`.
      if (values.output) {
        writeAtomically(values.output, (append) => {
          writeJson(withContexts, append, 6);
          append('\n');
        });
      } else {
        writeJson(withContexts, (text) => process.stdout.write(text), 6);
        process.stdout.write('\n');
      }
      break;
    }
    case 'contexts':
    case 'folded': {
      // A profile directory is a directory; anything else first is FILE[:FUNCTION].
      const target =
        command === 'contexts' && positionals.length && !isDirectory(positionals[0])
          ? splitTarget(positionals.shift()!)
          : null;
      const files = load(positionals);
      if (!files.some((f) => f.contexts)) {
        if (files.length)
          console.error(
            "pathprof-report: no calling contexts were counted (plugin option contexts: true, or mode: 'contexts')",
          );
        status = 1;
        break;
      }
      const tree = contextTree(files, problems);
      if (command === 'folded') {
        emit(foldedStacks(tree, files));
        break;
      }
      const matches = (frame: DecodedFrame) =>
        target !== null &&
        frame.kind === 'function' &&
        (frame.file === target.file || frame.file.endsWith(`/${target.file}`)) &&
        (target.name === null || frame.name === target.name);
      const selected = target ? selectContexts(tree, matches) : tree;
      if (!selected) {
        console.error(
          `pathprof-report: no counted context runs through ${target!.file}${target!.name ? `:${target!.name}` : ''}`,
        );
        status = 1;
        break;
      }
      emit(
        formatContextTree(
          selected,
          files,
          (frame) => target?.name != null && matches(frame),
          style,
          limit,
          values.tests,
        ),
      );
      break;
    }
    case 'lcov':
    case 'istanbul': {
      const named = values.reporter ?? [];
      const unknown = named.find((name) => !(name in istanbulReporters));
      if (unknown)
        return fail(
          `pathprof-report: unknown reporter "${unknown}" (one of: ${Object.keys(istanbulReporters).join(', ')})`,
        );
      const coverage = istanbulCoverages(load(positionals), problems);
      const reporters = command === 'lcov' ? ['lcovonly'] : named.length ? named : ['json'];
      const output = values.output;
      writeIstanbulReports(
        coverage,
        reporters,
        command === 'istanbul' && named.length
          ? { dir: output ?? 'coverage' }
          : output
            ? { file: output }
            : { stdout: true },
      );
      break;
    }
    case 'show': {
      const target = positionals.shift();
      if (!target) return fail(`pathprof-report: show needs FILE[:FUNCTION|:LINE] or FUNCTION\n${seeHelp}`);
      const files = load(positionals);
      const selection = selectFunctions(files, target);
      if (selection.miss) {
        // A file left out whole (its source changed, say) is no typo: the problem printed below says why.
        const { file: wanted } = splitTarget(target);
        const skipped =
          !files.some((f) => isFile(f, wanted)) &&
          [...problems.skippedFiles].some(
            (key) => key === wanted || key.endsWith(`/${wanted}`) || resolve(wanted).endsWith(`/${key}`),
          );
        if (!skipped) console.error(`pathprof-report: ${selection.miss}`);
        status = 1;
      }
      emit(
        selection.functions
          .map(({ file, fn, line }) =>
            formatFunctionPaths(file, fn, style, limit, coverage, { line, tests: values.tests }),
          )
          .join('\n\n'),
      );
      break;
    }
    case 'calls': {
      const modeHint = "(plugin option mode: 'interprocedural')";
      // A profile directory is a directory; anything else first is FILE[:FUNCTION]. Without FILE: the
      // project's hottest paths across calls.
      const target = positionals.length && !isDirectory(positionals[0]) ? positionals.shift()! : null;
      const files = load(positionals);
      const counted = files.filter((f) => f.interprocedural);
      if (target === null) {
        if (counted.length > 0) {
          const reports = counted.map((file) => ({ key: file.key, report: interproceduralReport(file)! }));
          // A first view: a few of each list unless --limit says how many.
          emit(formatProjectCallPaths(reports, style, values.limit === undefined ? 10 : limit));
        } else {
          if (files.length)
            console.error(`pathprof-report: no file was counted in interprocedural mode ${modeHint}`);
          status = 1;
        }
        break;
      }
      const { file: wanted, name } = splitTarget(target);
      const matched = counted.filter((f) => isFile(f, wanted));
      if (matched.length === 0) {
        const known = files.some((f) => isFile(f, wanted));
        console.error(
          `pathprof-report: ${known ? `${target} was not counted in interprocedural mode ${modeHint}` : `no file counted in interprocedural mode matches ${wanted}${suggestion(closestKeys(wanted, counted))}`}`,
        );
        status = 1;
      }
      const shown: string[] = [];
      for (const file of matched) {
        const selected = name === null ? null : callPathFunctions(file, name);
        if (selected?.miss) {
          console.error(`pathprof-report: ${selected.miss}`);
          status = 1;
        } else {
          const only = selected && { label: name!, names: selected.names };
          shown.push(formatCallPaths(file, interproceduralReport(file)!, only, style, limit, values.across));
        }
      }
      if (shown.length) emit(shown.join('\n\n'));
      break;
    }
    case 'prefer': {
      if (values.covered === (hot !== undefined))
        return fail(`pathprof-report: prefer needs one of --covered and --hot PERCENT\n${seeHelp}`);
      const selection: PathSelection =
        hot === undefined ? { kind: 'covered' } : { kind: 'hot', percent: hot };
      const files = load(positionals);
      for (const f of files.filter((file) => file.interprocedural))
        problems.note(`${f.key}: counted in interprocedural mode, which has no per-function paths; left out`);
      const made = interestingSet(files, selection);
      const text = formatInterestingSet(made.set);
      if (values.output) writeAtomically(values.output, (append) => append(text));
      else process.stdout.write(text);
      console.error(
        `pathprof-report: ${values.output ? `wrote ${values.output}: ` : ''}${counted(made.paths, 'interesting path')} ` +
          `of ${counted(made.functions, 'function')} in ${counted(made.set.files.length, 'file')} (${made.set.selection})`,
      );
      if (loaded === 0) status = 1;
      break;
    }
    case 'residual': {
      const files = load(positionals);
      const sets = interestingSetProblems(files, rootsFor(dirsOf(positionals)));
      for (const message of sets.problems) problems.add(message);
      for (const message of sets.notes) problems.note(message);
      const report = residualReport(files);
      emit(formatResidual(report, style, limit));
      if (values.check && (report.residualPaths > 0 || report.sets.length === 0)) status = 1;
      break;
    }
    case 'check': {
      const threshold: CoverageThreshold = { ...config.coverageThreshold };
      if (minimum !== undefined && !values['per-file'])
        threshold.global = { ...threshold.global, paths: minimum };
      if (Object.keys(threshold).length === 0 && minimum === undefined)
        return fail(
          `pathprof-report: check needs --paths N or a coverageThreshold (package.json "pathprof" or .pathprofrc)\n${seeHelp}`,
        );
      const files = load(positionals);
      const report = pathReport(files, problems.messages, coverage);
      const failures = thresholdFailures(report, threshold, coverage, files);
      // A file counted in interprocedural mode fails its own: it has no per-function paths.
      if (minimum !== undefined && values['per-file'])
        for (const file of [...report.files, ...(report.interproceduralFiles ?? [])])
          failures.push(...checkThresholds(file.file, { paths: minimum }, [file], coverage));
      if (process.env.GITHUB_ACTIONS === 'true') annotate(files, values, coverage);
      for (const message of failures) console.error(message);
      // Nothing to check is a failure: a misconfigured run must not pass a threshold.
      if (failures.length || files.length === 0) status = 1;
      break;
    }
    case 'html': {
      const files = load(positionals);
      const index = writeHtmlReport(
        files,
        pathReport(files, problems.messages, coverage),
        values.output ?? 'pathprof-html',
        limit,
        coverage,
        files.some((f) => f.contexts) ? contextTree(files, problems) : null,
      );
      console.log(`pathprof-report: wrote ${index}`);
      break;
    }
    case 'diff': {
      if (positionals.length !== 2)
        return fail(`pathprof-report: diff needs two profile directories\n${seeHelp}`);
      const [before, after] = positionals.map((dir) => {
        const files = load([dir]);
        // Their paths run across calls: no per-function paths to compare; said, so '0 paths' is not read as none.
        const acrossCalls = files.filter((f) => f.interprocedural).length;
        if (acrossCalls > 0)
          problems.note(
            `${dir}: ${counted(acrossCalls, 'file')} counted in interprocedural mode left out (no per-function paths to compare)`,
          );
        return pathReport(files, [], coverage);
      });
      emit(formatDiff(diffReports(before, after)));
      break;
    }
  }
  for (const message of problems.notes) console.error(`pathprof-report: ${message}`);
  for (const message of problems.printed()) console.error(`pathprof-report: ${message}`);
  process.exitCode = problems.any ? 2 : status;
}

/**
 * Writes `file` under a temporary name, through `write` (handed a function that appends text: the JSON is
 * streamed), then renames it into place: a reader never sees half of it, nor a failed write's remains.
 */
function writeAtomically(file: string, write: (append: (text: string) => void) => void): void {
  const target = resolve(file);
  mkdirSync(dirname(target), { recursive: true });
  const temporary = `${target}.${process.pid}.tmp`;
  try {
    const fd = openSync(temporary, 'w');
    try {
      write((text) => writeSync(fd, text));
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, target);
  } finally {
    rmSync(temporary, { force: true });
  }
}

function isDirectory(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}

/** A whole number option's value; throws saying what is wrong with it. */
function wholeNumber(option: string, text: string): number {
  if (!/^\d+$/.test(text)) throw new Error(`${option} must be a whole number, not "${text}"`);
  return Number(text);
}

/** A percentage option's value (0 to 100); throws saying what is wrong with it. */
function percentage(option: string, text: string): number {
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || n < 0 || n > 100)
    throw new Error(`${option} must be a percentage from 0 to 100, not "${text}"`);
  return n;
}

/**
 * `check` under GitHub Actions: workflow-command annotations for the untaken paths of the files the branch
 * changed (since `--changed-since REF`, by default the pull request's base) and of the files `--annotate`
 * names (paths or globs, relative to the current directory).
 */
function annotate(
  files: readonly ProfiledFile[],
  values: { annotate?: string[]; 'changed-since'?: string },
  coverage: CoverageOptions,
): void {
  const listed = (values.annotate ?? []).map((pattern) => picomatch(resolve(pattern)));
  const base =
    values['changed-since'] ??
    (process.env.GITHUB_BASE_REF ? `origin/${process.env.GITHUB_BASE_REF}` : undefined);
  let changed = new Set<string>();
  if (base) {
    const result = changedFiles(base, process.cwd());
    if ('error' in result) console.log(`::notice::pathprof: changed files unknown (${result.error})`);
    else changed = result.files;
  } else if (listed.length === 0) {
    console.log(
      '::notice::pathprof: not a pull request: no changed files to annotate (--changed-since REF, --annotate FILE)',
    );
  }
  const selected = files.filter((f) => changed.has(f.path) || listed.some((match) => match(f.path)));
  for (const line of githubAnnotations(selected, coverage, process.env.GITHUB_WORKSPACE ?? process.cwd()))
    console.log(line);
}

function fail(message: string): void {
  console.error(message);
  process.exitCode = 2;
}
