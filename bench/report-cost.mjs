// The report's cost at scale: `node report-cost.mjs INSTRUMENTED_FILE DIR` writes 1,000,000 distinct counted
// paths of that (path-mode) file's functions into 10 profile files in DIR, then times what a report does —
// read and check the files, merge them, recompute each function's numbering and decode every path — and
// prints the phases' times as JSON.
import { performance } from 'node:perf_hooks';
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { require } from './tools.mjs';

const [instrumented, dir] = process.argv.slice(2);
const PATHS = 1_000_000;
const PROFILES = 10;

// Loading the instrumented file registers it: its key, hash and metadata are the real ones.
process.env.PATHPROF_DIR = join(dir, 'unused');
require(instrumented);
const runtime = require('@pathprof/runtime');
const { numberingOf } = require('babel-plugin-pathprof');
const { decodePath } = require('@pathprof/numbering');
const [file] = runtime.snapshot(runtime.getStore()).files;

// Every path of the array-mode functions, then paths of the hash-mode (many-path) functions drawn with a
// fixed generator until there are PATHS: [function index, path number].
const chosen = [];
const functions = file.meta.functions;
for (const [f, fn] of functions.entries()) {
  if (fn.path.storage.kind === 'array') for (let p = 0; p < fn.path.pathCount; p++) chosen.push([f, p]);
}
const hashed = [...functions.keys()].filter((f) => functions[f].path.storage.kind === 'hash');
const drawn = new Set();
let seed = 1;
const random = (n) => Math.floor(((seed = (seed * 16807) % 2147483647) / 2147483647) * n);
while (chosen.length < PATHS) {
  const f = hashed[random(hashed.length)];
  const p = random(functions[f].path.pathCount);
  if (drawn.has(`${f}:${p}`)) continue;
  drawn.add(`${f}:${p}`);
  chosen.push([f, p]);
}

mkdirSync(dir, { recursive: true });
for (let k = 0; k < PROFILES; k++) {
  const counts = [];
  const tables = new Map();
  for (let i = k; i < chosen.length; i += PROFILES) {
    const [f, p] = chosen[i];
    const { storage } = functions[f].path;
    const count = 1 + (i % 7);
    if (storage.kind === 'array') counts.push([storage.offset + p, count]);
    else (tables.get(storage.slot) ?? tables.set(storage.slot, []).get(storage.slot)).push([p, count]);
  }
  const profile = {
    format: runtime.PROFILE_FORMAT,
    created: new Date().toISOString(),
    pid: k,
    files: [{ key: file.key, hash: file.hash, meta: file.meta, counts, hashed: [...tables] }],
  };
  writeFileSync(join(dir, `pathprof-${k}.json`), JSON.stringify(profile));
}
const bytes = readdirSync(dir)
  .filter((name) => name.endsWith('.json'))
  .reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);

const t0 = performance.now();
const { profiles, errors } = runtime.readProfileDirectory(dir);
if (errors.length > 0) throw new Error(String(errors[0]));
const t1 = performance.now();
const [merged] = runtime.mergeProfiles(profiles);
const t2 = performance.now();
const numberings = merged.meta.functions.map((fn) => numberingOf(merged.meta, fn));
const t3 = performance.now();
// Which function each array counter belongs to: offsets ascend with the function index.
const arrayFunctions = [...merged.meta.functions.keys()].filter(
  (f) => functions[f].path.storage.kind === 'array',
);
let decoded = 0;
let edges = 0;
for (const [index] of merged.counts) {
  let lo = 0;
  let hi = arrayFunctions.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (functions[arrayFunctions[mid]].path.storage.offset <= index) lo = mid;
    else hi = mid - 1;
  }
  const f = arrayFunctions[lo];
  edges += decodePath(numberings[f], index - functions[f].path.storage.offset).edges.length;
  decoded++;
}
for (const [slot, entries] of merged.hashed) {
  const f = hashed.find((h) => functions[h].path.storage.slot === slot);
  for (const [p] of entries) {
    edges += decodePath(numberings[f], p).edges.length;
    decoded++;
  }
}
const t4 = performance.now();
if (decoded !== PATHS) throw new Error(`decoded ${decoded} paths, expected ${PATHS}`);
console.log(
  JSON.stringify({
    file: instrumented,
    paths: decoded,
    edges,
    functions: merged.meta.functions.length,
    profiles: profiles.length,
    bytes,
    readMs: t1 - t0,
    mergeMs: t2 - t1,
    numberMs: t3 - t2,
    decodeMs: t4 - t3,
    totalMs: t4 - t0,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
  }),
);
