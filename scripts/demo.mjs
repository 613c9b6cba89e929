#!/usr/bin/env node
// The README's main job (until the jest integration and `pathprof-report` exist): build, then show what
// pathprof does to an example file — its control-flow graphs and potential paths, then a run of the file
// instrumented by babel-plugin-pathprof in path mode, with the executed paths decoded back into source.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import vm from 'node:vm';

const require = createRequire(import.meta.url);
const build = spawnSync('npx', ['tsc', '-b'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const babel = require('@babel/core');
const cfg = require('../packages/cfg/dist/index.js');
const runtime = require('../packages/runtime/dist/index.js');
const { numberingOf } = require('../packages/babel-plugin/dist/index.js');
const { numberPaths, decodePath } = require('../packages/numbering/dist/index.js');

const file = process.argv[2] ?? 'packages/cfg/test/fixtures/hard-combinations.js';
const source = readFileSync(file, 'utf8');
const graphs = cfg.buildFileCfgs(cfg.parseSource(source, file).program, file);

console.log(`pathprof demo: ${file}\n`);
console.log('function                       blocks  edges  potential paths');
for (const g of graphs) {
  const n = numberPaths(g).pathCount;
  console.log(
    `${g.name.padEnd(30)} ${String(g.blockCount).padStart(6)} ${String(g.edgeCount).padStart(6)}  ${n}`,
  );
}

// Instrument with the plugin as a user's babel.config.js would, run it, and read the counts.
const { code } = babel.transformSync(source, {
  filename: resolve(file),
  babelrc: false,
  configFile: false,
  sourceType: 'script',
  plugins: ['babel-plugin-pathprof'],
});
const printed = [];
vm.runInNewContext(code, { require, print: (...v) => printed.push(v.join(' ')) });
console.log(`\nRan the instrumented file; it printed:\n  ${printed.join('\n  ')}`);

const [profile] = runtime.snapshot(runtime.getStore()).files;
const meta = profile.meta;
const counts = new Map(profile.counts);
const kindName = (fn, e) => cfg.edgeKindName(fn.edges[3 * e + 2]);
for (const fn of meta.functions) {
  const numbering = numberingOf(meta, fn);
  const rows = [];
  for (let p = 0; p < fn.path.pathCount; p++) {
    const n = counts.get(fn.path.storage.offset + p) ?? 0;
    if (n === 0) continue;
    const decoded = decodePath(numbering, p);
    const start = decoded.start.kind === 'entry' ? '' : '(after loop back) ';
    const line = (e) => fn.ranges[4 * fn.edgeRanges[e]] ?? '?';
    const steps = decoded.edges
      .filter((e) => fn.edgeRanges[e] >= 0)
      .map((e) => `L${line(e)} ${kindName(fn, e)}`);
    rows.push(`  ${String(n).padStart(5)} × path ${p}: ${start}${steps.join(' → ')}`);
  }
  console.log(`\n${fn.name}: ${rows.length} of ${fn.path.pathCount} potential paths executed`);
  console.log(rows.join('\n'));
}
console.log("\nPrint any file's graphs with: npx pathprof-cfg FILE [FUNCTION] [--dot]");
