// A stack-machine program run BENCH_ITERATIONS times (bench/kernels/interpreter.cjs): a dispatch loop with
// a small function call for every stack operation.
import { join } from 'node:path';
import { require } from '../tools.mjs';

const { createMachine, run, sumProgram } = require(join(process.env.BENCH_LIB, 'kernels/interpreter.cjs'));
const program = sumProgram(100000);
let sum = 0;
for (let i = 0; i < Number(process.env.BENCH_ITERATIONS); i++) sum += run(createMachine(program, 2));
console.log(`interpreter sum ${sum}`);
