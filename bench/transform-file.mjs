// One transform measurement in a fresh process, so that peak memory is this transform's alone:
// `node transform-file.mjs TOOL FILE REPEATS` prints { ms, cpuMs (medians; CPU: user + system, which other jobs
// move less), lastMs, lastCpuMs (the last repeat's: warm, as in a build that transforms many files in one
// process), bytes, maxRssMb } as JSON.
import { Buffer } from 'node:buffer';
import { performance } from 'node:perf_hooks';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { transform } from './tools.mjs';

const [tool, relative, repeats] = process.argv.slice(2);
const file = resolve(relative);
const code = readFileSync(file, 'utf8');
// Loading Babel and the plugin is paid once per process by every tool: leave it out of the timing.
transform(tool, 'function warm(a) { return a ? 1 : 2; }', `${dirname(file)}/warm.js`, dirname(file));
const times = [];
const cpuTimes = [];
let bytes = 0;
for (let i = 0; i < Number(repeats); i++) {
  const start = performance.now();
  const cpu = process.cpuUsage();
  bytes = Buffer.byteLength(transform(tool, code, file, dirname(file)));
  const used = process.cpuUsage(cpu);
  times.push(performance.now() - start);
  cpuTimes.push((used.user + used.system) / 1000);
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(
  JSON.stringify({
    ms: median(times),
    cpuMs: median(cpuTimes),
    lastMs: times.at(-1),
    lastCpuMs: cpuTimes.at(-1),
    bytes,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
  }),
);
