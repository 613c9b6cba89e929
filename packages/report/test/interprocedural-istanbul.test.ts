import { istanbulCoverages, type IstanbulFileCoverage } from '../src';
import { crossesCalls, interproceduralReport } from '../src/interprocedural-report';
import { Problems } from '../src/problems';
import { profileInProcess } from './support/in-process';
import { built } from './support/runs';

// Crossed calls in loops on both sides, a callee whose loop restarts paths inside it, exceptions out of crossed
// callees caught in a caller's handler and passed through a caller without one, recursion (a cut site), a call
// in a condition and after a throwing call in one block.
const source = `
function pow(x, n) {
  let r = 1;
  for (let i = 0; i < n; i++) r *= x;
  return r;
}
function check(v) {
  if (v > 20) throw new Error('big ' + v);
  return v;
}
function relay(v) {
  const w = check(v);
  return w + 1;
}
function fact(n) {
  return n <= 1 ? 1 : n * fact(n - 1);
}
function main(limit) {
  let total = 0;
  for (let i = 0; i < limit; i++) {
    try {
      total += relay(pow(i, 2)) + (check(i) > 2 ? fact(i) : 0);
    } catch (e) {
      total -= 1;
    }
    if (pow(2, i) > 8 && i % 2) total += 1;
  }
  return total;
}
main(7);
main(2);
`;

function coverageOf(options: Parameters<typeof profileInProcess>[2]): {
  coverage: IstanbulFileCoverage[];
  notes: string[];
} {
  const file = profileInProcess(source, 'interprocedural-istanbul.js', options);
  if (file.interprocedural) {
    // The run exercised what the derivation must get right: paths across calls, exceptions out of them.
    const report = interproceduralReport(file)!;
    expect(report.paths.some(crossesCalls)).toBe(true);
    expect(report.paths.some((p) => p.steps.some((s) => s.text.includes('after an exception')))).toBe(true);
  }
  const problems = new Problems();
  const coverage = istanbulCoverages([file], problems);
  return { coverage, notes: problems.messages };
}

/**
 * A file counted in interprocedural mode gets the istanbul coverage (so the lcov) a path-mode run of the same
 * program gets: its paths decode into walks of each function's edges, which give the same edge and block counts.
 */
(built ? describe : describe.skip)('istanbul coverage of a file counted in interprocedural mode', () => {
  const byPathMode = coverageOf({});

  test.each(['piecewise', 'context'] as const)('%s scheme: the same as in path mode', (scheme) => {
    const byInterprocedural = coverageOf({ mode: 'interprocedural', scheme });
    expect(byPathMode.coverage).toHaveLength(1);
    expect(byInterprocedural).toEqual(byPathMode);
  });
});
