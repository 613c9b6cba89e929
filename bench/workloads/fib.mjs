// fib(30) BENCH_ITERATIONS times (bench/kernels/fib.cjs): recursion and nothing else, the per-activation
// cost of instrumentation laid bare.
import { join } from 'node:path';
import { require } from '../tools.mjs';

const { fib } = require(join(process.env.BENCH_LIB, 'kernels/fib.cjs'));
let sum = 0;
for (let i = 0; i < Number(process.env.BENCH_ITERATIONS); i++) sum += fib(30);
console.log(`fib sum ${sum}`);
