// A real project's files through @babel/preset-env, as a jest or bundler build compiles them:
// `node preset-env-transform.mjs DIR [REPEATS]` transforms every .js file under DIR with preset-env alone, with
// pathprof (path, edge) and with istanbul, each file REPEATS times (median), and prints the totals as JSON:
// per tool { ms, cpuMs, bytes } (CPU time: user + system of this process, which other jobs move less). The checkout is not part of the repository (luxon's src/ was used: README).
import { Buffer } from 'node:buffer';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { require, transform } from './tools.mjs';

const [dir, repeats = '3'] = process.argv.slice(2);
const files = readdirSync(dir, { recursive: true })
  .filter((name) => name.endsWith('.js'))
  .sort()
  .map((name) => join(dir, name));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const presets = [[require.resolve('@babel/preset-env'), { targets: { node: 'current' } }]];
const totals = {};
for (const tool of ['babel', 'path', 'edge', 'istanbul']) {
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
  totals[tool] = { ms, cpuMs, bytes };
}
console.log(JSON.stringify({ files: files.length, totals }));
