#!/usr/bin/env node
// `npm run bench:interprocedural [-- --quick]`: interprocedural mode beside path mode and uninstrumented code
// on the bench workloads and a call-heavy kernel: run time (interleaved rounds, medians), the share of the
// instrumented functions' activations that a crossed call entered, N per file, output size and transform
// time. Written to bench/results/interprocedural.md.
import { performance } from 'node:perf_hooks';
import { spawnSync } from 'node:child_process';
import { Buffer } from 'node:buffer';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { ROOT, WORK, require } from './tools.mjs';

const quick = process.argv.includes('--quick');
const loadAtStart = loadavg()[0];
const REPEATS = quick ? 3 : 7;
const MODES = ['base', 'path', 'piecewise', 'context'];
const LIB = join(WORK, 'lib-interprocedural');
const babel = require('@babel/core');
const pathprof = require.resolve('babel-plugin-pathprof');
const { interproceduralNumberingOf, numberingOf } = require('babel-plugin-pathprof');
const { countsByPathNumber, decodeInterproceduralPath, decodePath } = require('@pathprof/numbering');
const { mergeProfiles, readProfileDirectory } = require('@pathprof/runtime');

const WORKLOADS = {
  acorn: { files: { acorn: ['dist/acorn.js'] }, iterations: quick ? 2 : 12 },
  marked: { files: { marked: ['lib/marked.esm.js'] }, iterations: quick ? 1 : 8 },
  lodash: { files: { lodash: ['lodash.js'] }, iterations: quick ? 5 : 30 },
  calls: { files: { kernels: ['crossed-calls.cjs'] }, iterations: quick ? 3 : 10 },
};

const options = (mode) =>
  mode === 'path'
    ? { mode: 'path', include: ['**'], exclude: [] }
    : { mode: 'interprocedural', scheme: mode, include: ['**'], exclude: [] };

function sourceDir(name) {
  return name === 'kernels' ? join(ROOT, 'bench/kernels') : dirname(require.resolve(`${name}/package.json`));
}

function run(command, args, env = {}) {
  const result = spawnSync(command, args, { env: { ...process.env, ...env }, encoding: 'utf8' });
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed:\n${result.stdout}${result.stderr}`);
  return result.stdout;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const geomean = (xs) => Math.exp(xs.reduce((s, x) => s + Math.log(x), 0) / xs.length);
const table = (header, rows) =>
  [header, header.map(() => '---'), ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');

run('npx', ['tsc', '-b']);
rmSync(LIB, { recursive: true, force: true });

// Ahead of time: each workload's files in each mode, with the transform's time, size and N.
const transforms = [];
for (const mode of MODES) {
  for (const { files } of Object.values(WORKLOADS)) {
    for (const [name, sources] of Object.entries(files)) {
      const from = sourceDir(name);
      const to = join(LIB, mode, name);
      mkdirSync(to, { recursive: true });
      if (name !== 'kernels') cpSync(join(from, 'package.json'), join(to, 'package.json'));
      for (const source of sources) {
        const code = readFileSync(join(from, source), 'utf8');
        mkdirSync(dirname(join(to, source)), { recursive: true });
        if (mode === 'base') {
          writeFileSync(join(to, source), code);
          continue;
        }
        const start = performance.now();
        const result = babel.transformSync(code, {
          filename: join(to, source),
          cwd: join(LIB, mode),
          babelrc: false,
          configFile: false,
          sourceType: 'unambiguous',
          plugins: [[pathprof, options(mode)]],
        });
        const ms = performance.now() - start;
        writeFileSync(join(to, source), result.code);
        const note = result.metadata.pathprof.interprocedural;
        transforms.push({
          file: `${name}/${source}`,
          mode,
          ms,
          bytes: Buffer.byteLength(result.code),
          n: note?.pathCount ?? '',
          crossed: note ? note.sites.filter((s) => s.cut === null).length : '',
          sites: note ? note.sites.length : '',
        });
      }
    }
  }
}

// Run time, interleaved and rotated per round; the last round's profiles give the crossed share.
const seconds = {};
const outputs = {};
const crossedShare = {};
for (let round = 0; round < REPEATS; round++) {
  for (const [workload, { iterations }] of Object.entries(WORKLOADS)) {
    for (let m = 0; m < MODES.length; m++) {
      const mode = MODES[(m + round) % MODES.length];
      const profiles = join(WORK, `profiles-${mode}`);
      rmSync(profiles, { recursive: true, force: true });
      const env = {
        BENCH_LIB: join(LIB, mode),
        BENCH_ITERATIONS: String(iterations),
        PATHPROF_DIR: profiles,
      };
      const start = performance.now();
      const out = run(process.execPath, [join(ROOT, 'bench/workloads', `${workload}.mjs`)], env);
      ((seconds[workload] ??= {})[mode] ??= []).push((performance.now() - start) / 1000);
      if ((outputs[workload] ??= out) !== out) throw new Error(`${workload} in ${mode} printed ${out}`);
    }
    if (round === REPEATS - 1) crossedShare[workload] = shareOfCrossedEntries();
  }
  console.log(`round ${round + 1}/${REPEATS} done`);
}

/**
 * Of all activations of instrumented functions (path mode: paths that start at an entry), the share entered
 * by a crossed call (piecewise paths partition the run, so each crossed call is one `call` step of one path).
 */
function shareOfCrossedEntries() {
  const files = (mode) => mergeProfiles(readProfileDirectory(join(WORK, `profiles-${mode}`)).profiles);
  let activations = 0;
  for (const file of files('path')) {
    const meta = file.meta;
    const counts = new Map(file.counts);
    const hashed = new Map(file.hashed);
    for (const fn of meta.functions) {
      const numbering = numberingOf(meta, fn);
      const pairs =
        fn.path.storage.kind === 'hash'
          ? (hashed.get(fn.path.storage.slot) ?? [])
          : [...counts]
              .filter(([i]) => i >= fn.path.storage.offset && i < fn.path.storage.offset + fn.path.pathCount)
              .map(([i, n]) => [i - fn.path.storage.offset, n]);
      for (const [id, n] of pairs) if (decodePath(numbering, id).start.kind === 'entry') activations += n;
    }
  }
  let crossed = 0;
  for (const file of files('piecewise')) {
    if (!file.meta.interprocedural) continue;
    const numbering = interproceduralNumberingOf(file.meta);
    const tables = new Map(file.hashed);
    const pairs = countsByPathNumber(
      numbering,
      file.meta.interprocedural.storage,
      file.counts,
      (k) => tables.get(k) ?? [],
    );
    for (const [id, n] of pairs) {
      const { path } = decodeInterproceduralPath(numbering, BigInt(id));
      crossed += n * path.steps.filter((s) => s.kind === 'call').length;
    }
  }
  return activations === 0 ? 0 : crossed / activations;
}

const ratios = Object.fromEntries(MODES.map((mode) => [mode, []]));
const runRows = Object.entries(seconds).map(([workload, byMode]) => {
  const base = median(byMode.base);
  return [
    `${workload} (${outputs[workload].trim()})`,
    ...MODES.map((mode) => {
      const ratio = median(byMode[mode]) / base;
      ratios[mode].push(ratio);
      return mode === 'base'
        ? `${base.toFixed(2)} s`
        : `${median(byMode[mode]).toFixed(2)} s (${ratio.toFixed(2)}×)`;
    }),
    `${(100 * crossedShare[workload]).toFixed(1)}%`,
  ];
});
runRows.push([
  '**geometric mean**',
  '1.00×',
  ...MODES.slice(1).map((m) => `**${geomean(ratios[m]).toFixed(2)}×**`),
  '',
]);
const transformRows = transforms.map((t) => [
  t.file,
  t.mode,
  `${(t.ms / 1000).toFixed(2)} s`,
  `${(t.bytes / 1024).toFixed(0)} KB`,
  t.n,
  t.sites === '' ? '' : `${t.crossed} of ${t.sites}`,
]);
const markdown = `# pathprof interprocedural benchmark (${quick ? 'quick' : 'full'} mode)

${new Date().toISOString()}; ${cpus()[0].model.trim()}, ${cpus().length} cores, Node ${process.version}; load average ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end.

## Run time

Whole-process wall time, median of ${REPEATS} interleaved runs; in brackets the ratio to uninstrumented. Crossed:
the share of the instrumented functions' activations that a crossed call entered (the rest start paths of
their own: callbacks, methods, calls from other files, recursion, budget cuts). \`calls\` is
\`bench/kernels/crossed-calls.cjs\`: small helpers called in loops, recursion.

${table(['workload', 'uninstrumented', 'path', 'interprocedural piecewise', 'interprocedural context', 'crossed'], runRows)}

## Transform

One file through Babel with the plugin in this process (after warm-up of the first file): time, output size,
N (the file's interprocedural paths) and the split calls crossed.

${table(['file', 'mode', 'time', 'size', 'N', 'crossed sites'], transformRows)}
`;
mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
writeFileSync(
  join(ROOT, 'bench/results', quick ? 'interprocedural-quick.md' : 'interprocedural.md'),
  markdown,
);
console.log(`\n${markdown}`);
