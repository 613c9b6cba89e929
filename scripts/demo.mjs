#!/usr/bin/env node
// The README's main job. Until the Babel plugin exists: build, then show what pathprof sees in an example
// file — each function's control-flow graph, its potential acyclic paths, and a traced run's edge sequences.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import vm from 'node:vm';

const require = createRequire(import.meta.url);
const build = spawnSync('npx', ['tsc', '-b'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const cfg = require('../packages/cfg/dist/index.js');
const { numberPaths } = require('../packages/numbering/dist/index.js');

const file = process.argv[2] ?? 'packages/cfg/test/fixtures/hard-combinations.js';
const source = readFileSync(file, 'utf8');
const graphs = cfg.buildFileCfgs(cfg.parseSource(source, file).program, file);

console.log(`pathprof demo: ${file}\n`);
console.log('function                       blocks  edges  potential paths');
for (const g of graphs) {
  const numbering = numberPaths(g);
  console.log(`${g.name.padEnd(30)} ${String(g.blockCount).padStart(6)} ${String(g.edgeCount).padStart(6)}  ${numbering.pathCount}`);
}
const shown = graphs.find((g) => g.kind === 'function') ?? graphs[0];
console.log(`\nGraph of ${shown.name} (edges in id order; ~> marks exceptional edges):\n${cfg.formatArrows(shown)}`);

const traced = cfg.instrumentForTrace(source, file);
const recorder = new cfg.TraceRecorder();
const printed = [];
vm.runInNewContext(traced.code, { [cfg.TRACE_GLOBAL]: recorder, print: (...v) => printed.push(v.join(' ')) });
const activations = cfg.checkTrace(traced.graphs, recorder.events, false);
console.log(`\nTraced run: ${activations.length} activations, every one a path of its graph. Output:\n  ${printed.join('\n  ')}`);
for (const a of activations.filter((x) => traced.graphs[x.graph] === traced.graphs[graphs.indexOf(shown)]).slice(0, 3)) {
  console.log(`  ${shown.name} activation ${a.activation}: edges ${a.edges.join(' ')}`);
}
console.log('\nPrint any file\'s graphs with: npx pathprof-cfg FILE [FUNCTION] [--dot]');
