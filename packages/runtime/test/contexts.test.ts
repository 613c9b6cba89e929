import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ContextState,
  type ContextStacks,
  ROOT_STACK,
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
  type PathCounter,
  type Profile,
} from '../src';

const meta = JSON.stringify({ format: 'pathprof-meta/1', functions: [] });

/** What was counted on one encoding stack, by value. */
interface StackCounts {
  readonly stack: number;
  readonly entries: [number, number][];
  readonly paths: [number, PathCounter][];
}

/** What was counted on each stack of `stacks` (`eachCounted` gathered into lists). */
function counted(stacks: ContextStacks): StackCounts[] {
  const out: StackCounts[] = [];
  const on = (s: number): StackCounts => {
    let last = out[out.length - 1];
    if (last?.stack !== s) out.push((last = { stack: s, entries: [], paths: [] }));
    return last;
  };
  stacks.eachCounted(
    (s, v, n) => on(s).entries.push([v, n]),
    (s, v, counter) => on(s).paths.push([v, counter]),
  );
  return out;
}

/** What was counted on stack `s` of `x` (nothing: empty lists). */
function countedOn(x: ContextState, s: number): StackCounts {
  return counted(x.stacks).find((c) => c.stack === s) ?? { stack: s, entries: [], paths: [] };
}

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
    expect([main, x.s]).toEqual([1, ROOT_STACK]);
    // A numbered call: the caller hands value 3 over; the callee counts it on the same stack.
    x.h = 3;
    x.t = a.base + 3;
    expect(x.take(a)).toBe(3);
    expect(x.t).toBe(0);
    // A callback from value 3 into b's function at 1: pushed <3, unknown site>.
    const cb = x.enter(b, 1);
    expect(cb).toBe(6);
    const st = x.stacks;
    expect([st.parent(x.s), st.caller(x.s), st.site(x.s), st.run(x.s)]).toEqual([ROOT_STACK, 3, 0, 1]);
    expect([st.callee(x.s), countedOn(x, x.s).entries]).toEqual([6, [[6, 1]]]);
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
    const st = x.stacks;
    expect(stacks.map((s) => [st.parent(s), st.caller(s), st.site(s), st.run(s)])).toEqual([
      [ROOT_STACK, 0, 3, 1],
      [ROOT_STACK, 0, 3, 2],
      [ROOT_STACK, 0, 3, 3],
      [ROOT_STACK, 0, 3, 4],
      [ROOT_STACK, 0, 3, 5],
    ]);
    // Interned: the same pushes from the same stack give the same nodes.
    x.s = ROOT_STACK;
    x.v = 0;
    x.t = -3;
    x.enter(a, 0);
    expect(x.s).toBe(stacks[0]);
    expect(st.size).toBe(1 + 5);
  });

  test('thousands of stacks: the tables grow and keep every node, what made it and its counts', () => {
    const x = new ContextState();
    const a = x.addFile('a.js', 'h', 3000);
    const st = x.stacks;
    // Each push enters 2999, which makes a numbered call to 7 (counted on the stack's table) with its paths.
    const push = (caller: number, on: number): number => {
      [x.v, x.s] = [caller, on];
      x.enter(a, 2999);
      x.h = 7;
      (x.takePaths(a, 2, 8) as number[])[1]++;
      return x.s;
    };
    // A fan of pushes on the empty stack and a chain of pushes on each other (the first is in both).
    const fan: number[] = [];
    const chain: number[] = [];
    for (let i = 0; i < 2000; i++) {
      fan.push(push(i, ROOT_STACK));
      chain.push(push(i, i === 0 ? ROOT_STACK : chain[i - 1]));
    }
    expect(st.size).toBe(1 + 2000 + 1999);
    // Pushed again, each gives its node; each node knows what made it.
    const again = fan.map((_, i) => [push(i, ROOT_STACK), push(i, i === 0 ? ROOT_STACK : chain[i - 1])]);
    expect(again).toEqual(fan.map((s, i) => [s, chain[i]]));
    const made = (s: number) => [st.parent(s), st.caller(s)];
    expect(chain.map(made)).toEqual(chain.map((_, i) => [i === 0 ? ROOT_STACK : chain[i - 1], i]));
    expect(fan.map(made)).toEqual(fan.map((_, i) => [ROOT_STACK, i]));
    const twice = {
      entries: [
        [2999, 2],
        [7, 2],
      ],
      paths: [[7, [0, 2]]],
    };
    const all = counted(x.stacks);
    expect(all).toHaveLength(1 + 2000 + 1999 - 1);
    expect(all.filter((c) => c.stack !== fan[0]).map(({ entries, paths }) => ({ entries, paths }))).toEqual(
      all.slice(1).map(() => twice),
    );
    expect(st.size).toBe(1 + 2000 + 1999);
  });

  test('past its most stacks a realm cuts: pushes on a stack give its cut node, and pushes on that give it', () => {
    const x = new ContextState(2);
    const a = x.addFile('a.js', 'h', 10);
    x.enter(a, 0);
    for (let i = 1; i <= 4; i++) {
      x.v = i; // a different caller each time: no runs
      x.enter(a, i);
    }
    const st = x.stacks;
    const depth = (s: number): number => (s === ROOT_STACK ? 0 : 1 + depth(st.parent(s)));
    expect([1, 2, 3].map((s) => st.cut(s))).toEqual([false, false, true]);
    expect(st.size).toBe(1 + 3);
    expect(st.cut(x.s)).toBe(true);
    expect(depth(x.s)).toBe(3);
    // A cut node stands for any push: its callee is the entry that made it, the others are counted by value.
    expect([st.callee(x.s), countedOn(x, x.s).entries]).toEqual([
      3,
      [
        [3, 1],
        [4, 1],
      ],
    ]);
  });

  test('a cut node made as the node tables grow is kept: later pushes on its stack give it, no second one', () => {
    const x = new ContextState(1000);
    const st = x.stacks;
    // 1,000 nodes fill the realm; the next pushes, one per stack, make cut nodes 1001, 1002, … and the one
    // numbered 1024 (the tables' first capacity) grows them.
    const full = Array.from({ length: 1000 }, (_, i) => st.push(ROOT_STACK, 10 + i, 1, 1, 1000));
    const cuts = full.map((s) => st.push(s, 5, 1, 2, 1000));
    const grown = full[cuts.indexOf(1024)];
    expect(st.push(grown, 6, 2, 3, 1000)).toBe(1024);
    expect(st.size).toBe(1 + 1000 + 1000);
  });

  test('paths per context: each context has its own counter, a hash table above the threshold', () => {
    const x = new ContextState();
    const a = x.addFile('a.js', 'h', 4);
    const root = x.enterPaths(a, 0, 3, 8);
    expect(root).toEqual([0, 0, 0]);
    x.v = -1;
    expect(x.enterPaths(a, 0, 3, 8)).toBe(root);
    expect(x.enterPaths(a, 2, 100, 8)).toBeInstanceOf(HashCounter);
    expect([...a.counts]).toEqual([2, 0, 0, 0]);
  });

  test('contexts reached by numbered calls on a pushed stack: counts and path counters kept as the table grows', () => {
    const x = new ContextState();
    const a = x.addFile('a.js', 'h', 64);
    x.addFile('b.js', 'h', 20_000);
    x.enter(a, 0);
    x.enter(a, 1); // pushed: a stack of its own
    const stack = x.s;
    // Past four values the table indexes a window of them directly (5 … 70), and hashes those too far out.
    const far = [19_001, 19_002, 19_003, 19_004, 19_005];
    const values = [
      5, 6, 5, 7, 8, 9, 10, 70, 11, 12, 5, 6, 40, 6, 70, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
    ];
    values.push(...far, 22, 19_003, 5, ...far);
    const counters = new Map<number, unknown>();
    for (const value of values) {
      x.h = value;
      const counter = x.takePaths(a, 2, 8);
      expect(x.v).toBe(value);
      (counter as number[])[value % 2]++;
      expect(counters.get(value) ?? counter).toBe(counter);
      counters.set(value, counter);
    }
    const wanted = new Map<number, number>([[1, 1]]);
    for (const value of values) wanted.set(value, (wanted.get(value) ?? 0) + 1);
    const st = x.stacks;
    // Listed in the order first counted.
    expect(countedOn(x, stack).entries).toEqual([...wanted]);
    const paths = new Map(countedOn(x, stack).paths.map(([v, c]) => [v, [...(c as number[])]]));
    expect(paths.get(5)).toEqual([0, 4]);
    expect(paths.get(19_003)).toEqual([0, 3]);
    expect(paths.get(6)).toEqual([3, 0]);
    expect(paths.size).toBe(new Set(values).size);
    st.clear(10, 64 + 20_000);
    expect(
      countedOn(x, stack)
        .entries.map(([v]) => v)
        .sort((p, q) => p - q),
    ).toEqual([1, 5, 6, 7, 8, 9]);
    expect(
      countedOn(x, stack)
        .paths.map(([v]) => v)
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
    (x.enterPaths(a, 1, 2, 10) as number[])[1]++;
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
