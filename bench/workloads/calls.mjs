// The call-heavy kernel (bench/kernels/crossed-calls.cjs) run BENCH_ITERATIONS times.
import { join } from 'node:path';
import { require } from '../tools.mjs';

const { run } = require(join(process.env.BENCH_LIB, 'kernels/crossed-calls.cjs'));
let sum = 0;
for (let i = 0; i < Number(process.env.BENCH_ITERATIONS); i++) sum += run(300000);
console.log(`calls sum ${sum}`);
