import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ContextState,
  CONTEXTS_PROFILE_FORMAT,
  getStore,
  HashCounter,
  mergeProfiles,
  PROFILE_FORMAT,
  readProfile,
  registerFile,
  snapshot,
  validateProfile,
  writeProfiles,
  type Profile,
} from '../src';

const meta = JSON.stringify({ format: 'pathprof-meta/1', functions: [] });

function freshStore(): void {
  const store = getStore();
  for (const key of Object.keys(store.files)) delete store.files[key];
  delete store.contexts;
}

describe('ContextState: the running calling context of a realm', () => {
  test('files get ranges end to end; a numbered call hands its value over, an entry pushes its caller', () => {
    const x = new ContextState();
    const a = x.addFile('a.js', 'h', 5);
    const b = x.addFile('b.js', 'h', 3);
    expect([a.base, b.base]).toEqual([0, 5]);
    // Nothing runs: an entry starts on the empty stack.
    const main = x.enter(a, 1);
    expect([main, x.s]).toEqual([1, x.root]);
    // A numbered call: the caller hands value 3 over; the callee counts it on the same stack.
    x.h = 3;
    x.t = a.base + 3;
    expect(x.take(a)).toBe(3);
    expect(x.t).toBe(0);
    // A callback from value 3 into b's function at 1: pushed <3, unknown site>.
    const cb = x.enter(b, 1);
    expect(cb).toBe(6);
    expect([x.s.parent, x.s.caller, x.s.site, x.s.run]).toEqual([x.root, 3, 0, 1]);
    expect([x.s.callee, x.s.n, x.s.entries()]).toEqual([6, 1, [[6, 1]]]);
    expect([...a.counts]).toEqual([0, 1, 0, 1, 0]);
    expect(x.fileOf(6)).toBe(b);
    expect(x.fileOf(8)).toBeUndefined();
  });

  test('a recursive call at site k pushes <value, k + 1>; the same entry again lengthens its run', () => {
    const x = new ContextState();
    const a = x.addFile('a.js', 'h', 4);
    x.enter(a, 0);
    const stacks = [];
    for (let depth = 0; depth < 5; depth++) {
      x.t = -3; // site 2
      x.enter(a, 0);
      stacks.push(x.s);
    }
    expect(stacks.map((s) => [s.parent, s.caller, s.site, s.run])).toEqual([
      [x.root, 0, 3, 1],
      [x.root, 0, 3, 2],
      [x.root, 0, 3, 3],
      [x.root, 0, 3, 4],
      [x.root, 0, 3, 5],
    ]);
    // Interned: the same pushes from the same stack give the same nodes.
    x.s = x.root;
    x.v = 0;
    x.t = -3;
    x.enter(a, 0);
    expect(x.s).toBe(stacks[0]);
    expect(x.nodes).toHaveLength(5);
  });

  test('past its most stacks a realm cuts: pushes on a stack give its cut node, and pushes on that give it', () => {
    const x = new ContextState(2);
    const a = x.addFile('a.js', 'h', 10);
    x.enter(a, 0);
    for (let i = 1; i <= 4; i++) {
      x.v = i; // a different caller each time: no runs
      x.enter(a, i);
    }
    const depth = (n: typeof x.s): number => (n.parent ? 1 + depth(n.parent) : 0);
    expect(x.nodes.map((n) => n.cut)).toEqual([false, false, true]);
    expect(x.s.cut).toBe(true);
    expect(depth(x.s)).toBe(3);
    // A cut node stands for any push (no callee of its own): every entry under it is counted by value.
    expect([x.s.callee, x.s.entries()]).toEqual([
      -1,
      [
        [3, 1],
        [4, 1],
      ],
    ]);
  });

  test('paths per context: each context has its own counter, a hash table above the threshold', () => {
    const x = new ContextState();
    const a = x.addFile('a.js', 'h', 4);
    x.enter(a, 0);
    const root = x.paths(a, 3, 8);
    expect(root).toBeInstanceOf(Float64Array);
    expect(x.paths(a, 3, 8)).toBe(root);
    x.enter(a, 2);
    expect(x.paths(a, 100, 8)).toBeInstanceOf(HashCounter);
  });

  test('contexts reached by numbered calls on a pushed stack: counts and path counters kept as the table grows', () => {
    const x = new ContextState();
    const a = x.addFile('a.js', 'h', 64);
    x.enter(a, 0);
    x.enter(a, 1); // pushed: a stack of its own
    const stack = x.s;
    const values = [5, 6, 5, 7, 8, 9, 10, 11, 12, 5, 6, 40, 6, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22];
    const counters = new Map<number, unknown>();
    for (const value of values) {
      x.h = value;
      expect(x.take(a)).toBe(value);
      const counter = x.paths(a, 2, 8);
      (counter as Float64Array)[value % 2]++;
      expect(counters.get(value) ?? counter).toBe(counter);
      counters.set(value, counter);
    }
    const wanted = new Map<number, number>([[1, 1]]);
    for (const value of values) wanted.set(value, (wanted.get(value) ?? 0) + 1);
    expect(new Map(stack.entries())).toEqual(wanted);
    const paths = new Map(stack.pathCounters().map(([v, c]) => [v, [...(c as Float64Array)]]));
    expect(paths.get(5)).toEqual([0, 3]);
    expect(paths.get(6)).toEqual([3, 0]);
    expect(paths.size).toBe(new Set(values).size);
    stack.clear(10, 64);
    expect(
      stack
        .entries()
        .map(([v]) => v)
        .sort((p, q) => p - q),
    ).toEqual([1, 5, 6, 7, 8, 9]);
    expect(
      stack
        .pathCounters()
        .map(([v]) => v)
        .sort((p, q) => p - q),
    ).toEqual([5, 6, 7, 8, 9]);
  });
});

describe('profiles with calling contexts (format 3)', () => {
  beforeEach(freshStore);

  test('a file counting contexts lists its stacks, its entries and its paths per context', () => {
    const a = registerFile('a.js', 'ha', meta, '.pathprof', 0, 0, 4).contexts!;
    const b = registerFile('b.js', 'hb', meta, '.pathprof', 0, 0, 2).contexts!;
    const x = a.state;
    expect(b.state).toBe(x);
    x.enter(a, 1);
    (x.paths(a, 2, 10) as Float64Array)[1]++;
    x.t = -5;
    x.enter(b, 0);
    x.enter(b, 1);
    const profile = snapshot(getStore());
    expect(profile.format).toBe(CONTEXTS_PROFILE_FORMAT);
    expect(validateProfile(JSON.parse(JSON.stringify(profile)), 'p.json')).toBeTruthy();
    const [fa, fb] = profile.files;
    expect(fa.contexts).toEqual({ stacks: [], entries: [[-1, 1, 1]], paths: [[-1, 1, [[1, 1]]]] });
    expect(fb.contexts).toEqual({
      stacks: [
        [-1, 'a.js', 'ha', 1, 5, 1],
        [0, 'b.js', 'hb', 0, 0, 1],
      ],
      entries: [
        [0, 0, 1],
        [1, 1, 1],
      ],
    });
  });

  test('a profile without contexts keeps its version; writing takes the counts and keeps the stacks', () => {
    registerFile('p.js', 'h', meta, '.pathprof', 2, 0).counts[0]++;
    expect(snapshot(getStore()).format).toBe(PROFILE_FORMAT);
    freshStore();
    const dir = mkdtempSync(join(tmpdir(), 'pathprof-contexts-'));
    const saved = process.env.PATHPROF_DIR;
    process.env.PATHPROF_DIR = dir;
    try {
      const a = registerFile('a.js', 'ha', meta, '.pathprof', 0, 0, 3).contexts!;
      const x = a.state;
      x.enter(a, 0);
      const [v, s] = [x.v, x.s];
      x.enter(a, 2);
      [x.v, x.s] = [v, s]; // the callee returns
      const [first] = writeProfiles();
      expect(readProfile(first).files[0].contexts!.entries).toEqual([
        [-1, 0, 1],
        [0, 2, 1],
      ]);
      // Counted since: only the new entry, on the stack it was counted on.
      x.enter(a, 2);
      const [second] = writeProfiles();
      expect(readProfile(second).files[0].contexts).toEqual({
        stacks: [[-1, 'a.js', 'ha', 0, 0, 1]],
        entries: [[0, 2, 1]],
      });
      expect(writeProfiles()).toEqual([]);
      // Two profiles, the metadata file they share, run.json.
      expect(readdirSync(dir).filter((n) => n.endsWith('.json'))).toHaveLength(4);
    } finally {
      if (saved === undefined) delete process.env.PATHPROF_DIR;
      else process.env.PATHPROF_DIR = saved;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('merging matches stacks by what they are, not by index, and adds counts of the same context', () => {
    const file = (contexts: Profile['files'][number]['contexts']) => ({
      format: CONTEXTS_PROFILE_FORMAT,
      created: '',
      pid: null,
      files: [{ key: 'a.js', hash: 'h', meta: { mode: 'contexts' }, counts: [], hashed: [], contexts }],
    });
    const one = file({
      stacks: [
        [-1, 'a.js', 'h', 0, 0, 1],
        [-1, 'a.js', 'h', 1, 0, 1],
      ],
      entries: [
        [1, 2, 5],
        [-1, 0, 1],
      ],
      paths: [[1, 2, [[0, 5]]]],
    });
    const two = file({
      stacks: [[-1, 'a.js', 'h', 1, 0, 1]],
      entries: [[0, 2, 2]],
      paths: [
        [
          0,
          2,
          [
            [0, 1],
            [1, 1],
          ],
        ],
      ],
    });
    const [merged] = mergeProfiles([one, two] as Profile[]);
    expect(merged.contexts).toEqual({
      stacks: [
        [-1, 'a.js', 'h', 0, 0, 1],
        [-1, 'a.js', 'h', 1, 0, 1],
      ],
      entries: [
        [-1, 0, 1],
        [1, 2, 7],
      ],
      paths: [
        [
          1,
          2,
          [
            [0, 6],
            [1, 1],
          ],
        ],
      ],
    });
  });

  test('a path-mode file with calling contexts never merges with the same file counted without them', () => {
    type Counted = Pick<Profile['files'][number], 'meta' | 'counts' | 'contexts'>;
    const profile = (format: Profile['format'], file: Counted): Profile => ({
      format,
      created: '',
      pid: null,
      files: [{ key: 'a.js', hash: 'h', hashed: [], ...file }],
    });
    const plain = profile(PROFILE_FORMAT, { meta: { mode: 'path' }, counts: [[0, 3]] });
    const perContext = (maxContexts: number) =>
      profile(CONTEXTS_PROFILE_FORMAT, {
        meta: { mode: 'path', contexts: { maxContexts } },
        counts: [],
        contexts: { stacks: [], entries: [[-1, 0, 2]], paths: [[-1, 0, [[0, 2]]]] },
      });
    const merged = mergeProfiles([plain, perContext(8), perContext(8), perContext(16), plain]);
    expect(merged.map((f) => [f.counts, f.contexts?.entries])).toEqual([
      [[[0, 6]], undefined],
      [[], [[-1, 0, 4]]],
      [[], [[-1, 0, 2]]],
    ]);
  });

  test.each([
    [{ stacks: [[0, 'a', 'h', 0, 0, 1]], entries: [] }, 'stacks[0] is not [earlier stack'],
    [{ stacks: [], entries: [[0, 1, 1]] }, 'entry [0,1,1] is not [stack, context value, count]'],
    [{ stacks: [], entries: [], paths: [[-1, 1, 3]] }, 'paths entry [-1,1,3] is not'],
    [{ stacks: 1, entries: [] }, '"stacks" is not an array'],
  ])('a malformed contexts section is refused, naming what is wrong (%j)', (contexts, message) => {
    const profile = {
      format: CONTEXTS_PROFILE_FORMAT,
      files: [{ key: 'a', hash: 'h', counts: [], hashed: [], contexts }],
    };
    expect(() => validateProfile(profile, 'p.json')).toThrow(`p.json: files[0].contexts: ${message}`);
  });
});
