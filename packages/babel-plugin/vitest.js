// A Vitest coverage provider, as @vitest/coverage-istanbul is for istanbul:
//   test: { coverage: { provider: 'custom', customProviderModule: 'babel-plugin-pathprof/vitest' } }
// `vitest run --coverage` then instruments the project's files with the plugin inside Vitest's transform
// pipeline, takes every worker's counts after each test file, writes them as that test file's profile and
// prints the path coverage report. Plugin options go in `coverage.pathprof` (mode, include, exclude, …). The
// setup file `babel-plugin-pathprof/vitest-setup` splits each test file's counts by test (PATHPROF_TEST_NAMES=1).
const { existsSync, readFileSync } = require('node:fs');
const path = require('node:path');
const { getStore, profileFormatOf, startRun, takeCounts, writeProfileFile } = require('@pathprof/runtime');

const SOURCE = /\.(?:[cm]?[jt]s|[jt]sx)$/;
const VITE_CONFIG = /^(?:vite|vitest)\.(?:config|workspace|projects)\.[cm]?[jt]s$/;

/** The pathprof side of Vitest's main process: instrument, collect, write, report. */
class PathprofCoverageProvider {
  name = 'pathprof';

  initialize(ctx) {
    this.ctx = ctx;
    this.root = ctx.config.root;
    this.options = ctx.config.coverage;
    this.pluginOptions = { ...(this.options.pathprof ?? {}), runtime: 'import' };
    const configured = this.options.pathprof?.outputDir ?? '.pathprof';
    this.dir = path.resolve(this.root, process.env.PATHPROF_DIR || configured);
    this.profiles = [];
    this.transforming = new Set();
  }

  resolveOptions() {
    return this.options;
  }

  /** A new run (the previous run's profiles removed) unless `coverage.clean` is false or PATHPROF_ACCUMULATE is set. */
  clean(clean = true) {
    this.profiles = [];
    startRun(this.dir, clean === false || /^(1|true)$/i.test(process.env.PATHPROF_ACCUMULATE ?? ''));
  }

  /**
   * A worker's counts of the test files it just ran (Vitest takes them after each test file): named after
   * that file, unless the setup file named it (and split its counts by test) already. `testFiles` are
   * relative to the project's root.
   */
  onAfterSuiteRun({ coverage, testFiles }) {
    if (!coverage) return;
    const testFile = coverage.testFile ?? (testFiles?.length === 1 ? testFiles[0] : undefined);
    this.profiles.push(testFile ? { ...coverage, testFile } : coverage);
  }

  /**
   * The project's own source file (the plugin's include/exclude decide which), instrumented as written on
   * disk and then passed through the whole transform pipeline again, so the report decodes it against the
   * source it reads and every other plugin still applies. The instrumented result's source map leads back
   * to that source, so it replaces the maps of the first pass.
   */
  async onFileTransform(code, id, pluginCtx) {
    const file = id.split('?')[0];
    if (id.includes('\0') || file !== id || !SOURCE.test(file) || !this.isProjectFile(file)) return undefined;
    if (this.transforming.has(id)) return undefined; // the second pass through the pipeline
    const instrumented = this.instrument(file, true);
    if (!instrumented.metadata.pathprof) return undefined; // not selected by include/exclude, or ignored
    // Vite 6 and later transform per environment; Vite 5 (Vitest 2) has the dev server's one container,
    // told by the context whether this is the server-side (`ssr`) or the web transform.
    const environment = pluginCtx.environment;
    const container = environment ? environment.pluginContainer : this.server()?.pluginContainer;
    if (!container) throw new Error('babel-plugin-pathprof/vitest: needs Vitest 2 or later');
    const options = environment ? {} : { ssr: pluginCtx.ssr === true };
    this.transforming.add(id);
    let result;
    try {
      result = await container.transform(instrumented.code, id, { ...options, inMap: instrumented.map });
    } finally {
      this.transforming.delete(id);
    }
    if (Array.isArray(pluginCtx.sourcemapChain)) {
      pluginCtx.sourcemapChain.length = 0;
      pluginCtx.combinedMap = null;
    }
    return { code: result.code, map: result.map };
  }

  /** Vite's dev server: `vite` from Vitest 3 on, `server` in Vitest 2. */
  server() {
    return this.ctx.vite ?? this.ctx.server;
  }

  /** `file` as written on disk, through the plugin alone (`code` false: only its notes). */
  instrument(file, code) {
    const babel = require(require.resolve('@babel/core', { paths: [this.root, __dirname] }));
    return babel.transformSync(readFileSync(file, 'utf8'), {
      filename: file,
      cwd: this.root,
      babelrc: false,
      configFile: false,
      code,
      sourceMaps: code,
      parserOpts: { plugins: syntaxOf(file) },
      plugins: [[require('./dist/index.js').default, this.pluginOptions]],
    });
  }

  isProjectFile(file) {
    const relative = path.relative(this.root, file);
    return (
      !relative.startsWith('..') &&
      !path.isAbsolute(relative) &&
      !relative.split(path.sep).includes('node_modules') &&
      existsSync(file)
    );
  }

  /**
   * The run's counts, a profile per test file (as under jest; their metadata written once for the run); with
   * `all`, the files the selection takes that no test loaded in one more, with no counts. Returns the
   * profile directory, null when nothing was counted.
   */
  generateCoverage() {
    const profiles = this.profiles;
    this.profiles = [];
    if (profiles.length === 0) return null;
    for (const profile of profiles) writeProfileFile(this.dir, profile);
    if (this.pluginOptions.all === true) {
      const loaded = new Set(profiles.flatMap((p) => p.files.map((f) => f.key)));
      const files = this.unloadedFiles(loaded);
      if (files.length)
        writeProfileFile(this.dir, {
          format: profileFormatOf(files),
          created: new Date().toISOString(),
          pid: process.pid,
          files,
        });
    }
    return this.dir;
  }

  /**
   * The selected source files no test loaded, compiled as they would be instrumented; Vite's and Vitest's
   * configs aside (the one in use and the usual names: no test loads them, as Vitest's own coverage assumes).
   */
  unloadedFiles(known) {
    const { countlessProfiles, Problems } = require('@pathprof/report');
    const { selects } = require('./dist/index.js').resolveOptions(this.pluginOptions);
    const config = this.server().config.configFile;
    const isConfig = (key) => VITE_CONFIG.test(path.basename(key)) || path.join(this.root, key) === config;
    const problems = new Problems();
    const profiles = countlessProfiles(
      this.root,
      known,
      (key) => selects(key) && !isConfig(key),
      (file) => this.instrument(file, false).metadata.pathprof?.profile,
      problems,
    );
    for (const message of problems.messages) this.ctx.logger.error(`pathprof: ${message}`);
    return profiles;
  }

  async reportCoverage(written) {
    const report = require('@pathprof/report');
    const { TerminalStyle } = report;
    if (!written) {
      this.ctx.logger.error(
        `pathprof: no counts were collected: did the tests load any of the project's files under ${this.root}?`,
      );
      return;
    }
    const problems = new report.Problems();
    const files = report.loadProfiledFiles([this.dir], [this.root], problems);
    const text = report.formatTextReport(
      report.pathReport(files, problems.messages),
      new TerminalStyle(process.stdout),
    );
    const shown = path.relative(process.cwd(), written);
    this.ctx.logger.log(
      `\n % Path coverage report from pathprof (${shown.startsWith('..') ? written : shown})\n${text}`,
    );
    for (const message of [...problems.notes, ...problems.messages])
      this.ctx.logger.error(`pathprof-report: ${message}`);
  }
}

function syntaxOf(file) {
  if (/\.tsx$/.test(file)) return ['typescript', 'jsx'];
  if (/\.[cm]?ts$/.test(file)) return ['typescript'];
  if (/\.jsx$/.test(file)) return ['jsx'];
  return [];
}

module.exports = {
  getProvider() {
    return new PathprofCoverageProvider();
  },
  // In each worker: the counts of the test files it just ran, then zeroed (isolation on or off).
  startCoverage() {
    getStore().writer = 'vitest';
  },
  takeCoverage() {
    return takeCounts(getStore());
  },
};
