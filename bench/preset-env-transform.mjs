// A real project's files through @babel/preset-env, as a jest or bundler build compiles them:
// `node preset-env-transform.mjs DIR [REPEATS]` transforms every .js file under DIR with preset-env alone, with
// pathprof (path, edge) and with istanbul, each file REPEATS times (median), and prints the totals as JSON:
// per tool { ms, cpuMs, bytes } (CPU time: user + system, which other jobs move less). Each tool runs in a
// process of its own (`node preset-env-transform.mjs DIR REPEATS TOOL`), so that none finds Babel and the preset
// already warmed by another's files. The checkout is not part of the repository (luxon's src/ was used: README).
import { Buffer } from 'node:buffer';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { require, transform } from './tools.mjs';

const [dir, repeats = '3', only] = process.argv.slice(2);
const files = readdirSync(dir, { recursive: true })
  .filter((name) => name.endsWith('.js'))
  .sort()
  .map((name) => join(dir, name));

if (only) console.log(JSON.stringify(measure(only)));
else {
  const totals = {};
  for (const tool of ['babel', 'path', 'edge', 'istanbul']) {
    const args = [fileURLToPath(import.meta.url), dir, repeats, tool];
    const result = spawnSync(process.execPath, args, { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`preset-env transform with ${tool} failed:\n${result.stderr}`);
    totals[tool] = JSON.parse(result.stdout);
  }
  console.log(JSON.stringify({ files: files.length, totals }));
}

/** The files through preset-env and `tool`: summed medians of each file's REPEATS transforms. */
function measure(tool) {
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const presets = [[require.resolve('@babel/preset-env'), { targets: { node: 'current' } }]];
  // Loading Babel, the preset and the plugin is paid once per process: leave it out of the timing.
  transform(tool, 'export function warm(a) { return a ? 1 : 2; }', join(dir, 'warm.js'), dir, presets);
  let ms = 0;
  let cpuMs = 0;
  let bytes = 0;
  for (const file of files) {
    const code = readFileSync(file, 'utf8');
    const times = [];
    const cpuTimes = [];
    let out = '';
    for (let i = 0; i < Number(repeats); i++) {
      const start = performance.now();
      const cpu = process.cpuUsage();
      out = transform(tool, code, file, dir, presets);
      const used = process.cpuUsage(cpu);
      times.push(performance.now() - start);
      cpuTimes.push((used.user + used.system) / 1000);
    }
    ms += median(times);
    cpuMs += median(cpuTimes);
    bytes += Buffer.byteLength(out);
  }
  return { ms, cpuMs, bytes };
}
