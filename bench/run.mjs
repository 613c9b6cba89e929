#!/usr/bin/env node
// `npm run bench [-- --quick]`: run-time overhead, transform cost and report cost of pathprof beside
// babel-plugin-istanbul and V8 block coverage, written to bench/results/latest.md (see README, "Benchmark").
// For a targeted comparison: `--baseline DIR` (another checkout's packages/babel-plugin, built) adds its
// path, edge and contexts modes, run on that checkout's runtime; `--workloads a,b`, `--modes
// path,path-before` or `--run-only` measure run time only and print it; `--rounds N` sets the repetitions.
// Such runs write quick.md at most.
import { performance } from 'node:perf_hooks';
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { INTERESTING, ROOT, WORK, require, transform } from './tools.mjs';

const { values: flags } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    baseline: { type: 'string' },
    workloads: { type: 'string' },
    modes: { type: 'string' },
    rounds: { type: 'string' },
    'run-only': { type: 'boolean', default: false },
    'preset-env': { type: 'string' },
  },
});
const quick = flags.quick;
if (flags.baseline) process.env.BENCH_BASELINE = resolve(flags.baseline);
// A run narrowed to some workloads or modes measures run time only (the report needs path mode on lodash).
const runOnly = Boolean(flags['run-only'] || flags.workloads || flags.modes);
const narrowed = Boolean(runOnly || flags.rounds || flags.baseline);
// Other work on the machine moves absolute times (interleaving keeps the ratios fair): the results say how busy it was.
const loadAtStart = loadavg()[0];
const REPEATS = flags.rounds ? Number(flags.rounds) : quick ? 3 : 9;
const ALL_MODES = [
  'base',
  'path',
  'ppp',
  'contexts',
  'path-contexts',
  'edge',
  'piecewise',
  'context',
  'istanbul',
  'v8',
  ...(flags.baseline
    ? [
        'path-before',
        'edge-before',
        'contexts-before',
        'path-contexts-before',
        'piecewise-before',
        'context-before',
      ]
    : []),
];
const MODES = ['base', ...(flags.modes ? flags.modes.split(',') : ALL_MODES.slice(1))];
for (const mode of MODES) if (!ALL_MODES.includes(mode)) throw new Error(`unknown mode ${mode}`);
// Preferential mode's interesting set: each function's hottest paths making up this share of its executions.
const HOT_PERCENT = 90;
const LIB = join(WORK, 'lib');

/** Each workload: the package files it loads (instrumented ahead of time) and its size in each mode. */
const ALL_WORKLOADS = {
  acorn: { files: { acorn: ['dist/acorn.js'] }, iterations: quick ? 2 : 12 },
  marked: { files: { marked: ['lib/marked.esm.js'] }, iterations: quick ? 1 : 8 },
  lodash: { files: { lodash: ['lodash.js'] }, iterations: quick ? 5 : 30 },
  jest: { files: { semver: packageSources('semver') }, iterations: quick ? 2 : 10 },
  fib: { files: { kernels: ['fib.cjs'] }, iterations: quick ? 30 : 100 },
  interpreter: { files: { kernels: ['interpreter.cjs'] }, iterations: quick ? 10 : 30 },
  // One run(300000) takes ~2 ms: enough of them that the kernel, not the process start, is what is measured.
  calls: { files: { kernels: ['crossed-calls.cjs'] }, iterations: quick ? 60 : 200 },
};
const WORKLOADS = flags.workloads
  ? Object.fromEntries(flags.workloads.split(',').map((w) => [w, ALL_WORKLOADS[w] ?? unknown(w)]))
  : ALL_WORKLOADS;

function unknown(workload) {
  throw new Error(`unknown workload ${workload}`);
}

/** Where a workload's sources come from: an installed package, or `kernels` (bench/kernels, written for the bench). */
function sourceDir(name) {
  return name === 'kernels' ? join(ROOT, 'bench/kernels') : dirname(require.resolve(`${name}/package.json`));
}

function packageSources(name) {
  const dir = sourceDir(name);
  return readdirSync(dir, { recursive: true })
    .filter((file) => file.endsWith('.js') && !file.startsWith('bin'))
    .sort();
}

function run(command, args, env = {}) {
  const result = spawnSync(command, args, { env: { ...process.env, ...env }, encoding: 'utf8' });
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed:\n${result.stdout}${result.stderr}`);
  return result.stdout;
}

/**
 * CPU seconds (user + system) of this process's finished children and their own waited-for children, from
 * /proc (Linux; null elsewhere). Unlike wall time it hardly moves when other jobs share the cores.
 */
function childCpuSeconds() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    // Fields 16 and 17 of stat(5), cutime and cstime, counted from field 3 after the command name.
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return null;
  }
}

const table = (header, rows) =>
  [header, header.map(() => '---'), ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const geomean = (xs) => Math.exp(xs.reduce((s, x) => s + Math.log(x), 0) / xs.length);
const versionOf = (name) => require(`${name}/package.json`).version;

run('npx', ['tsc', '-b'], {});
rmSync(WORK, { recursive: true, force: true });

// Ahead of time: every package file a workload loads, as shipped (base, also run under V8 coverage) and
// instrumented by each tool, under WORK/lib/<tool>/<package>/. Preferential mode comes last: its interesting
// set is the hot paths of a path-mode run of the same workloads.
const tools = MODES.filter((mode) => mode !== 'v8' && mode !== 'ppp');
if (MODES.includes('ppp')) tools.push(...(MODES.includes('path') ? [] : ['path']), 'ppp');
let preferred = null;
for (const tool of tools) {
  if (tool === 'ppp') preferred = hotPaths();
  for (const { files } of Object.values(WORKLOADS)) {
    for (const [name, sources] of Object.entries(files)) {
      const from = sourceDir(name);
      const to = join(LIB, tool, name);
      mkdirSync(to, { recursive: true });
      if (existsSync(join(from, 'package.json')))
        cpSync(join(from, 'package.json'), join(to, 'package.json'));
      for (const source of sources) {
        const code = readFileSync(join(from, source), 'utf8');
        mkdirSync(dirname(join(to, source)), { recursive: true });
        const out = tool === 'base' ? code : transform(tool, code, join(to, source), join(LIB, tool));
        writeFileSync(join(to, source), out);
      }
    }
  }
}

// The baseline's modes run on the baseline checkout's runtime too: their files import
// `babel-plugin-pathprof/runtime`, found first in their own node_modules.
if (flags.baseline)
  for (const tool of tools.filter((t) => t.endsWith('-before'))) {
    mkdirSync(join(LIB, tool, 'node_modules'), { recursive: true });
    symlinkSync(resolve(flags.baseline), join(LIB, tool, 'node_modules/babel-plugin-pathprof'), 'dir');
  }

/** Runs every workload once in path mode and writes the interesting set of its hot paths; returns the summary. */
function hotPaths() {
  const profiles = join(WORK, 'hot-profiles');
  for (const [workload, { iterations }] of Object.entries(WORKLOADS)) {
    const env = {
      BENCH_LIB: join(LIB, 'path'),
      BENCH_ITERATIONS: String(iterations),
      BENCH_HOT_PATHS: '1',
      PATHPROF_DIR: profiles,
    };
    run(process.execPath, [join(ROOT, 'bench/workloads', `${workload}.mjs`)], env);
  }
  const reportBin = join(ROOT, 'packages/report/bin/pathprof-report.js');
  const args = [
    'prefer',
    '--hot',
    String(HOT_PERCENT),
    '--root',
    join(LIB, 'base'),
    '-o',
    INTERESTING,
    profiles,
  ];
  const result = spawnSync(process.execPath, [reportBin, ...args], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`pathprof-report ${args.join(' ')} failed:\n${result.stderr}`);
  return result.stderr.trim().replace(/^pathprof-report: wrote \S+: /, '');
}

// Run time: whole processes, the modes interleaved within each round and the order rotated between rounds,
// so that drift in the machine's speed falls on every mode alike.
const seconds = {};
const cpuSeconds = {};
const outputs = {};
for (let round = 0; round < REPEATS; round++) {
  for (const [workload, { iterations }] of Object.entries(WORKLOADS)) {
    for (let m = 0; m < MODES.length; m++) {
      const mode = MODES[(m + round) % MODES.length];
      const env = {
        BENCH_LIB: join(LIB, mode === 'v8' ? 'base' : mode),
        BENCH_ITERATIONS: String(iterations),
        PATHPROF_DIR: join(WORK, 'profiles'),
        ...(mode === 'v8' ? { NODE_V8_COVERAGE: join(WORK, 'v8') } : {}),
      };
      const start = performance.now();
      const cpuStart = childCpuSeconds();
      const out = run(process.execPath, [join(ROOT, 'bench/workloads', `${workload}.mjs`)], env);
      ((seconds[workload] ??= {})[mode] ??= []).push((performance.now() - start) / 1000);
      if (cpuStart !== null) ((cpuSeconds[workload] ??= {})[mode] ??= []).push(childCpuSeconds() - cpuStart);
      // Instrumentation must not change what the workload computes.
      if ((outputs[workload] ??= out) !== out) throw new Error(`${workload} in ${mode} printed ${out}`);
    }
    rmSync(join(WORK, 'v8'), { recursive: true, force: true });
    rmSync(join(WORK, 'profiles'), { recursive: true, force: true });
  }
  console.log(`round ${round + 1}/${REPEATS} done`);
}

const MODE_NAMES = {
  base: 'uninstrumented',
  path: 'pathprof path',
  ppp: `pathprof preferential (hot ${HOT_PERCENT}%)`,
  contexts: 'pathprof contexts',
  'path-contexts': 'path with contexts',
  edge: 'pathprof edge',
  piecewise: 'interprocedural piecewise',
  context: 'interprocedural context',
  istanbul: 'istanbul',
  v8: 'V8 block coverage',
  'path-before': 'path (baseline)',
  'edge-before': 'edge (baseline)',
  'contexts-before': 'contexts (baseline)',
  'path-contexts-before': 'path with contexts (baseline)',
  'piecewise-before': 'interprocedural piecewise (baseline)',
  'context-before': 'interprocedural context (baseline)',
};
const ratios = Object.fromEntries(MODES.map((mode) => [mode, []]));
const cpuRatios = Object.fromEntries(MODES.map((mode) => [mode, []]));
// CPU ratio of each (workload, mode), for the targets below.
const cpuRatioOf = {};
const runRows = Object.entries(seconds).map(([workload, byMode]) => {
  const base = median(byMode.base);
  const cpu = cpuSeconds[workload];
  return [
    `${workload} (${outputs[workload].trim()})`,
    ...MODES.map((mode) => {
      const ratio = median(byMode[mode]) / base;
      ratios[mode].push(ratio);
      const cpuRatio = cpu ? median(cpu[mode]) / median(cpu.base) : null;
      if (cpuRatio !== null) {
        cpuRatios[mode].push(cpuRatio);
        (cpuRatioOf[workload] ??= {})[mode] = cpuRatio;
      }
      const cpuCell = cpuRatio === null ? '' : `; CPU ${cpuRatio.toFixed(2)}×`;
      return mode === 'base'
        ? `${base.toFixed(2)} s${cpu ? `; CPU ${median(cpu.base).toFixed(2)} s` : ''}`
        : `${median(byMode[mode]).toFixed(2)} s (${ratio.toFixed(2)}×${cpuCell})`;
    }),
  ];
});
runRows.push([
  '**geometric mean**',
  '1.00×',
  ...MODES.slice(1).map(
    (m) =>
      `**${geomean(ratios[m]).toFixed(2)}×**` +
      (cpuRatios[m].length ? ` (CPU ${geomean(cpuRatios[m]).toFixed(2)}×)` : ''),
  ),
]);
const runTable = table(['workload', ...MODES.map((mode) => MODE_NAMES[mode])], runRows);
if (runOnly) {
  console.log(
    `\n${runTable}\n${preferred ? `\npreferential mode's interesting set: ${preferred}\n` : ''}\nload average ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end`,
  );
  process.exit(0);
}

// Transform cost: each (tool, file) in a fresh process for its peak memory.
const transformFiles = ['acorn/dist/acorn.js', 'marked/lib/marked.esm.js', 'lodash/lodash.js'];
if (!quick) transformFiles.push('typescript/lib/typescript.js');
const transformRows = [];
// path ÷ istanbul per file: time, CPU time, output size (for the targets below).
const transformRatios = {};
for (const file of transformFiles) {
  const absolute = join(ROOT, 'node_modules', file);
  const size = readFileSync(absolute).length;
  const cells = [`${file} (${(size / 1024).toFixed(0)} KB)`];
  const results = {};
  for (const tool of ['babel', 'path', 'edge', 'istanbul']) {
    const repeats = file.startsWith('typescript') ? 1 : quick ? 1 : 3;
    results[tool] = JSON.parse(
      run(process.execPath, [join(ROOT, 'bench/transform-file.mjs'), tool, absolute, String(repeats)]),
    );
    const { ms, cpuMs, bytes, maxRssMb } = results[tool];
    cells.push(
      `${(ms / 1000).toFixed(2)} s (CPU ${(cpuMs / 1000).toFixed(2)} s), ${(bytes / 1024).toFixed(0)} KB, ${maxRssMb.toFixed(0)} MB`,
    );
  }
  cells.push(
    `${(results.path.ms / results.istanbul.ms).toFixed(2)}× (CPU ${(results.path.cpuMs / results.istanbul.cpuMs).toFixed(2)}×) / ${(results.path.bytes / results.istanbul.bytes).toFixed(2)}×`,
  );
  // Warm: the sixth transform of the file in one process, as a build that transforms many files runs (a fresh
  // process runs our code, more distinct functions than istanbul's, cold: bench/NOTES.md, session tf24).
  if (file.startsWith('typescript') || quick) cells.push('–');
  else {
    const [path, istanbul] = ['path', 'istanbul'].map((tool) =>
      JSON.parse(run(process.execPath, [join(ROOT, 'bench/transform-file.mjs'), tool, absolute, '6'])),
    );
    cells.push(
      `${(path.lastMs / istanbul.lastMs).toFixed(2)}× (CPU ${(path.lastCpuMs / istanbul.lastCpuMs).toFixed(2)}×)`,
    );
  }
  transformRatios[file] = {
    time: results.path.ms / results.istanbul.ms,
    cpu: results.path.cpuMs / results.istanbul.cpuMs,
    size: results.path.bytes / results.istanbul.bytes,
  };
  transformRows.push(cells);
  console.log(`transformed ${file}`);
}
const transformTable = table(
  [
    'file',
    'Babel alone',
    'pathprof path',
    'pathprof edge',
    'istanbul',
    'path ÷ istanbul (time / size)',
    'warm: 6th transform, path ÷ istanbul',
  ],
  transformRows,
);

// A real project's files through @babel/preset-env (`--preset-env DIR`, a checkout's source directory).
let presetEnvTable = '';
let presetEnvRatio = null;
if (flags['preset-env']) {
  const dir = resolve(flags['preset-env']);
  const { files, totals } = JSON.parse(
    run(process.execPath, [join(ROOT, 'bench/preset-env-transform.mjs'), dir, quick ? '1' : '3']),
  );
  const cell = ({ ms, cpuMs, bytes }) =>
    `${(ms / 1000).toFixed(2)} s (CPU ${(cpuMs / 1000).toFixed(2)} s), ${(bytes / 1024).toFixed(0)} KB`;
  const { path, istanbul } = totals;
  presetEnvRatio = { time: path.ms / istanbul.ms, cpu: path.cpuMs / istanbul.cpuMs, files, dir };
  presetEnvTable = `\n## A project's files through @babel/preset-env\n\nThe ${files} .js files of ${dir}, each transformed with \`@babel/preset-env\` (targets: this Node) and the tool, totals of the median per file:\n\n${table(
    [
      'Babel + preset-env',
      'with pathprof path',
      'with pathprof edge',
      'with istanbul',
      'path ÷ istanbul (time, CPU / size)',
    ],
    [
      [
        cell(totals.babel),
        cell(path),
        cell(totals.edge),
        cell(istanbul),
        `${(path.ms / istanbul.ms).toFixed(2)}×, ${(path.cpuMs / istanbul.cpuMs).toFixed(2)}× / ${(path.bytes / istanbul.bytes).toFixed(2)}×`,
      ],
    ],
  )}\n`;
  console.log('transformed the preset-env files');
}

// Report cost: 10,000,000 counted paths of the path-instrumented lodash, spread over 10 profile files.
const report = JSON.parse(
  run(process.execPath, [
    join(ROOT, 'bench/report-cost.mjs'),
    join(LIB, 'path/lodash/lodash.js'),
    join(WORK, 'report'),
  ]),
);

const targetsSection = targets();

/**
 * The open issues' targets beside what this run measured (run-time ratios are CPU ratios, the ones other
 * jobs on the machine move least; transform ratios are wall time, CPU in brackets).
 */
function targets() {
  const rows = [];
  const verdict = (met) => (met ? 'met' : '**missed**');
  const x = (v) => `${v.toFixed(2)}×`;
  const has = (mode) => cpuRatios[mode]?.length > 0;
  // A mode's CPU geomean against its bound, when the run measured the mode.
  const geomeanTarget = (issue, what, mode, bound) => {
    if (!has(mode)) return;
    const ratio = geomean(cpuRatios[mode]);
    rows.push([issue, `${what} ≤ ${x(bound)} on the geometric mean`, x(ratio), verdict(ratio <= bound)]);
  };
  geomeanTarget('17', 'path mode', 'path', 1.1);
  if (has('path')) {
    const [worst, byMode] = Object.entries(cpuRatioOf).sort((a, b) => b[1].path - a[1].path)[0];
    rows.push([
      '17',
      'path mode: no workload above 1.20×',
      `${worst} ${x(byMode.path)}`,
      verdict(byMode.path <= 1.2),
    ]);
  }
  geomeanTarget('17', 'edge mode', 'edge', 1.1);
  const files = Object.entries(transformRatios);
  const slowest = files.sort((a, b) => b[1].time - a[1].time)[0];
  rows.push([
    '17',
    'transform ≤ 0.6× istanbul on every file',
    `${slowest[0]} ${x(slowest[1].time)} (CPU ${x(slowest[1].cpu)})`,
    verdict(slowest[1].time <= 0.6),
  ]);
  rows.push([
    '17',
    "… and on a real project's files through @babel/preset-env",
    presetEnvRatio
      ? `${presetEnvRatio.files} files: ${x(presetEnvRatio.time)} (CPU ${x(presetEnvRatio.cpu)})`
      : 'not measured in this run (`--preset-env DIR`)',
    presetEnvRatio ? verdict(presetEnvRatio.time <= 0.6) : '—',
  ]);
  const largest = files.sort((a, b) => b[1].size - a[1].size)[0];
  rows.push([
    '17',
    "output ≤ 0.5× istanbul's size on every file",
    `${largest[0]} ${x(largest[1].size)}`,
    verdict(largest[1].size <= 0.5),
  ]);
  rows.push([
    '17',
    '10 million counted paths read, merged and decoded in under 10 s',
    `${(report.totalMs / 1000).toFixed(2)} s`,
    verdict(report.totalMs < 10000),
  ]);
  geomeanTarget('13', 'interprocedural (piecewise)', 'piecewise', 1.3);
  if (has('piecewise') && has('path')) {
    const heavy = ['fib', 'interpreter', 'calls'].filter((w) => cpuRatioOf[w]);
    const cells = heavy.map((w) => `${w} ${x(cpuRatioOf[w].piecewise)} (path ${x(cpuRatioOf[w].path)})`);
    const met = heavy.every((w) => cpuRatioOf[w].piecewise <= cpuRatioOf[w].path);
    rows.push([
      '13',
      'interprocedural no worse than path mode on call-heavy code',
      cells.join(', '),
      verdict(met),
    ]);
  }
  geomeanTarget('18', 'calling contexts alone', 'contexts', 1.05);
  return table(['issue', 'target', 'this run', ''], rows);
}

const machine =
  `${cpus()[0].model.trim()}, ${cpus().length} cores, Node ${process.version}, ${process.platform}; ` +
  `load average ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end`;
const packages = [
  'acorn',
  'marked',
  'lodash',
  'semver',
  'jest',
  'typescript',
  '@babel/core',
  'babel-plugin-istanbul',
]
  .map((name) => `${name} ${versionOf(name)}`)
  .join(', ');
const markdown = `# pathprof benchmark (${quick ? 'quick' : 'full'} mode)

${new Date().toISOString()}; ${machine}. Packages: ${packages}.

## Run time

Whole-process wall time, median of ${REPEATS} interleaved runs; in brackets the ratio to uninstrumented, and the
ratio of the processes' CPU time (user + system, children included), which other jobs on the machine move
less. The library's own code is instrumented ahead of time (workloads: \`bench/workloads\`).${
  preferred
    ? ` Preferential mode's interesting set is each function's hottest paths making up ${HOT_PERCENT}% of its` +
      ` executions in a path-mode run of the same workloads: ${preferred}.`
    : ''
}

${runTable}

## Transform

One file through Babel with each plugin: median time and CPU time of 3 transforms in a fresh process (after Babel
and the plugin are loaded), output size, peak RSS of the process. The last column is the sixth transform of the
file in one process, as a build that transforms many files in a process runs: warm code.

${transformTable}
${presetEnvTable}
## Report

${report.paths.toLocaleString('en')} counted paths of ${relative(WORK, report.file)} (${report.functions} functions with counts) in ${report.profiles} profile files (${(report.bytes / 1048576).toFixed(1)} MB):
read and check ${(report.readMs / 1000).toFixed(2)} s, merge ${(report.mergeMs / 1000).toFixed(2)} s, numbering ${(report.numberMs / 1000).toFixed(2)} s,
decode every path ${(report.decodeMs / 1000).toFixed(2)} s; **total ${(report.totalMs / 1000).toFixed(2)} s** (CPU ${(report.cpuMs / 1000).toFixed(2)} s), peak RSS ${report.maxRssMb.toFixed(0)} MB.

## Against the targets

The open issues' speed targets and this run's figures (run time: CPU ratios; transform: wall time, CPU in
brackets). For each missed target, bench/NOTES.md ("Against the targets") has what was measured about why
and what it would take.

${targetsSection}
`;
// A quick or narrowed run must not overwrite the committed full results.
const results = join(ROOT, 'bench/results', quick || narrowed ? 'quick.md' : 'latest.md');
mkdirSync(dirname(results), { recursive: true });
writeFileSync(results, markdown);
console.log(`\n${markdown}`);
