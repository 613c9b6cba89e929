import { Problems } from '../src/problems';

describe('problems as printed', () => {
  test('more than three files skipped for one reason are one line, in the place of the first', () => {
    const problems = new Problems();
    problems.add('profile a.json: truncated');
    for (const key of ['src/a.ts', 'src/b.ts', 'src/c.ts', 'src/d.ts', 'src/e.ts'])
      problems.skip(key, 'compiled before Babel with no source map');
    problems.skip('src/f.ts', 'source changed since it was instrumented (rerun the tests)');
    expect(problems.printed()).toEqual([
      'profile a.json: truncated',
      '5 files skipped (compiled before Babel with no source map): src/a.ts, src/b.ts, src/c.ts and 2 more',
      'src/f.ts: source changed since it was instrumented (rerun the tests); skipped',
    ]);
    // Every file is still a message of its own for the report's other outputs.
    expect(problems.messages).toHaveLength(7);
  });

  test('three files skipped for one reason are a line each', () => {
    const problems = new Problems();
    for (const key of ['a.js', 'b.js', 'c.js']) problems.skip(key, 'metadata is not pathprof-meta/1');
    expect(problems.printed()).toEqual(problems.messages);
  });
});
