import { getStore, HASH_FRONT_SLOTS, registerFile, snapshot, type FileRecord } from '../src';

/** What interprocedural code does at a path end (the plugin's emitted counting function, after the body ran). */
function count(record: FileRecord, path: number, table: number): void {
  const front = record.front!;
  const slot = path & (HASH_FRONT_SLOTS - 1);
  if (front.keys[slot] === path) front.counts[slot]++;
  else front.miss(path, table);
}

describe("the cache in front of a file's hash tables", () => {
  const meta = JSON.stringify({
    format: 'pathprof-meta/1',
    file: 'src/f.js',
    mode: 'interprocedural',
    functions: [],
  });
  beforeEach(() => {
    for (const key of Object.keys(getStore().files)) delete getStore().files[key];
  });

  test('paths that share a slot, in two tables, counted in turn: every count reaches its table', () => {
    const record = registerFile('src/f.js', 'h', meta, '.pathprof', 0, 2);
    const expected = [new Map<number, number>(), new Map<number, number>()];
    // Paths 5, 5 + SLOTS, 5 + 2·SLOTS… all land in slot 5; paths above 2^32 too (the slot is the low bits).
    const paths = [5, 5 + HASH_FRONT_SLOTS, 5 + 2 * HASH_FRONT_SLOTS, 2 ** 40 + 5, 9];
    for (let i = 0; i < 500; i++) {
      const path = paths[(i * 7) % paths.length];
      const table = paths.indexOf(path) % 2;
      const times = 1 + (i % 3);
      for (let k = 0; k < times; k++) count(record, path, table);
      expected[table].set(path, (expected[table].get(path) ?? 0) + times);
    }
    const sorted = (m: Map<number, number>) => [...m].sort((a, b) => a[0] - b[0]);
    expect(record.hashed.map((h) => h.entries().sort((a, b) => a[0] - b[0]))).toEqual(expected.map(sorted));
    // Read twice: the flush moved the counts, it did not copy them.
    expect(record.hashed.map((h) => h.entries().sort((a, b) => a[0] - b[0]))).toEqual(expected.map(sorted));
    count(record, 9, 0);
    expected[0].set(9, expected[0].get(9)! + 1);
    expect(snapshot(getStore()).files[0].hashed).toEqual([
      [0, sorted(expected[0])],
      [1, sorted(expected[1])],
    ]);
  });

  test("a miss of the path its slot already holds counts it there (calls before the file's body ran)", () => {
    const record = registerFile('src/f.js', 'h', meta, '.pathprof', 0, 1);
    record.front!.miss(3, 0);
    record.front!.miss(3, 0);
    count(record, 3, 0);
    expect(record.hashed[0].entries()).toEqual([[3, 3]]);
  });

  test('clearing the tables (after a write) drops what the cache held too', () => {
    const record = registerFile('src/f.js', 'h', meta, '.pathprof', 0, 1);
    count(record, 1, 0);
    count(record, 1, 0);
    record.hashed[0].clear();
    count(record, 1, 0);
    expect(record.hashed[0].entries()).toEqual([[1, 1]]);
  });

  test('only files with hash tables get a cache', () => {
    expect(registerFile('src/g.js', 'h', meta, '.pathprof', 3, 0).front).toBeUndefined();
  });
});
