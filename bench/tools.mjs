// What every bench script shares: where the work directory is, and how each tool instruments a file.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const require = createRequire(import.meta.url);
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
// Under node_modules so that git, prettier and eslint all leave the generated code alone.
// BENCH_WORK: another directory, so that two runs do not share one.
export const WORK = process.env.BENCH_WORK ?? join(ROOT, 'node_modules/.cache/pathprof-bench');
/** The interesting set of preferential mode: the workloads' hot paths, from a path-mode run (run.mjs). */
export const INTERESTING = join(WORK, 'interesting.json');

const babel = require('@babel/core');
// BENCH_PLUGIN: another build of the plugin (a directory with its dist/), to measure a change against it.
const pathprof = process.env.BENCH_PLUGIN ?? require.resolve('babel-plugin-pathprof');
const istanbul = require.resolve('babel-plugin-istanbul');

/**
 * The Babel plugins of each instrumenting tool. Every tool is told to instrument whatever it is given: the
 * files come from node_modules, which both exclude by default. `babel` alone parses and prints the file, the
 * floor under any Babel-based instrumenter. `piecewise` and `context` are interprocedural mode's two schemes;
 * `contexts` counts calling contexts only, `path-contexts` paths per calling context. A mode with `-before`
 * (`path-before`, `piecewise-before`, …) is that mode of the build in BENCH_BASELINE
 * (`npm run bench -- --baseline DIR`), to measure a change against it in the same run. `ppp` is preferential
 * mode against INTERESTING.
 */
function plugins(tool, cwd) {
  const all = { include: ['**'], exclude: [] };
  switch (tool) {
    case 'babel':
      return [];
    case 'path':
    case 'edge':
      return [[pathprof, { mode: tool, ...all }]];
    case 'piecewise':
    case 'context':
      return [[pathprof, { mode: 'interprocedural', scheme: tool, ...all }]];
    case 'ppp':
      return [[pathprof, { mode: 'preferential', interesting: INTERESTING, ...all }]];
    // Calling contexts alone, and path mode's paths per calling context.
    case 'contexts':
      return [[pathprof, { mode: 'contexts', ...all }]];
    case 'path-contexts':
      return [[pathprof, { mode: 'path', contexts: true, ...all }]];
    case 'path-before':
    case 'edge-before':
    case 'contexts-before':
    case 'path-contexts-before':
    case 'piecewise-before':
    case 'context-before': {
      if (!process.env.BENCH_BASELINE) throw new Error(`${tool} needs BENCH_BASELINE (--baseline DIR)`);
      const [[, options]] = plugins(tool.slice(0, -'-before'.length), cwd);
      return [[require.resolve(process.env.BENCH_BASELINE), options]];
    }
    case 'istanbul':
      // istanbul matches files against its own `cwd` option, not Babel's.
      return [[istanbul, { cwd, ...all, excludeNodeModules: false, useInlineSourceMap: false }]];
    default:
      throw new Error(`unknown tool ${tool}`);
  }
}

/**
 * `code` of the file at `filename` (absolute; its key is relative to `cwd`) instrumented by `tool`, with
 * `presets` (none: the file as shipped, only instrumented).
 */
export function transform(tool, code, filename, cwd, presets = []) {
  return babel.transformSync(code, {
    filename,
    cwd,
    babelrc: false,
    configFile: false,
    sourceType: 'unambiguous',
    plugins: plugins(tool, cwd),
    presets,
  }).code;
}
