// acorn parsing lodash.js (546 KB of ES5) BENCH_ITERATIONS times, with locations, as a linter would.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { require } from '../tools.mjs';

// V8's allocation-site pretenuring decides once per process, from where the first scavenges at the young
// generation's full size fall within a parse, whether acorn's array and object literals are allocated in the
// old generation from then on. That course costs 0.15-0.2 s more of garbage collection and is drawn by the
// phase of the allocation, not by the code: 3 MB of garbage allocated before the first parse took path mode
// from 3 slow processes of 4 to none (bench/NOTES.md, "acorn's bimodal run time"). Every tool's process runs
// without pretenuring, so that all of them take the same (fast) course and the ratios compare like with like.
setFlagsFromString('--no-allocation-site-pretenuring');

const acorn = require(join(process.env.BENCH_LIB, 'acorn/dist/acorn.js'));
const source = readFileSync(require.resolve('lodash/lodash.js'), 'utf8');
let statements = 0;
for (let i = 0; i < Number(process.env.BENCH_ITERATIONS); i++) {
  statements += acorn.parse(source, { ecmaVersion: 'latest', locations: true }).body.length;
}
console.log(`statements ${statements}`);
