import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  COMPACT_METADATA_FORMAT,
  compactMetadata,
  expandMetadata,
  getStore,
  readProfile,
  registerFile,
  STORE_GLOBAL,
  writeProfiles,
} from '../src';
import { COMPACT_ABOVE, packFunctions, unpackFunctions } from '../src/compact-metadata';

describe('packed function records', () => {
  test('unpack to the same JSON: negative, large and repeated values, awkward names', () => {
    const fn = {
      name: `it's "quoted" \\ \u2028 ~`,
      edges: [0, 2, 0, 2, 1, 17, 2, 3, 2, 2, 3, 2],
      exceptional: [1],
      ranges: [1, 0, 1, 4, 2 ** 40, 3, 2 ** 40 + 5, 0, 7, 7, 7, 7],
      blockRanges: [-1, -1, 0, 1, 2, 2],
      edgeRanges: [],
    };
    const functions = [fn, { ...fn, name: 'edges' }];
    expect(JSON.stringify(unpackFunctions(packFunctions(functions)))).toBe(JSON.stringify(functions));
  });

  test('unpack to the same JSON: arrays of more digits than the packer holds at first', () => {
    const edges = Array.from({ length: 30000 }, (_, i) => (i * 7919) % 100003);
    const functions = [
      { name: 'long', edges },
      { name: 'short', edges: edges.slice(0, 3) },
    ];
    expect(JSON.stringify(unpackFunctions(packFunctions(functions)))).toBe(JSON.stringify(functions));
  });

  test('positional records: keys in order, optional and absent ones, nested objects and arrays', () => {
    const fn = { name: 'f', kind: 'function', range: [-1, -1, -1, -1], blockCount: 3, edges: [0, 2, 0] };
    const functions = [
      { ...fn, path: { storage: { kind: 'array', offset: 4 }, pathCount: 2, checksum: 'ab' } },
      { ...fn, path: { storage: { kind: 'hash', slot: 0 }, pathCount: 9, checksum: 'cd' } },
      // Other key orders, values JSON leaves out or writes as null, a packed name's string in an array, nesting.
      { kind: 'function', name: 'g', blockCount: undefined, edge: { unlikely: [] }, ranges: [] },
      { name: 'h', list: [[-1, 2], { edges: [1, 2, 3] }, undefined, null, () => 0, 'ranges'], empty: {} },
    ];
    const packed = packFunctions(functions);
    expect(JSON.stringify(unpackFunctions(packed))).toBe(JSON.stringify(functions));
    // The keys the first two records share are written once, in the table of shapes.
    for (const key of ['"blockCount"', '"storage"', '"offset"', '"checksum"'])
      expect(packed.split(key)).toHaveLength(2);
  });
});

describe('compact metadata', () => {
  const functions = Array.from({ length: 60 }, (_, i) => ({
    name: `f${i}`,
    range: [i + 1, 0, i + 2, 1],
    edges: [0, 2, 0, 2, 1, 3],
    path: { storage: { kind: 'array', offset: 2 * i }, pathCount: 2, checksum: `c${i}` },
  }));
  const meta = { format: 'pathprof-meta/1', file: 'big.js', mode: 'path', functions, after: { edges: [1] } };

  test('small metadata is its JSON; large is version 2, which expands to the same object', () => {
    const small = { ...meta, functions: functions.slice(0, 1) };
    expect(compactMetadata(small)).toBe(JSON.stringify(small));
    const text = compactMetadata(meta);
    expect(JSON.stringify(meta).length).toBeGreaterThan(COMPACT_ABOVE);
    expect(text.length).toBeLessThan(JSON.stringify(meta).length / 4);
    const compact = JSON.parse(text) as Record<string, unknown>;
    // What the runtime reads itself (the mode, for the profile's format and merging) stays as it was.
    expect(compact).toMatchObject({ format: COMPACT_METADATA_FORMAT, file: 'big.js', mode: 'path' });
    expect(typeof compact.functions).toBe('string');
    expect(JSON.stringify(expandMetadata(compact))).toBe(JSON.stringify(meta));
    expect(expandMetadata(small)).toBe(small);
  });

  test('compacts exactly the metadata whose JSON is longer than COMPACT_ABOVE, functions unwritable in JSON too', () => {
    // Two functions and an item JSON writes as null, padded to a length; the key after `functions` counts too.
    const sized = (length: number) => {
      const padded = { ...meta, functions: [functions[0], () => 0, { name: '' }], after: '' };
      const name = 'x'.repeat(length - JSON.stringify(padded).length);
      return { ...padded, functions: [functions[0], () => 0, { name }] };
    };
    const at = sized(COMPACT_ABOVE);
    expect(JSON.stringify(at)).toHaveLength(COMPACT_ABOVE);
    expect(compactMetadata(at)).toBe(JSON.stringify(at));
    const over = sized(COMPACT_ABOVE + 1);
    expect(JSON.parse(compactMetadata(over))).toMatchObject({ format: COMPACT_METADATA_FORMAT });
    expect(JSON.stringify(expandMetadata(JSON.parse(compactMetadata(over))))).toBe(JSON.stringify(over));
  });

  test("is written as registered, in the run's metadata file, and read back expanded", () => {
    (globalThis as Record<string, unknown>)[STORE_GLOBAL] = undefined;
    const dir = mkdtempSync(join(tmpdir(), 'pathprof-compact-'));
    try {
      const text = compactMetadata(meta);
      registerFile('big.js', 'h', text, dir, 120, 0).counts[3] = 5;
      const [written] = writeProfiles();
      const metaFile = readdirSync(dir).find((n) => n.includes('-meta-'))!;
      expect(readFileSync(join(dir, metaFile), 'utf8')).toBe(text);
      const profile = readProfile(written);
      expect(profile.files[0].meta).toEqual(meta);
      expect(profile.files[0].counts).toEqual([[3, 5]]);
      expect(getStore().files['big.js'].meta).toBe(text);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a version 2 whose records do not expand: the profile is refused, naming it and its metadata file', () => {
    (globalThis as Record<string, unknown>)[STORE_GLOBAL] = undefined;
    const dir = mkdtempSync(join(tmpdir(), 'pathprof-compact-'));
    try {
      // As registered by a file no writer made (or by a build whose compression this reader does not know).
      const bogus = JSON.stringify({
        ...meta,
        format: COMPACT_METADATA_FORMAT,
        functions: 'bm90IGJyb3RsaQ==',
      });
      registerFile('bad.js', 'h', bogus, dir, 4, 0).counts[1] = 1;
      const [written] = writeProfiles();
      expect(() => readProfile(written)).toThrow(
        new RegExp(
          `${written.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: its metadata pathprof-.*-meta-.*\\.json is pathprof-meta/2 but does not expand`,
        ),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
