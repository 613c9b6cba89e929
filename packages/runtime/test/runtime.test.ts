import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import vm from 'node:vm';
import {
  CountSum,
  getStore,
  isPacked,
  readPackedProfile,
  type FileProfile,
  type FileTestCounts,
  type PairList,
  type PathprofStore,
  HashCounter,
  INTERPROCEDURAL_PROFILE_FORMAT,
  mergeProfiles,
  PROFILE_FORMAT,
  type Profile,
  readProfile,
  readProfileDirectory,
  registerFile,
  RUN_FILE,
  currentRun,
  snapshot,
  startRun,
  validateProfile,
  writeProfiles,
} from '../src';

const meta = JSON.stringify({ format: 'pathprof-meta/1', functions: [] });

function freshStore(): void {
  const files = getStore().files;
  for (const key of Object.keys(files)) delete files[key];
}

describe('HashCounter', () => {
  test('counts every path, repeated or not', () => {
    const h = new HashCounter();
    for (const p of [5, 5, 5, 2, 5, 9, 9, 0]) h.inc(p);
    expect(h.entries().sort((a, b) => a[0] - b[0])).toEqual([
      [0, 1],
      [2, 1],
      [5, 4],
      [9, 2],
    ]);
    h.inc(9);
    expect(new Map(h.entries()).get(9)).toBe(3);
  });

  test('keeps every count as the table grows, for path numbers up to 2^53 that collide in their low bits', () => {
    const h = new HashCounter();
    const expected = new Map<number, number>();
    const paths = Array.from({ length: 5000 }, (_, i) =>
      i % 2 ? i * 4294967296 : Number.MAX_SAFE_INTEGER - 1 - i,
    );
    for (let round = 1; round <= 3; round++) {
      for (const [i, p] of paths.entries()) {
        if (i % round !== 0) continue;
        h.inc(p);
        expected.set(p, (expected.get(p) ?? 0) + 1);
      }
    }
    expect(new Map(h.entries())).toEqual(expected);
    h.clear();
    expect(h.entries()).toEqual([]);
  });
});

describe('CountSum', () => {
  test('sums lists in any order as a Map would, in key order', () => {
    let seed = 7;
    const random = (n: number) => (seed = (seed * 16807) % 2147483647) % n;
    for (let round = 0; round < 40; round++) {
      const sum = new CountSum();
      const expected = new Map<number, number>();
      for (let l = random(6); l > 0; l--) {
        // Sorted lists (as the runtime writes them), shuffled ones, repeated keys, -0, keys past 2^32.
        const keys = Array.from({ length: random(60) }, () => random(40) * (round % 3 ? 1 : 2 ** 33));
        if (random(2)) keys.sort((a, b) => a - b);
        const pairs = keys.map((k): [number, number] => [k === 0 && random(2) ? -0 : k, random(5)]);
        sum.add(pairs);
        for (const [k, n] of pairs) expected.set(k, (expected.get(k) ?? 0) + n);
      }
      const { keys, counts } = sum.result();
      expect([...keys].map((k, i) => [k, counts[i]])).toEqual([...expected].sort((a, b) => a[0] - b[0]));
    }
  });
});

describe('registerFile', () => {
  beforeEach(freshStore);

  test('gives a file the same record when it is evaluated again, a new one when its hash changes', () => {
    const a = registerFile('src/a.js', 'h1', meta, '.pathprof', 4, 1);
    a.counts[2]++;
    expect(registerFile('src/a.js', 'h1', meta, '.pathprof', 4, 1)).toBe(a);
    const b = registerFile('src/a.js', 'h2', meta, '.pathprof', 4, 1);
    expect(b).not.toBe(a);
    expect(b.counts[2]).toBe(0);
  });

  test('the same source instrumented in another mode gets a record of its own', () => {
    const a = registerFile('src/a.js', 'h1', meta, '.pathprof', 4, 1);
    const other = JSON.stringify({ ...JSON.parse(meta), mode: 'interprocedural' });
    expect(registerFile('src/a.js', 'h1', other, '.pathprof', 9, 0)).not.toBe(a);
  });

  test('a profile with interprocedural counts is format 2; others stay format 1', () => {
    registerFile('src/a.js', 'h', meta, '.pathprof', 4, 0).counts[0]++;
    expect(snapshot(getStore()).format).toBe(PROFILE_FORMAT);
    const ipp = JSON.stringify({ ...JSON.parse(meta), mode: 'interprocedural' });
    registerFile('src/b.js', 'h', ipp, '.pathprof', 0, 1).hashed[0].inc(7);
    const profile = snapshot(getStore());
    expect(profile.format).toBe(INTERPROCEDURAL_PROFILE_FORMAT);
    expect(validateProfile(JSON.parse(JSON.stringify(profile)), 'p.json').format).toBe('pathprof-profile/2');
  });

  test('merging keeps the counts of one source in two modes apart', () => {
    const file = (mode: string, n: number) => ({
      key: 'src/a.js',
      hash: 'h',
      meta: { mode },
      counts: [[0, n]] as [number, number][],
      hashed: [],
    });
    const profile = (files: ReturnType<typeof file>[]) =>
      ({ format: PROFILE_FORMAT, created: '', pid: null, files }) as const;
    const merged = mergeProfiles([
      profile([file('path', 1)]),
      profile([file('interprocedural', 5)]),
      profile([file('path', 2)]),
    ]);
    expect(merged.map((f) => [(f.meta as { mode: string }).mode, f.counts])).toEqual([
      ['path', [[0, 3]]],
      ['interprocedural', [[0, 5]]],
    ]);
  });

  test('snapshot lists only nonzero counters and executed hashed paths', () => {
    const r = registerFile('src/a.js', 'h', meta, '.pathprof', 4, 2);
    r.counts[1] += 3;
    r.hashed[1].inc(1000);
    const profile = snapshot(getStore(), 42);
    expect(profile.format).toBe(PROFILE_FORMAT);
    expect(profile.files).toEqual([
      { key: 'src/a.js', hash: 'h', meta: JSON.parse(meta), counts: [[1, 3]], hashed: [[1, [[1000, 1]]]] },
    ]);
  });

  test('snapshot of a store copied out of its realm (a browser page) says it needs the live one', () => {
    const r = registerFile('src/a.js', 'h', meta, '.pathprof', 4, 1);
    r.hashed[0].inc(1000);
    const copy = structuredClone({
      files: { 'src/a.js': { ...r, front: null } },
    }) as unknown as PathprofStore;
    expect(() => snapshot(copy)).toThrow(
      /^pathprof: snapshot needs the live store .*not a copy of it: src\/a\.js: its hash table 0 is a plain object, not a HashCounter$/,
    );
  });
});

describe('profile files', () => {
  let dir: string;
  beforeEach(() => {
    freshStore();
    dir = mkdtempSync(join(tmpdir(), 'pathprof-runtime-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('are written atomically under unique names, drain the store, and read back', () => {
    const r = registerFile('src/a.js', 'h', meta, dir, 3, 1);
    r.counts[0] = 2;
    r.hashed[0].inc(77);
    const first = writeProfiles();
    expect(first).toHaveLength(1);
    expect(writeProfiles()).toEqual([]); // drained: writing again adds nothing twice
    r.counts[1] = 1;
    const second = writeProfiles();
    expect(second[0]).not.toBe(first[0]);
    // Both name one metadata file of the run: written once, not repeated in every profile.
    const run = currentRun(dir)!;
    const metaFile = readdirSync(dir).find((n) => n.startsWith(`pathprof-${run}-meta-`))!;
    expect(readdirSync(dir).sort()).toEqual(
      [first[0], second[0], RUN_FILE, metaFile].map((p) => p.split('/').pop()).sort(),
    );
    expect(readFileSync(join(dir, metaFile), 'utf8')).toBe(meta);
    for (const written of [first[0], second[0]])
      expect(JSON.parse(readFileSync(written, 'utf8')).files.map((f: object) => Object.keys(f))).toEqual([
        ['key', 'hash', 'counts', 'hashed', 'metaFile'],
      ]);
    const profile = readProfile(first[0]);
    expect(profile.pid).toBe(process.pid);
    expect(profile.files[0].meta).toEqual(JSON.parse(meta));
    expect(profile.files[0].counts).toEqual([[0, 2]]);
    expect(profile.files[0].hashed).toEqual([[0, [[77, 1]]]]);
    expect(readProfile(second[0]).files[0].counts).toEqual([[1, 1]]);
  });

  test("metadata files: one per file's metadata and run, parsed once per directory, checked when read", () => {
    const other = JSON.stringify({ format: 'pathprof-meta/1', functions: [], other: true });
    registerFile('src/a.js', 'h', meta, dir, 1, 0).counts[0] = 1;
    registerFile('src/b.js', 'h', other, dir, 1, 0).counts[0] = 1;
    writeProfiles();
    getStore().files['src/a.js'].counts[0] = 1;
    writeProfiles();
    const metaFiles = readdirSync(dir).filter((n) => /^pathprof-\w+-meta-[0-9a-f]{32}\.json$/.test(n));
    expect(metaFiles.map((n) => readFileSync(join(dir, n), 'utf8')).sort()).toEqual([meta, other].sort());
    const { profiles, errors } = readProfileDirectory(dir);
    expect(errors).toEqual([]);
    expect(profiles).toHaveLength(2);
    const a = profiles.map((p) => p.files.find((f) => f.key === 'src/a.js')!.meta);
    expect(a[0]).toBe(a[1]);
    // A metadata file changed, truncated or gone: each profile naming it is named and skipped.
    const [aFile] = metaFiles.filter((n) => readFileSync(join(dir, n), 'utf8') === meta);
    writeFileSync(join(dir, aFile), meta.slice(0, -1));
    const changed = readProfileDirectory(dir);
    expect(changed.profiles).toHaveLength(0);
    expect(changed.errors.map((e) => e.message.replace(/^.*\/pathprof-/, 'pathprof-'))).toEqual([
      expect.stringMatching(
        /^pathprof-\w+-\d+-\d+-\d-\w+\.json: its metadata pathprof-\w+-meta-\w+\.json is not what was written \(truncated or changed\)$/,
      ),
      expect.stringMatching(/: its metadata .* is not what was written/),
    ]);
    rmSync(join(dir, aFile));
    expect(readProfileDirectory(dir).errors[0].message).toMatch(
      /: its metadata pathprof-\w+-meta-\w+\.json is missing \(a profile directory is read whole: copy every pathprof-\* file of it\)$/,
    );
  });

  test('PATHPROF_DIR overrides the configured directory', () => {
    registerFile('src/a.js', 'h', meta, join(dir, 'configured'), 1, 0).counts[0] = 1;
    process.env.PATHPROF_DIR = join(dir, 'override');
    try {
      expect(writeProfiles()[0].startsWith(join(dir, 'override'))).toBe(true);
    } finally {
      delete process.env.PATHPROF_DIR;
    }
  });

  test('merge adds counts of the same file and hash, and keeps other versions apart', () => {
    const profile = (
      hash: string,
      counts: [number, number][],
      hashed: [number, [number, number][]][] = [],
    ): Profile => ({
      format: PROFILE_FORMAT,
      created: '',
      pid: 1,
      files: [{ key: 'a.js', hash, meta: {}, counts, hashed }],
    });
    const merged = mergeProfiles([
      profile(
        'h',
        [
          [0, 1],
          [3, 2],
        ],
        [[0, [[7, 1]]]],
      ),
      profile(
        'h',
        [[3, 5]],
        [
          [
            0,
            [
              [7, 2],
              [8, 1],
            ],
          ],
        ],
      ),
      profile('other', [[0, 9]]),
    ]);
    expect(merged).toHaveLength(2);
    expect(merged[0].counts).toEqual([
      [0, 1],
      [3, 7],
    ]);
    expect(merged[0].hashed).toEqual([
      [
        0,
        [
          [7, 3],
          [8, 1],
        ],
      ],
    ]);
    expect(merged[1].counts).toEqual([[0, 9]]);
  });

  test('corrupt, truncated, empty and foreign files are named and skipped; the rest is read', () => {
    registerFile('src/a.js', 'h', meta, dir, 1, 0).counts[0] = 1;
    const good = writeProfiles()[0];
    const text = readFileSync(good, 'utf8');
    writeFileSync(join(dir, 'pathprof-truncated.json'), text.slice(0, text.length / 2));
    writeFileSync(join(dir, 'pathprof-empty.json'), '');
    writeFileSync(join(dir, 'pathprof-foreign.json'), JSON.stringify({ result: [] }));
    writeFileSync(
      join(dir, 'pathprof-corrupt.json'),
      JSON.stringify({ format: PROFILE_FORMAT, files: [{ key: 1 }] }),
    );
    const { profiles, errors } = readProfileDirectory(dir);
    expect(profiles).toHaveLength(1);
    expect(errors.map((e) => e.message.replace(dir, '<dir>')).sort()).toEqual([
      '<dir>/pathprof-corrupt.json: files[0] has no key or hash',
      '<dir>/pathprof-empty.json: empty file',
      '<dir>/pathprof-foreign.json: not a pathprof profile (format undefined, expected "pathprof-profile/1", "pathprof-profile/2" or "pathprof-profile/3")',
      expect.stringMatching(/^<dir>\/pathprof-truncated\.json: not valid JSON \(truncated or corrupt\)/),
    ]);
  });

  test('PATHPROF_DIR naming a file is an error naming PATHPROF_DIR', () => {
    writeFileSync(join(dir, 'a-file'), '');
    registerFile('src/a.js', 'h', meta, dir, 1, 0).counts[0] = 1;
    process.env.PATHPROF_DIR = join(dir, 'a-file');
    try {
      expect(() => writeProfiles()).toThrow(
        `pathprof: PATHPROF_DIR=${join(dir, 'a-file')} is not a directory`,
      );
    } finally {
      delete process.env.PATHPROF_DIR;
    }
  });

  test('an unwritable output directory is a clear error naming it', () => {
    // A file where the directory should be: fails for every user, root included.
    writeFileSync(join(dir, 'blocked'), '');
    registerFile('src/a.js', 'h', meta, join(dir, 'blocked', 'profiles'), 1, 0).counts[0] = 1;
    expect(() => writeProfiles()).toThrow(/ENOTDIR.*blocked/);
  });
});

/** Runs: a started run replaces the profiles of earlier ones; a reader takes only the current run's. */
describe('readPackedProfile', () => {
  let dir: string;
  beforeEach(() => {
    freshStore();
    dir = mkdtempSync(join(tmpdir(), 'pathprof-packed-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** The profile with its packed pair lists as pairs again. */
  const unpacked = (profile: Profile<PairList>): unknown => {
    const pairs = (list: PairList) =>
      isPacked(list)
        ? Array.from({ length: list.values.length / 2 }, (_, i) => [
            list.values[2 * i],
            list.values[2 * i + 1],
          ])
        : list;
    const counts = <F extends FileProfile<PairList> | FileTestCounts<PairList>>(f: F) => ({
      ...f,
      counts: pairs(f.counts),
      hashed: f.hashed.map(([slot, list]) => [slot, pairs(list)]),
    });
    return {
      ...profile,
      files: profile.files.map(counts),
      ...(profile.tests ? { tests: profile.tests.map((t) => ({ ...t, files: t.files.map(counts) })) } : {}),
    };
  };

  test('reads what readProfile reads, every pair list packed where the runtime writes one, or fails as it fails', () => {
    const r = registerFile('src/a.js', 'h', meta, dir, 3, 1);
    r.counts[0] = 2;
    r.counts[2] = 5;
    r.hashed[0].inc(77);
    const [written] = writeProfiles();
    const file = (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    };
    const tricky = {
      format: PROFILE_FORMAT,
      created: 'x',
      pid: null,
      note: 'a "counts": [[1, 2]] in a string \\" and é ',
      files: [
        {
          key: 'ké',
          hash: 'h',
          meta: { counts: [[1, 2]], s: '[[' },
          counts: [
            [-3, 1],
            [-0, 0],
            [9007199254740991, 2],
          ],
          hashed: [
            [4, [[0, 1]]],
            [5, []],
          ],
        },
        { key: 'b', hash: 'h', meta: null, counts: [], hashed: [] },
      ],
      testFile: 't.js',
      tests: [{ name: ['d', 'x'], files: [{ key: 'b', counts: [[1, 1]], hashed: [[2, [[3, 4]]]] }] }],
    };
    const files = [
      written,
      file('pretty.json', JSON.stringify(tricky, null, 2)),
      file('compact.json', JSON.stringify(tricky)),
      // Read the ordinary way: an exponent, an escaped key, a repeated key, pairs of three.
      file('exponent.json', JSON.stringify(tricky).replace('[[0,1]]', '[[0,1e0]]')),
      file('escaped.json', JSON.stringify(tricky).replace('"counts":[[-3', '"coun\\u0074s":[[-3')),
      file('repeated.json', JSON.stringify(tricky).replace('"counts":[],', '"counts":[[1,1]],"counts":[],')),
      file('triple.json', JSON.stringify(tricky).replace('[[3,4]]', '[[3,4,5]]')),
      // Errors, as readProfile gives them.
      file('fraction.json', JSON.stringify(tricky).replace('[[0,1]]', '[[0,1.5]]')),
      file('negative.json', JSON.stringify(tricky).replace('[[0,1]]', '[[0,-1]]')),
      file('unsafe.json', JSON.stringify(tricky).replace('9007199254740991', '9007199254740993')),
      file('truncated.json', JSON.stringify(tricky).slice(0, -2)),
      file('empty.json', ' '),
      join(dir, 'missing.json'),
    ];
    for (const path of files) {
      const read = () => readProfile(path);
      let expected: unknown;
      try {
        expected = read();
      } catch (error) {
        expect(() => readPackedProfile(path)).toThrow((error as Error).message);
        continue;
      }
      expect(unpacked(readPackedProfile(path))).toEqual(expected);
    }
    expect(isPacked(readPackedProfile(files[1]).files[0].counts)).toBe(true);
    expect(isPacked(readPackedProfile(files[1]).tests![0].files[0].hashed[0][1])).toBe(true);
  });
});

describe('runs', () => {
  let dir: string;
  const write = (count: number) => {
    registerFile('src/a.js', 'h', meta, dir, 1, 0).counts[0] = count;
    return writeProfiles()[0];
  };
  const total = () =>
    mergeProfiles(readProfileDirectory(dir).profiles).reduce((n, f) => n + f.counts[0][1], 0);
  beforeEach(() => {
    freshStore();
    dir = mkdtempSync(join(tmpdir(), 'pathprof-runs-'));
  });
  afterEach(() => {
    delete process.env.PATHPROF_RUN;
    delete process.env.PATHPROF_ACCUMULATE;
    rmSync(dir, { recursive: true, force: true });
  });

  test('a writer outside any started run starts one, and later writers join it', () => {
    const first = readProfile(write(1)).run!;
    expect(currentRun(dir)).toBe(first);
    expect(readProfile(write(2)).run).toBe(first);
    expect(total()).toBe(3);
  });

  test('a new run removes the earlier profiles; PATHPROF_ACCUMULATE=1 goes on with the current run', () => {
    write(1);
    writeFileSync(join(dir, 'pathprof-browser.json'), JSON.stringify(snapshot(getStore())));
    const run = startRun(dir);
    expect(process.env.PATHPROF_RUN).toBe(run);
    expect(readdirSync(dir)).toEqual([RUN_FILE]);
    expect(readProfile(write(5)).run).toBe(run);
    process.env.PATHPROF_ACCUMULATE = '1';
    expect(startRun(dir)).toBe(run);
    write(2);
    expect(total()).toBe(7);
  });

  test('a run marker that names no run (corrupt) is said: the profiles of every run are read', () => {
    write(1);
    expect(readProfileDirectory(dir).unreadableMarker).toBe(false);
    writeFileSync(join(dir, RUN_FILE), 'garbage');
    const read = readProfileDirectory(dir);
    expect(read.unreadableMarker).toBe(true);
    expect(read.profiles).toHaveLength(1);
  });

  test("the first profile of a newer run takes the directory over; an older run's late writer is ignored", () => {
    const old = startRun(dir);
    write(1);
    const late = write(4);
    const newer = startRun(join(dir, 'elsewhere')); // started for another directory: this one is taken lazily
    expect(newer > old).toBe(true);
    expect(readProfile(write(2)).run).toBe(newer);
    expect(currentRun(dir)).toBe(newer);
    expect(existsSync(late)).toBe(false);
    process.env.PATHPROF_RUN = old; // a process of the old run writing after the new one started
    write(8);
    expect(currentRun(dir)).toBe(newer);
    expect(readProfileDirectory(dir).otherRuns).toBe(1);
    expect(total()).toBe(2);
  });
});

const dist = join(__dirname, '..', 'dist');
const built = existsSync(join(dist, 'index.js'));

/**
 * The built runtime in a realm with no Node API (no `process`, no `require` of built-ins), as a bundler would
 * run it in a page: each compiled module is evaluated with a loader that only knows the runtime's own files.
 */
(built ? describe : describe.skip)('in a browser-like realm', () => {
  test('loading and counting touch no Node API; counts are on globalThis', () => {
    const context = vm.createContext({});
    const cache = new Map<string, { exports: Record<string, unknown> }>();
    const load = (name: string): Record<string, unknown> => {
      const known = cache.get(name);
      if (known) return known.exports;
      const module = { exports: {} as Record<string, unknown> };
      cache.set(name, module);
      const wrapper = vm.runInContext(
        `(function (exports, require, module) {${readFileSync(join(dist, `${name}.js`), 'utf8')}\n})`,
        context,
      ) as (e: unknown, r: (n: string) => unknown, m: unknown) => void;
      wrapper(
        module.exports,
        (n: string) => {
          if (!n.startsWith('./')) throw new Error(`the runtime required ${n}`);
          return load(n.slice(2));
        },
        module,
      );
      return module.exports;
    };
    const runtime = load('index') as { registerFile: typeof registerFile };
    const record = runtime.registerFile('page.js', 'h', meta, '.pathprof', 2, 0);
    record.counts[1]++;
    const store = vm.runInContext('globalThis.__pathprof__', context);
    expect(store.files['page.js'].counts[1]).toBe(1);
    expect(vm.runInContext('typeof process', context)).toBe('undefined');
  });
});

/**
 * Node before 20.16 has no `process.getBuiltinModule` (removed here to stand for it): the first instrumented
 * file to load fails saying which Node is needed, as for a PATHPROF_DIR that cannot take the profile, instead
 * of counting for nothing or claiming it is not running in Node.
 */
(built ? describe : describe.skip)('on a Node without process.getBuiltinModule', () => {
  test('registering a file fails with the Node version needed', () => {
    const out = mkdtempSync(join(tmpdir(), 'pathprof-old-'));
    const run = spawnSync(
      process.execPath,
      [
        '-e',
        `delete process.getBuiltinModule;
const { registerFile } = require(${JSON.stringify(dist)});
registerFile('old.js', 'h', ${JSON.stringify(meta)}, '.pathprof', 1, 0).counts[0]++;
console.log('ran');`,
      ],
      { encoding: 'utf8', env: { ...process.env, PATHPROF_DIR: out } },
    );
    rmSync(out, { recursive: true, force: true });
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(
      /Error: pathprof: Node v[\d.]+ has no process\.getBuiltinModule; pathprof needs Node 20\.16 or later/,
    );
    expect(run.status).toBe(1);
  });
});
