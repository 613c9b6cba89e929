import { transformSync } from '@babel/core';
import vm from 'node:vm';
import { COMPACT_METADATA_FORMAT, expandMetadata } from '@pathprof/runtime';
import pathprof from '../src';
import { numberingOf, type FileMetadata } from '../src/metadata';
import { virtualPath } from './support/instrument';

describe('compact metadata in the instrumented file', () => {
  test('a large file registers version 2, which expands to the numbering it was instrumented with', () => {
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
    let registered = '';
    const registerFile = (_key: string, _hash: string, meta: string) => {
      registered = meta;
      return { counts: new Float64Array(1000), hashed: [] };
    };
    vm.runInNewContext(`${code}\nf0(1, [2]);`, { require: () => ({ registerFile }) });
    // A string literal nothing in the file unpacks: no code beside it.
    expect(code).toContain(`'${registered}'`);
    expect(JSON.parse(registered).format).toBe(COMPACT_METADATA_FORMAT);
    const meta = expandMetadata(JSON.parse(registered)) as FileMetadata;
    expect(meta.format).toBe('pathprof-meta/1');
    expect(meta.functions).toHaveLength(41);
    for (const fn of meta.functions) expect(numberingOf(meta, fn).pathCount).toBe(fn.path!.pathCount);
  });
});
