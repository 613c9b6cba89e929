// The report's cost at scale: `node report-cost.mjs INSTRUMENTED_FILE DIR [PATHS]` writes PATHS (default
// 10,000,000) distinct counted paths of that (path-mode) file's functions into 10 profile files in DIR, then
// times what a report does with them — read and check the files, merge them (each profile added to the sums
// as it is read; `mergeMs` is the adding and the final sort), recompute each function's numbering and decode
// every path into its edges — and prints the phases' times as JSON.
//
// Every path of the array-mode (few-path) functions is in every profile, as the common paths of a test suite
// are in every test file's profile, so merging adds those up; the rest are paths of the hash-mode (many-path)
// functions spread evenly over the functions, each in one profile. Profiles list counters and paths in
// increasing order, as the runtime writes them. Decoding leaves each path's DAG edges in a buffer (a path
// shares its first edges with the one before it, which are not walked again); `edges` is the sum of the
// paths' lengths in original edges, and a sample of the paths is checked afterwards: a walk from ENTRY to EXIT
// whose values add up to its number. The timed part runs in a process of its own (`--measure`), so that its
// peak memory is the report's. Then `pathprof-report text` and `check` run on the same files, each in a process
// of its own (`--cli`): `cli` has their times and peak memory (the text written to a file; the source is the
// package the instrumented file was made from, found under node_modules by its key).
import { performance } from 'node:perf_hooks';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { require } from './tools.mjs';

const [instrumented, dir, pathsArgument = '10000000', measure, command, root] = process.argv.slice(2);
const PATHS = Number(pathsArgument);
const PROFILES = 10;

if (measure === '--cli') {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const { main } = require('@pathprof/report/dist/cli');
  const output = ['--output', join(dir, 'unused', `${command}.txt`)];
  main([command, dir, '--root', root, ...(command === 'check' ? ['--paths', '1'] : output)]);
  const cpu = process.cpuUsage(cpu0);
  const result = {
    ms: performance.now() - t0,
    cpuMs: (cpu.user + cpu.system) / 1000,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    exitCode: process.exitCode ?? 0,
  };
  console.log(JSON.stringify(result));
  process.exit(0);
}

// Loading the instrumented file registers it: its key, hash and metadata are the real ones.
process.env.PATHPROF_DIR = join(dir, 'unused');
require(instrumented);
const runtime = require('@pathprof/runtime');
const { numberingOf } = require('babel-plugin-pathprof');
const { PathDecoder, ENTRY_DUMMY } = require('@pathprof/numbering');
const [registered] = runtime.snapshot(runtime.getStore()).files;
// Registered compact (pathprof-meta/2); the profiles below hold it expanded, as those of earlier runs did.
// Without the decisions the build found correlated or implied: the drawn paths include infeasible ones, which the report
// rightly refuses as counted (a soundness check), so these profiles hold the numbering without them.
const expanded = runtime.expandMetadata(registered.meta);
const file = {
  ...registered,
  meta: {
    ...expanded,
    functions: expanded.functions.map((fn) => ({ ...fn, correlated: undefined, implied: undefined })),
  },
};
const functions = file.meta.functions;

const arrayFunctions = [...functions.keys()].filter((f) => functions[f].path.storage.kind === 'array');
const hashed = [...functions.keys()].filter((f) => functions[f].path.storage.kind === 'hash');
const arrayPaths = arrayFunctions.reduce((n, f) => n + functions[f].path.pathCount, 0);

// How many paths of each hash-mode function: an even share, less for those with fewer paths.
const quota = new Map();
let left = PATHS - arrayPaths;
const byPathCount = [...hashed].sort((a, b) => functions[a].path.pathCount - functions[b].path.pathCount);
byPathCount.forEach((f, i) => {
  const take = Math.min(functions[f].path.pathCount, Math.ceil(left / (byPathCount.length - i)));
  quota.set(f, take);
  left -= take;
});
if (left > 0) throw new Error(`${instrumented} has fewer than ${PATHS} paths`);

/** `count` distinct numbers below `n` spread over the range (a stride coprime to n), in increasing order. */
function spread(n, count) {
  let stride = Math.floor(n * 0.6180339887) | 1;
  const gcd = (a, b) => (b === 0 ? a : gcd(b, a % b));
  while (gcd(n, stride) !== 1) stride += 2;
  const numbers = new Float64Array(count);
  for (let i = 0, x = 0; i < count; i++, x = (x + stride) % n) numbers[i] = x;
  return numbers.sort();
}

if (measure !== '--measure') {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const drawn = new Map(hashed.map((f) => [f, spread(functions[f].path.pathCount, quota.get(f))]));
  for (let k = 0; k < PROFILES; k++) {
    const counts = [];
    for (const f of arrayFunctions) {
      const { storage, pathCount } = functions[f].path;
      for (let p = 0; p < pathCount; p++) counts.push([storage.offset + p, 1 + ((p + k) % 7)]);
    }
    const tables = hashed.map((f) => {
      const numbers = drawn.get(f);
      const pairs = [];
      for (let i = k; i < numbers.length; i += PROFILES) pairs.push([numbers[i], 1 + (i % 7)]);
      return [functions[f].path.storage.slot, pairs];
    });
    const profile = {
      format: runtime.PROFILE_FORMAT,
      created: new Date().toISOString(),
      pid: k,
      files: [{ key: file.key, hash: file.hash, meta: file.meta, counts, hashed: tables }],
    };
    writeFileSync(join(dir, `pathprof-${k}.json`), JSON.stringify(profile));
  }
  const script = fileURLToPath(import.meta.url);
  const child = spawnSync(process.execPath, [script, instrumented, dir, pathsArgument, '--measure'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (child.status !== 0) throw new Error(`${script} --measure failed`);
  const root = require.resolve(file.key).slice(0, -file.key.length);
  const cli = Object.fromEntries(
    ['text', 'check'].map((command) => {
      const args = [script, instrumented, dir, pathsArgument, '--cli', command, root];
      const run = spawnSync(process.execPath, args, {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      if (run.status !== 0) throw new Error(`${script} --cli ${command} failed`);
      return [command, JSON.parse(run.stdout)];
    }),
  );
  console.log(JSON.stringify({ ...JSON.parse(child.stdout), cli }));
  process.exit(0);
}

const bytes = readdirSync(dir)
  .filter((name) => name.endsWith('.json'))
  .reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);

// As the report reads: each profile added to the sums as it is read, then dropped.
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const merge = new runtime.ProfileMerge();
let mergeMs = 0;
const { errors } = runtime.readEachProfile(dir, (profile) => {
  const start = performance.now();
  merge.add(profile);
  mergeMs += performance.now() - start;
});
if (errors.length > 0) throw new Error(String(errors[0]));
const [merged] = merge.result();
const t2 = performance.now();
const t1 = t2 - mergeMs;
const numberings = merged.meta.functions.map((fn) => numberingOf(merged.meta, fn));
const t3 = performance.now();
let decoded = 0;
let edges = 0;
/** Decodes paths `keys[from .. to)` less `offset` of function `f`. */
function decodeAll(f, keys, from, to, offset) {
  const decoder = new PathDecoder(numberings[f]);
  const { kind } = numberings[f].dag;
  for (let i = from; i < to; i++) {
    const length = decoder.decode(keys[i] - offset);
    edges += kind[decoder.dagEdges[0]] === ENTRY_DUMMY ? length - 1 : length;
    decoded++;
  }
}
// Counters ascend with the array-mode functions' offsets: each function's are one stretch of the columns.
const { keys } = merged.counts;
let i = 0;
for (const f of arrayFunctions) {
  const { offset } = functions[f].path.storage;
  const end = offset + functions[f].path.pathCount;
  const from = i;
  while (i < keys.length && keys[i] < end) i++;
  decodeAll(f, keys, from, i, offset);
}
const bySlot = new Map(hashed.map((f) => [functions[f].path.storage.slot, f]));
for (const [slot, table] of merged.hashed) decodeAll(bySlot.get(slot), table.keys, 0, table.keys.length, 0);
const t4 = performance.now();
const cpu = process.cpuUsage(cpu0);
if (decoded !== PATHS) throw new Error(`decoded ${decoded} paths, expected ${PATHS}`);

// What was decoded is each path: a sample checked afterwards, its edges' values summing to its number.
for (const [slot, table] of merged.hashed) {
  const numbering = numberings[bySlot.get(slot)];
  const decoder = new PathDecoder(numbering);
  for (let j = 0; j < table.keys.length; j += 997) {
    const length = decoder.decode(table.keys[j]);
    const { src, dst, val } = numbering.dag;
    let sum = 0;
    let at = numbering.entry;
    for (let d = 0; d < length; d++) {
      const e = decoder.dagEdges[d];
      if (src[e] !== at) throw new Error(`path ${table.keys[j]} of slot ${slot} is not a path`);
      sum += val[e];
      at = dst[e];
    }
    if (sum !== table.keys[j] || at !== numbering.exit)
      throw new Error(`path ${table.keys[j]} of slot ${slot} decoded as ${sum}`);
  }
}
console.log(
  JSON.stringify({
    file: instrumented,
    paths: decoded,
    pairs: arrayPaths * PROFILES + (decoded - arrayPaths),
    edges,
    functions: merged.meta.functions.length,
    profiles: PROFILES,
    bytes,
    readMs: t1 - t0,
    mergeMs: t2 - t1,
    numberMs: t3 - t2,
    decodeMs: t4 - t3,
    totalMs: t4 - t0,
    // User + system time of the phases: other jobs on the machine move it less than the wall times.
    cpuMs: (cpu.user + cpu.system) / 1000,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
  }),
);
