import { transformSync } from '@babel/core';
import vm from 'node:vm';
import pathprof from '../src';
import { numberingOf, PACK_ABOVE, packMetadata, UNPACK_METADATA, type FileMetadata } from '../src/metadata';
import { virtualPath } from './support/instrument';

const unpack = vm.runInNewContext(`(${UNPACK_METADATA.replace('NAME', '')})`) as (packed: string) => string;

describe('packed metadata', () => {
  test('unpacks to exactly the JSON of the metadata: negative, large and repeated values, awkward names', () => {
    const fn = {
      name: `it's "quoted" \\ \u2028 ~`,
      edges: [0, 2, 0, 2, 1, 17, 2, 3, 2, 2, 3, 2],
      exceptional: [1],
      ranges: [1, 0, 1, 4, 2 ** 40, 3, 2 ** 40 + 5, 0, 7, 7, 7, 7],
      blockRanges: [-1, -1, 0, 1, 2, 2],
      edgeRanges: [],
    };
    const meta = { format: 'pathprof-meta/1', functions: [fn, { ...fn, name: 'edges' }] };
    expect(unpack(packMetadata(meta as unknown as FileMetadata))).toBe(JSON.stringify(meta));
  });

  test('positional function records: keys in order, optional and absent ones, nested objects and arrays', () => {
    const fn = { name: 'f', kind: 'function', range: [-1, -1, -1, -1], blockCount: 3, edges: [0, 2, 0] };
    const functions = [
      { ...fn, path: { storage: { kind: 'array', offset: 4 }, pathCount: 2, checksum: 'ab' } },
      { ...fn, path: { storage: { kind: 'hash', slot: 0 }, pathCount: 9, checksum: 'cd' } },
      // Other key orders, values JSON leaves out or writes as null, a packed name's string in an array, nesting.
      { kind: 'function', name: 'g', blockCount: undefined, edge: { unlikely: [] }, ranges: [] },
      { name: 'h', list: [[-1, 2], { edges: [1, 2, 3] }, undefined, null, () => 0, 'ranges'], empty: {} },
    ];
    const meta = { format: 'pathprof-meta/1', file: 'a.js', functions, after: { edges: [5, 6, 7] } };
    const packed = packMetadata(meta as unknown as FileMetadata);
    expect(unpack(packed)).toBe(JSON.stringify(meta));
    // The keys the first two records share are written once, in the table of shapes.
    for (const key of ['"blockCount"', '"storage"', '"offset"', '"checksum"'])
      expect(packed.split(key)).toHaveLength(2);
  });

  test('a large file carries packed metadata that registers as the numbering it was instrumented with', () => {
    const source = Array.from(
      { length: 40 },
      (_, i) =>
        `function f${i}(a, b) { if (a > ${i}) return b ? a : -a; for (const x of b) a += x; return a; }`,
    ).join('\n');
    const code = transformSync(source, {
      filename: virtualPath('src/large.js'),
      babelrc: false,
      configFile: false,
      plugins: [pathprof],
    })!.code!;
    expect(code).toContain('_pp_unpack(');
    let registered = '';
    const registerFile = (_key: string, _hash: string, meta: string) => {
      registered = meta;
      return { counts: new Float64Array(1000), hashed: [] };
    };
    vm.runInNewContext(`${code}\nf0(1, [2]);`, { require: () => ({ registerFile }) });
    expect(registered.length).toBeGreaterThan(PACK_ABOVE);
    const meta = JSON.parse(registered) as FileMetadata;
    expect(meta.functions).toHaveLength(41);
    for (const fn of meta.functions) expect(numberingOf(meta, fn).pathCount).toBe(fn.path!.pathCount);
  });
});
