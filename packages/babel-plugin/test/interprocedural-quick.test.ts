import { checkInterproceduralOnProgram } from './support/interprocedural-on-program';
test('generated', () => {
  const stats = { crossedEntries: 0, crossedThrows: 0, handlerRestarts: 0 };
  const t0 = Date.now();
  for (let seed = 1; seed <= 100; seed++) checkInterproceduralOnProgram(seed, stats);
  console.log(stats, Date.now() - t0);
}, 600000);
