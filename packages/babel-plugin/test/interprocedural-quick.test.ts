import { readFileSync } from 'node:fs';
import { checkInterproceduralOnProgram, checkInterproceduralOnSource } from './support/interprocedural-on-program';

test('pow', () => {
  const stats = { crossedEntries: 0, crossedThrows: 0, handlerRestarts: 0 };
  const source = readFileSync('/tmp/ipp/pow.js', 'utf8');
  for (const scheme of ['piecewise', 'context'] as const)
    checkInterproceduralOnSource(source, 'pow.js', [[]], 'pow', scheme, stats);
  console.log(stats);
});

test('generated', () => {
  const stats = { crossedEntries: 0, crossedThrows: 0, handlerRestarts: 0 };
  for (let seed = 1; seed <= 200; seed++) checkInterproceduralOnProgram(seed, stats);
  console.log(stats);
}, 600000);
