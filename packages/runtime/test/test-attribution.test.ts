import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  attributeTests,
  ContextState,
  getStore,
  mergeProfileCounts,
  ROOT_STACK,
  HashCounter,
  mergeProfiles,
  readProfile,
  testEnded,
  testStarted,
  validateProfile,
  writeProfiles,
  type ContextCounts,
  type FileRecord,
  type Profile,
} from '../src';
import { ContextMerge } from '../src/context-merge';

const meta = JSON.stringify({ format: 'pathprof-meta/1', functions: [] });

/** Each count lands in exactly one test's entry (or outside tests'): the entries add up to the totals. */
function expectPartition(profile: Profile): void {
  for (const file of profile.files) {
    const summed = new Map<number, number>();
    const hashed = new Map<string, number>();
    for (const test of profile.tests!) {
      for (const f of test.files.filter((f) => f.key === file.key)) {
        for (const [i, n] of f.counts) summed.set(i, (summed.get(i) ?? 0) + n);
        for (const [slot, pairs] of f.hashed)
          for (const [p, n] of pairs) hashed.set(`${slot}:${p}`, (hashed.get(`${slot}:${p}`) ?? 0) + n);
      }
    }
    expect([...summed].sort((a, b) => a[0] - b[0])).toEqual(file.counts);
    expect([...hashed].sort()).toEqual(
      file.hashed.flatMap(([slot, pairs]) => pairs.map(([p, n]) => [`${slot}:${p}`, n])).sort(),
    );
  }
}

describe('counts split by test', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pathprof-tests-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function record(key: string, size: number): FileRecord {
    return {
      key,
      hash: 'h',
      meta,
      outputDir: dir,
      counts: new Float64Array(size),
      variables: [],
      hashed: [new HashCounter()],
    };
  }

  test('each count goes to the test running when it was counted, or outside tests; written beside the totals', () => {
    const store = getStore({});
    const a = record('src/a.js', 4);
    store.files[a.key] = a;
    attributeTests(store, 'test/a.test.js', true);
    a.counts[0]++; // loading the module
    testStarted(store, ['coupons', 'percent']);
    a.counts[1] += 2;
    a.hashed[0].inc(7);
    testEnded(store);
    a.counts[0]++; // an afterAll hook
    testStarted(store, ['fixed']);
    // A file loaded during a test counts from zero.
    const b = record('src/b.js', 2);
    store.files[b.key] = b;
    b.counts[1]++;
    a.hashed[0].inc(7);
    a.hashed[0].inc(9);
    testEnded(store);
    testStarted(store, ['coupons', 'percent']); // retried: the same test
    a.counts[1]++;
    testEnded(store);
    const [first] = writeProfiles(store);
    const profile = readProfile(first);
    expect(profile.testFile).toBe('test/a.test.js');
    expect(profile.tests).toEqual([
      { name: null, files: [{ key: 'src/a.js', counts: [[0, 2]], hashed: [] }] },
      {
        name: ['coupons', 'percent'],
        files: [{ key: 'src/a.js', counts: [[1, 3]], hashed: [[0, [[7, 1]]]] }],
      },
      {
        name: ['fixed'],
        files: [
          {
            key: 'src/a.js',
            counts: [],
            hashed: [
              [
                0,
                [
                  [7, 1],
                  [9, 1],
                ],
              ],
            ],
          },
          { key: 'src/b.js', counts: [[1, 1]], hashed: [] },
        ],
      },
    ]);
    expectPartition(profile);

    // Written counters are zeroed: what the next test counts starts from zero, and the writes merge per test.
    testStarted(store, ['fixed']);
    a.counts[1]++;
    a.hashed[0].inc(9);
    testEnded(store);
    const [second] = writeProfiles(store);
    expectPartition(readProfile(second));
    const merged = mergeProfiles([profile, readProfile(second)]);
    const fixed = merged.find((f) => f.key === 'src/a.js')!.tests!.find((t) => t.name?.[0] === 'fixed')!;
    expect(fixed).toEqual({
      testFile: 'test/a.test.js',
      name: ['fixed'],
      counts: [[1, 1]],
      hashed: [
        [
          0,
          [
            [7, 1],
            [9, 2],
          ],
        ],
      ],
    });
  });

  test('calling contexts split by test: each entry and path in the test running when counted, summing to the totals', () => {
    const store = getStore({});
    const state = (store.contexts = new ContextState());
    // Two functions of one file: f (context value 0) and g (1), paths counted per context (2 paths each).
    const c: FileRecord = {
      ...record('src/c.js', 0),
      hashed: [],
      contexts: state.addFile('src/c.js', 'h', 2),
    };
    store.files[c.key] = c;
    const file = c.contexts!;
    /** f entered with nothing running, taking path `fPath`, calling g back (a callback: a push) `gCalls` times. */
    const run = (fPath: number, gCalls: number, gPath: number) => {
      state.v = -1;
      state.s = ROOT_STACK;
      (state.enterPaths(file, 0, 2, 100) as number[])[fPath]++;
      for (let i = 0; i < gCalls; i++) {
        const [v, s] = [state.v, state.s];
        (state.enterPaths(file, 1, 2, 100) as number[])[gPath]++;
        [state.v, state.s] = [v, s];
      }
    };
    attributeTests(store, 'test/c.test.js', true);
    run(0, 0, 0); // loading the module
    testStarted(store, ['one']);
    run(1, 2, 0);
    testEnded(store);
    testStarted(store, ['two']);
    run(1, 1, 1);
    run(0, 1, 0);
    testEnded(store);
    const profile = readProfile(writeProfiles(store)[0]);
    const contextsOf = (name: string[] | null) =>
      profile.tests!.find((t) => JSON.stringify(t.name) === JSON.stringify(name))!.files[0].contexts!;
    const stack = [-1, 'src/c.js', 'h', 0, 0, 1];
    expect(contextsOf(null)).toEqual({ stacks: [], entries: [[-1, 0, 1]], paths: [[-1, 0, [[0, 1]]]] });
    expect(contextsOf(['one'])).toEqual({
      stacks: [stack],
      entries: [
        [-1, 0, 1],
        [0, 1, 2],
      ],
      paths: [
        [-1, 0, [[1, 1]]],
        [0, 1, [[0, 2]]],
      ],
    });
    expect(contextsOf(['two'])).toEqual({
      stacks: [stack],
      entries: [
        [-1, 0, 2],
        [0, 1, 2],
      ],
      paths: [
        [
          -1,
          0,
          [
            [0, 1],
            [1, 1],
          ],
        ],
        [
          0,
          1,
          [
            [0, 1],
            [1, 1],
          ],
        ],
      ],
    });
    const sum = (all: ContextCounts[]) => {
      const merge = new ContextMerge();
      for (const contexts of all) merge.add(contexts);
      return merge.result();
    };
    expect(sum(profile.tests!.map((t) => t.files[0].contexts!))).toEqual(sum([profile.files[0].contexts!]));

    // Written contexts are cleared: the next test's start from zero, and the merge sums them per test.
    testStarted(store, ['one']);
    run(0, 1, 1);
    testEnded(store);
    const second = readProfile(writeProfiles(store)[0]);
    expect(second.tests).toEqual([
      {
        name: ['one'],
        files: [
          {
            key: 'src/c.js',
            counts: [],
            hashed: [],
            contexts: {
              stacks: [stack],
              entries: [
                [-1, 0, 1],
                [0, 1, 1],
              ],
              paths: [
                [-1, 0, [[0, 1]]],
                [0, 1, [[1, 1]]],
              ],
            },
          },
        ],
      },
    ]);
    const [merged] = mergeProfileCounts([profile, second]);
    expect(merged.testContexts!.map((t) => t.name)).toEqual([null, ['one'], ['two']]);
    const one = merged.testContexts!.find((t) => t.name?.[0] === 'one')!.contexts;
    expect(one.entries).toEqual([
      [-1, 0, 2],
      [0, 1, 3],
    ]);
    expect(sum(merged.testContexts!.map((t) => t.contexts))).toEqual(merged.contexts);
  });

  test('without names, the profile names its test file and merges as one test', () => {
    const store = getStore({});
    const a = record('src/a.js', 2);
    store.files[a.key] = a;
    attributeTests(store, 'test/a.test.js');
    testStarted(store, ['ignored']);
    a.counts[1] += 3;
    testEnded(store);
    const profile = readProfile(writeProfiles(store)[0]);
    expect(profile).toMatchObject({ testFile: 'test/a.test.js', files: [{ counts: [[1, 3]] }] });
    expect(profile.tests).toBeUndefined();
    expect(mergeProfiles([profile, profile])[0].tests).toEqual([
      { testFile: 'test/a.test.js', counts: [[1, 6]], hashed: [] },
    ]);
  });

  test('a profile whose tests are malformed is refused, naming the problem', () => {
    const base = {
      format: 'pathprof-profile/1',
      created: '',
      pid: 1,
      files: [{ key: 'a', hash: 'h', meta: null, counts: [], hashed: [] }],
    };
    const bad = (extra: object) => () => validateProfile({ ...base, ...extra }, 'p.json');
    expect(bad({ tests: [] })).toThrow('p.json: "tests" without a "testFile"');
    expect(bad({ testFile: 't', tests: [{ name: 'x', files: [] }] })).toThrow(
      'tests[0].name is neither null nor a list of names',
    );
    expect(
      bad({ testFile: 't', tests: [{ name: null, files: [{ key: 'b', counts: [], hashed: [] }] }] }),
    ).toThrow('tests[0].files[0] names no file of the profile');
    expect(
      bad({ testFile: 't', tests: [{ name: null, files: [{ key: 'a', counts: [[1]], hashed: [] }] }] }),
    ).toThrow('tests[0].files[0].counts is not a list of [index, count] pairs');
  });
});
