import type { PackedPairs } from './packed-pairs';

export type Step = string | number;

/** Where a profile holds pair lists: `N` is any index. */
const N = -1;
const PAIR_PATHS: readonly (readonly Step[])[] = [
  ['files', N, 'counts'],
  ['files', N, 'hashed', N, 1],
  ['tests', N, 'files', N, 'counts'],
  ['tests', N, 'files', N, 'hashed', N, 1],
];

/** 0: `path` leads to no pair list; 1: it is a prefix of where one is; 2: it is where one is. */
function pairPlace(path: readonly Step[]): 0 | 1 | 2 {
  let place: 0 | 1 | 2 = 0;
  for (const pattern of PAIR_PATHS) {
    if (path.length > pattern.length) continue;
    if (!path.every((step, i) => step === pattern[i] || (pattern[i] === N && typeof step === 'number')))
      continue;
    if (path.length === pattern.length) return 2;
    place = 1;
  }
  return place;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const COMMA = 0x2c;
const COLON = 0x3a;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;

/**
 * Walks a profile's JSON bytes (see `readPackedProfile`): the objects and arrays on the way to pair lists are
 * read by the grammar, every other value is skipped (strings, brackets), and each pair list where the runtime
 * writes one is read into `lists`, with its byte span and its place in the profile. `document` returns false
 * where this does not apply; the rest of the text is checked by `JSON.parse` afterwards.
 */
export class PairScanner {
  readonly lists: { path: Step[]; start: number; end: number; pairs: PackedPairs }[] = [];
  private pos = 0;

  constructor(private readonly bytes: Buffer) {}

  document(): boolean {
    this.space();
    if (!this.value([])) return false;
    this.space();
    return this.pos === this.bytes.length;
  }

  private value(path: Step[]): boolean {
    const place = pairPlace(path);
    const c = this.bytes[this.pos];
    if (place === 2 && c === OPEN_ARRAY) return this.pairList(path);
    if (place === 0) return this.skip();
    if (c === OPEN_OBJECT) return this.object(path);
    if (c === OPEN_ARRAY) return this.array(path);
    return this.skip();
  }

  private object(path: Step[]): boolean {
    const keys = new Set<string>();
    this.pos++;
    this.space();
    if (this.bytes[this.pos] === CLOSE_OBJECT) {
      this.pos++;
      return true;
    }
    for (;;) {
      const key = this.key();
      // A repeated key means JSON.parse keeps its last value: not worth following.
      if (key === null || keys.has(key)) return false;
      keys.add(key);
      this.space();
      if (this.bytes[this.pos++] !== COLON) return false;
      this.space();
      if (!this.value([...path, key])) return false;
      this.space();
      const c = this.bytes[this.pos++];
      if (c === CLOSE_OBJECT) return true;
      if (c !== COMMA) return false;
      this.space();
    }
  }

  private array(path: Step[]): boolean {
    this.pos++;
    this.space();
    if (this.bytes[this.pos] === CLOSE_ARRAY) {
      this.pos++;
      return true;
    }
    for (let index = 0; ; index++) {
      if (!this.value([...path, index])) return false;
      this.space();
      const c = this.bytes[this.pos++];
      if (c === CLOSE_ARRAY) return true;
      if (c !== COMMA) return false;
      this.space();
    }
  }

  /** A key without escapes (one with escapes is not followed: JSON.parse reads it). */
  private key(): string | null {
    const { bytes } = this;
    if (bytes[this.pos] !== QUOTE) return null;
    const start = ++this.pos;
    while (this.pos < bytes.length && bytes[this.pos] !== QUOTE) {
      if (bytes[this.pos] === BACKSLASH) return null;
      this.pos++;
    }
    if (this.pos >= bytes.length) return null;
    return bytes.toString('utf8', start, this.pos++);
  }

  /** Past any value not on the way to a pair list: strings, and brackets counted. */
  private skip(): boolean {
    const { bytes } = this;
    let depth = 0;
    do {
      const c = bytes[this.pos];
      if (this.pos >= bytes.length) return false;
      if (c === QUOTE) {
        this.pos++;
        while (this.pos < bytes.length && bytes[this.pos] !== QUOTE)
          this.pos += bytes[this.pos] === BACKSLASH ? 2 : 1;
        if (this.pos >= bytes.length) return false;
        this.pos++;
      } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
        depth++;
        this.pos++;
      } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
        if (depth === 0) return false;
        depth--;
        this.pos++;
      } else if (depth === 0 && c === COMMA) {
        return false;
      } else {
        // A number or literal at the top of the value: up to the next delimiter.
        this.pos++;
        if (depth === 0) {
          while (this.pos < bytes.length && !isDelimiter(bytes[this.pos])) this.pos++;
        }
      }
    } while (depth > 0);
    return true;
  }

  /** `[[key, count], …]` of safe integers (counts not negative), read into packed values. */
  private pairList(path: Step[]): boolean {
    const { bytes } = this;
    const start = this.pos++;
    let values = new Float64Array(64);
    let size = 0;
    this.space();
    if (bytes[this.pos] !== CLOSE_ARRAY) {
      for (;;) {
        if (bytes[this.pos++] !== OPEN_ARRAY) return false;
        this.space();
        const key = this.integer();
        this.space();
        if (key === null || bytes[this.pos++] !== COMMA) return false;
        this.space();
        const count = bytes[this.pos] === MINUS ? null : this.integer();
        this.space();
        if (count === null || bytes[this.pos++] !== CLOSE_ARRAY) return false;
        if (size + 2 > values.length) {
          const grown = new Float64Array(values.length * 2);
          grown.set(values);
          values = grown;
        }
        values[size++] = key;
        values[size++] = count;
        this.space();
        const c = bytes[this.pos];
        if (c === CLOSE_ARRAY) break;
        if (c !== COMMA) return false;
        this.pos++;
        this.space();
      }
    }
    this.pos++;
    this.lists.push({ path, start, end: this.pos, pairs: { values: values.slice(0, size) } });
    return true;
  }

  /** A JSON integer that is a safe integer (no fraction or exponent), or null. */
  private integer(): number | null {
    const { bytes } = this;
    const negative = bytes[this.pos] === MINUS;
    if (negative) this.pos++;
    const start = this.pos;
    let value = 0;
    while (bytes[this.pos] >= ZERO && bytes[this.pos] <= NINE)
      value = value * 10 + (bytes[this.pos++] - ZERO);
    const digits = this.pos - start;
    // No digits, a leading zero, more digits than a safe integer has, or a fraction or exponent following.
    if (digits === 0 || (digits > 1 && bytes[start] === ZERO) || digits > 16) return null;
    if (!isDelimiter(bytes[this.pos]) || !Number.isSafeInteger(value)) return null;
    return negative ? -value : value;
  }

  private space(): void {
    const { bytes } = this;
    while (isSpace(bytes[this.pos])) this.pos++;
  }
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function isDelimiter(c: number): boolean {
  return c === COMMA || c === CLOSE_ARRAY || c === CLOSE_OBJECT || isSpace(c);
}
