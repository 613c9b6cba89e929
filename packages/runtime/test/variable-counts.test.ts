import {
  attributeTests,
  getStore,
  registerFile,
  snapshot,
  takeCounts,
  testEnded,
  testStarted,
  type Profile,
} from '../src';

const meta = JSON.stringify({ format: 'pathprof-meta/1', file: 'src/e.js', mode: 'edge', functions: [] });

/**
 * One evaluation of an edge-mode file as the plugin emits it: counters 1, 2 and 4 in module variables (runs
 * [1, 3, 4, 5]), the others in the array; `declare()` is the body's `var v1 = 0, …`, before which the
 * variables are undefined.
 */
function evaluation() {
  const v: (number | undefined)[] = [undefined, undefined, undefined];
  const record = registerFile('src/e.js', 'h', meta, '.pathprof', 6, 0, 0, () => v, [1, 3, 4, 5]);
  return {
    record,
    declare: () => v.fill(0),
    count: (slot: 1 | 2 | 4, times = 1) => {
      v[slot === 4 ? 2 : slot - 1]! += times;
    },
  };
}

const counts = (profile: Profile | null) => profile?.files.find((f) => f.key === 'src/e.js')?.counts;

describe("counters in a file's module variables", () => {
  beforeEach(() => {
    const store = getStore();
    for (const key of Object.keys(store.files)) delete store.files[key];
  });

  test('every reader sees them added into the array, once however often it reads', () => {
    const e = evaluation();
    e.declare();
    e.count(1, 3);
    e.count(4);
    e.record.counts[0] += 2;
    e.record.counts[4] += 5; // an array count of a slot a variable also counts (exceptional exits do)
    expect(counts(snapshot(getStore()))).toEqual([
      [0, 2],
      [1, 3],
      [4, 6],
    ]);
    expect(counts(snapshot(getStore()))).toEqual([
      [0, 2],
      [1, 3],
      [4, 6],
    ]);
    // Taken: the array is zeroed and the variables are not, so only what they gain after counts again.
    expect(counts(takeCounts(getStore()))).toEqual([
      [0, 2],
      [1, 3],
      [4, 6],
    ]);
    expect(takeCounts(getStore())).toBeNull();
    e.count(2);
    expect(counts(takeCounts(getStore()))).toEqual([[2, 1]]);
  });

  test("read before the file's body declared them (a hoisted function registered the file): nothing from them", () => {
    const e = evaluation();
    e.record.counts[0]++;
    expect(counts(snapshot(getStore()))).toEqual([[0, 1]]);
    e.declare();
    e.count(2, 2);
    expect(counts(snapshot(getStore()))).toEqual([
      [0, 1],
      [2, 2],
    ]);
  });

  test('a file evaluated twice in one realm: one record, each evaluation counting in its own variables', () => {
    const first = evaluation();
    first.declare();
    first.count(1);
    const second = evaluation();
    expect(second.record).toBe(first.record);
    second.declare();
    second.count(1, 2);
    first.count(4);
    expect(counts(snapshot(getStore()))).toEqual([
      [1, 3],
      [4, 1],
    ]);
  });

  test('counts by test: each test gets what its variables gained while it ran', () => {
    const store = getStore();
    attributeTests(store, 'test/e.test.js', true);
    const e = evaluation();
    e.declare();
    e.count(1); // loading the module
    testStarted(store, ['a']);
    e.count(2, 2);
    testEnded(store);
    testStarted(store, ['b']);
    e.count(2);
    e.count(4);
    testEnded(store);
    const profile = takeCounts(store)!;
    expect(profile.tests).toEqual([
      { name: null, files: [{ key: 'src/e.js', counts: [[1, 1]], hashed: [] }] },
      { name: ['a'], files: [{ key: 'src/e.js', counts: [[2, 2]], hashed: [] }] },
      {
        name: ['b'],
        files: [
          {
            key: 'src/e.js',
            counts: [
              [2, 1],
              [4, 1],
            ],
            hashed: [],
          },
        ],
      },
    ]);
  });
});
