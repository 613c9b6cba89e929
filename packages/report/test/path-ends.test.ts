import { decodePath } from '@pathprof/numbering';
import {
  aggregateFigures,
  formatPercent,
  functionFigures,
  percentOf,
  type FunctionFigures,
  type FunctionPaths,
  type ProfiledFile,
} from '../src';
import { istanbulFigures } from '../src/html/file-page';
import { profileInProcess } from './support/in-process';
import { built } from './support/runs';

const source = `
function g(x) {
  if (x === 2) return null.boom;
  return x;
}
function guarded(a) {
  try {
    if (a === 1) throw new Error('explicit');
    g(a);
  } finally {
    g(0);
  }
  return a;
}
function caught(a) {
  try {
    return g(a);
  } catch (e) {
    return -1;
  }
}
for (const a of [0, 1, 2]) {
  try {
    guarded(a);
  } catch (e) {}
}
caught(2);
if (caught(0) === 1) throw new Error('never');
`;

function fn(file: ProfiledFile, name: string): FunctionPaths {
  return file.functions.find((f) => f.meta.name === name)!;
}

/** How each executed path of a function ended, by count. */
function executedEnds(f: FunctionPaths): Record<string, number> {
  const ends: Record<string, number> = {};
  for (const [id, n] of f.counts) {
    const kind = f.ends.kindOf(decodePath(f.numbering, id));
    ends[kind] = (ends[kind] ?? 0) + n;
  }
  return ends;
}

/**
 * Paths that end by an implicit exception, told apart on real graphs: a `throw` (even rethrown by a `finally`)
 * is explicit, an exception of a call or property read is implicit, and one the function catches itself is no
 * exception end at all.
 */
(built ? describe : describe.skip)('how real paths end', () => {
  const file = profileInProcess(source, 'path-ends.js');

  test('a throw stays explicit through a finally; a property read throwing is implicit', () => {
    // guarded(0) returns; guarded(1) throws through the finally; guarded(2): g's null.boom through the finally.
    expect(executedEnds(fn(file, 'guarded'))).toEqual({ return: 1, throw: 1, exception: 1 });
    expect(executedEnds(fn(file, 'g'))).toEqual({ return: 3 + 2, exception: 2 });
    // caught(2): g threw, the catch returned -1; caught(0) returned 0.
    expect(executedEnds(fn(file, 'caught'))).toEqual({ return: 2 });
  });

  test('the figures count explicit throws and leave implicit exceptions apart', () => {
    const guarded = fn(file, 'guarded');
    const { counts } = guarded.ends;
    expect(counts.throw).toBeGreaterThan(0);
    expect(functionFigures(guarded, { implicitExceptions: false })).toEqual({
      potentialPaths: counts.return + counts.throw,
      executedPaths: 2,
      coverage: Math.round((10000 * 2) / (counts.return + counts.throw)) / 100,
      exceptionPaths: { potentialPaths: counts.exception, executedPaths: 1, counted: false },
    });
    expect(functionFigures(guarded, { implicitExceptions: true })).toMatchObject({
      potentialPaths: guarded.numbering.pathCount,
      executedPaths: 3,
      exceptionPaths: { potentialPaths: counts.exception, executedPaths: 1, counted: true },
    });
  });

  test('top-level code: an escaping exception is never recorded, so even a throw is left apart', () => {
    const program = fn(file, '<program>');
    expect(program.ends.counts.throw).toBe(0);
    expect(program.ends.counts.exception).toBeGreaterThan(0);
    const { counts } = program.ends;
    expect(functionFigures(program, { implicitExceptions: false })).toMatchObject({
      potentialPaths: counts.return + counts.backedge + counts.cut,
    });
  });
});

describe('percentages', () => {
  const figures = (executedPaths: number, potentialPaths: number): FunctionFigures => ({
    executedPaths,
    potentialPaths,
    coverage: null,
    exceptionPaths: { executedPaths: 0, potentialPaths: 0, counted: false },
  });
  const options = { implicitExceptions: false };

  test("never 0% or 100% unless exact, pooled, mean or istanbul's; nothing to divide by is n/a", () => {
    // A function of luxon's: 43 of 933,899 paths ran. Rounded to 2 decimals that was 0, printed 0.0%.
    const huge = aggregateFigures([figures(43, 933_899)], options);
    expect([huge.coverage, formatPercent(huge.coverage)]).toEqual([0.01, '<0.1%']);
    const almost = aggregateFigures([figures(99_999, 100_000), figures(1, 1)], options);
    expect([almost.coverage, almost.meanCoverage]).toEqual([99.99, 99.99]);
    expect(formatPercent(almost.meanCoverage)).toBe('>99.9%');
    const exact = aggregateFigures([figures(0, 3), figures(2, 2)], options);
    expect([exact.coverage, exact.meanCoverage]).toEqual([40, 50]);
    expect(aggregateFigures([figures(3, 3)], options).coverage).toBe(100);
    expect(aggregateFigures([figures(0, 3)], options).coverage).toBe(0);
    const none = aggregateFigures([figures(0, 0)], options);
    expect([none.coverage, none.meanCoverage, formatPercent(none.coverage)]).toEqual([null, null, 'n/a']);
    // istanbul's figures in the HTML report too: its summary says 100% for 0 of 0 branches, and rounds
    // 99,999 of 100,000 statements to 100.
    expect([percentOf(0, 0), percentOf(99_999, 100_000), percentOf(2, 3)]).toEqual([null, 99.99, 66.67]);
    expect(
      istanbulFigures({
        statements: { covered: 5, total: 5 },
        branches: { covered: 0, total: 0 },
        functions: { covered: 2, total: 3 },
        lines: { covered: 99_999, total: 100_000 },
      }),
    ).toBe(
      '<p class="istanbul">As istanbul counts: statements 5/5 (100.0%), branches 0/0 (n/a), functions 2/3 (66.7%), lines 99999/100000 (>99.9%).</p>',
    );
  });
});
