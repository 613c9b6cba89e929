// acorn parsing lodash.js (546 KB of ES5) BENCH_ITERATIONS times, with locations, as a linter would.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { require } from '../tools.mjs';

const acorn = require(join(process.env.BENCH_LIB, 'acorn/dist/acorn.js'));
const source = readFileSync(require.resolve('lodash/lodash.js'), 'utf8');
let statements = 0;
for (let i = 0; i < Number(process.env.BENCH_ITERATIONS); i++) {
  statements += acorn.parse(source, { ecmaVersion: 'latest', locations: true }).body.length;
}
console.log(`statements ${statements}`);
