import { nodeZlibOrThrow } from './node-fs';

/**
 * How an instrumented file carries its metadata (the plugin's `pathprof-meta/1`) when it is large: as
 * `pathprof-meta/2`, the same object with its `functions` (nearly all of it: the graphs, source extents and
 * numberings of every function) replaced by a string, those records packed and compressed (brotli). The file holds it as
 * a string literal that nothing in the page or process reads: the runtime compares and forwards it, profiles
 * and the run's metadata files store it as it is, and readers expand it (`expandMetadata`) back into exactly
 * the `pathprof-meta/1` object. A reader that knows only version 1 skips the file, naming the format it
 * expected. Packed and compressed, lodash's 395 KB of JSON is 70 KB of base 64 (bench/NOTES.md, "Output size").
 */
export const COMPACT_METADATA_FORMAT = 'pathprof-meta/2';

/** Below this size (of the JSON) a file carries its metadata as it is: compressing saves little there. */
export const COMPACT_ABOVE = 4096;

/** The metadata as it is written into an instrumented file: JSON text, version 1 or (large) version 2. */
export function compactMetadata(meta: { readonly functions: readonly unknown[] }): string {
  const json = smallJson(meta);
  if (json !== null) return json;
  const zlib = nodeZlibOrThrow('instrumenting');
  const text = packFunctions(meta.functions);
  // Quality 5: as fast as deflate at its best (8 ms on lodash's 152 KB) and 4% smaller; 11 would take 25 times longer.
  const { BROTLI_PARAM_QUALITY, BROTLI_PARAM_SIZE_HINT } = zlib.constants;
  const params = { [BROTLI_PARAM_QUALITY]: 5, [BROTLI_PARAM_SIZE_HINT]: text.length };
  const packed = zlib.brotliCompressSync(text, { params }).toString('base64');
  return JSON.stringify(
    Object.fromEntries(
      Object.entries(meta).map(([key, value]) => [
        key,
        key === 'format' ? COMPACT_METADATA_FORMAT : key === 'functions' ? packed : value,
      ]),
    ),
  );
}

/**
 * The metadata's JSON if it is at most `COMPACT_ABOVE` long, else null. Measured a function at a time, so that a
 * large file's (lodash's: 397 KB) is not written whole only to be thrown away.
 */
function smallJson(meta: { readonly functions: readonly unknown[] }): string | null {
  const { functions } = meta;
  // The rest of the object as it is written, with the functions' commas.
  let length = JSON.stringify({ ...meta, functions: [] }).length + Math.max(0, functions.length - 1);
  for (let i = 0; i < functions.length; i++) {
    // What JSON writes for an item it cannot represent: `null`.
    length += (JSON.stringify(functions[i]) ?? 'null').length;
    if (length > COMPACT_ABOVE) return null;
  }
  return JSON.stringify(meta);
}

/** `meta` (parsed) as version 1: version 2 expanded, anything else as it is (a reader checks it). */
export function expandMetadata(meta: unknown): unknown {
  if (!isCompact(meta)) return meta;
  const zlib = nodeZlibOrThrow('reading profiles');
  const packed = zlib.brotliDecompressSync(Buffer.from(meta.functions, 'base64')).toString('utf8');
  return Object.fromEntries(
    Object.entries(meta).map(([key, value]) => [
      key,
      key === 'format' ? 'pathprof-meta/1' : key === 'functions' ? unpackFunctions(packed) : value,
    ]),
  );
}

function isCompact(meta: unknown): meta is { format: string; functions: string } {
  const m = meta as { format?: unknown; functions?: unknown } | null;
  return m?.format === COMPACT_METADATA_FORMAT && typeof m.functions === 'string';
}

/**
 * The integer arrays that are most of a function's record, each with its stride: a value is stored as its
 * difference from the value one stride back (an edge's source from the previous edge's source, a range's start
 * line from the previous range's), which is small.
 */
const PACKED_STRIDES: Readonly<Record<string, number>> = {
  // A function's extent: its end from its start.
  range: 2,
  edges: 3,
  ranges: 4,
  blockRanges: 1,
  edgeRanges: 1,
  exceptional: 1,
  // Interprocedural mode's calls not split (`unsplitCallRecords`): a line from the previous call's.
  calls: 7,
};
/** Base-64 VLQ digits, as in source maps: 5 bits each, 32 added while more digits follow. */
const VLQ_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/**
 * The function records as JSON `{"shapes", "records"}`, positional: each object an array `[shape, ...values]`
 * (its keys are `shapes[shape]`, in order) and each array `[-1, ...items]`, so that the keys every function
 * repeats are written once; the integer arrays of `PACKED_STRIDES` are strings of zigzag base-64 VLQ
 * differences. Compressed, this is smaller than the plain JSON is (lodash, deflate: 73 KB against 104 KB).
 */
export function packFunctions(functions: readonly unknown[]): string {
  const shapes = new Shapes();
  // The records' JSON is written as the walk goes: positional arrays built first and then stringified made
  // every object and array of the metadata twice (packing lodash's, cold: 158 -> 134 M instructions).
  let records = '';
  for (let i = 0; i < functions.length; i++) {
    if (i > 0) records += ',';
    records += absent(functions[i]) ? 'null' : positionalJson(functions[i], '', shapes);
  }
  return `{"shapes":${JSON.stringify(shapes.list)},"records":[${records}]}`;
}

/** `packFunctions`' records back as the objects they were (equal JSON). */
export function unpackFunctions(packed: string): unknown[] {
  const { shapes, records } = JSON.parse(packed) as { shapes: string[][]; records: unknown[] };
  const expanded = (key: string, value: unknown): unknown => {
    if (!Array.isArray(value)) {
      return typeof value === 'string' && Object.prototype.hasOwnProperty.call(PACKED_STRIDES, key)
        ? unpackIntegers(value, PACKED_STRIDES[key])
        : value;
    }
    if (value[0] === -1) return value.slice(1).map((item, i) => expanded(String(i), item));
    const keys = shapes[value[0] as number];
    return Object.fromEntries(keys.map((k, i) => [k, expanded(k, value[i + 1])]));
  };
  return records.map((record, i) => expanded(String(i), record));
}

/** The key lists of the objects in positional records, each listed once. */
class Shapes {
  readonly list: string[][] = [];
  private readonly index = new Map<string, number>();

  of(keys: string[]): number {
    const id = keys.join('\0');
    let i = this.index.get(id);
    if (i === undefined) {
      i = this.list.length;
      this.list.push(keys);
      this.index.set(id, i);
    }
    return i;
  }
}

/**
 * The JSON of `value` (found under `key`) with its objects and arrays positional and its integer arrays packed:
 * an object is `[shape, ...values]`, an array `[-1, ...items]`.
 */
function positionalJson(value: unknown, key: string, shapes: Shapes): string {
  if (Array.isArray(value)) {
    // VLQ digits need no escaping in JSON.
    if (isPackable(key, value)) return `"${packIntegers(value, PACKED_STRIDES[key])}"`;
    let out = '[-1';
    // An item's key is its index, never one of PACKED_STRIDES': `''` says the same without making the string.
    for (let i = 0; i < value.length; i++)
      out += absent(value[i]) ? ',null' : `,${positionalJson(value[i], '', shapes)}`;
    return `${out}]`;
  }
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const record = value as Record<string, unknown>;
  const own = Object.keys(record);
  const keys: string[] = [];
  for (let i = 0; i < own.length; i++) if (!absent(record[own[i]])) keys.push(own[i]);
  let out = `[${shapes.of(keys)}`;
  for (let i = 0; i < keys.length; i++) out += `,${positionalJson(record[keys[i]], keys[i], shapes)}`;
  return `${out}]`;
}

/** What JSON.stringify writes for a value it cannot represent: nothing in an object, `null` in an array. */
function absent(v: unknown): boolean {
  return v === undefined || typeof v === 'function' || typeof v === 'symbol';
}

function isPackable(key: string, value: unknown[]): value is number[] {
  if (!Object.prototype.hasOwnProperty.call(PACKED_STRIDES, key)) return false;
  for (let i = 0; i < value.length; i++) if (typeof value[i] !== 'number') return false;
  return true;
}

/** The digits' character codes. */
const VLQ_CODES = Uint8Array.from(VLQ_DIGITS, (c) => c.charCodeAt(0));
/** The digits of the array being packed, reused (grown when an array needs more). */
let digits = new Uint8Array(1 << 16);

/**
 * The digits are collected as character codes and made into a string in one call: appending them one at a time
 * made a string object per digit (most of the time the compaction took, 150 K digits on lodash), and an array of
 * codes made into a string by `String.fromCharCode` took a number per digit and copies of it.
 */
function packIntegers(values: readonly number[], stride: number): string {
  let n = 0;
  for (let i = 0; i < values.length; i++) {
    const delta = i >= stride ? values[i] - values[i - stride] : values[i];
    let z = delta < 0 ? -delta * 2 - 1 : delta * 2;
    // A safe integer doubled has at most 11 digits.
    if (n + 11 > digits.length) {
      const grown = new Uint8Array(2 * digits.length);
      grown.set(digits);
      digits = grown;
    }
    // Arithmetic rather than bit operations: columns of a minified file can pass 2^31 when doubled.
    while (z >= 32) {
      digits[n++] = VLQ_CODES[32 + (z % 32)];
      z = Math.floor(z / 32);
    }
    digits[n++] = VLQ_CODES[z];
  }
  return Buffer.from(digits.buffer, 0, n).toString('latin1');
}

function unpackIntegers(text: string, stride: number): number[] {
  const out: number[] = [];
  let z = 0;
  let scale = 1;
  for (let i = 0; i < text.length; i++) {
    const d = VLQ_DIGITS.indexOf(text[i]);
    z += (d % 32) * scale;
    if (d >= 32) {
      scale *= 32;
      continue;
    }
    const delta = z % 2 ? -(z + 1) / 2 : z / 2;
    out.push(out.length >= stride ? out[out.length - stride] + delta : delta);
    z = 0;
    scale = 1;
  }
  return out;
}
