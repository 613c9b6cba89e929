/**
 * Writes `value` as `JSON.stringify(value, null, 2)` prints it, in pieces of about a megabyte: its plain
 * objects and arrays down to `depth` levels are walked here (reading each property once), what lies deeper is
 * stringified whole. The JSON report of millions of paths is gigabytes of text, more than a string can hold,
 * and its functions' paths are described as they are read (`FunctionReport.paths`): walked to the paths, it
 * never holds more than one function's.
 */
export function writeJson(value: unknown, write: (text: string) => void, depth: number): void {
  let pending: string[] = [];
  let size = 0;
  const put = (text: string) => {
    pending.push(text);
    size += text.length;
    if (size >= 1 << 20) flush();
  };
  const flush = () => {
    if (size > 0) write(pending.join(''));
    pending = [];
    size = 0;
  };
  const walk = (v: object, indent: string, level: number) => {
    const inner = `${indent}  `;
    // What JSON.stringify leaves out of an object (undefined, functions, symbols) is null in an array.
    const member = (item: unknown, inArray: boolean, prefix: string) => {
      if (level + 1 < depth && isWalkable(item)) {
        put(prefix);
        walk(item, inner, level + 1);
        return true;
      }
      const text = JSON.stringify(item, null, 2) as string | undefined;
      if (text === undefined && !inArray) return false;
      // A JSON string has no raw line break: every one is between values, indented by the level.
      put(prefix + (text === undefined ? 'null' : text.replace(/\n/g, `\n${inner}`)));
      return true;
    };
    let written = 0;
    if (Array.isArray(v)) {
      for (const item of v) member(item, true, `${written++ ? ',\n' : '[\n'}${inner}`);
      put(written ? `\n${indent}]` : '[]');
      return;
    }
    for (const key of Object.keys(v)) {
      const prefix = `${written ? ',\n' : '{\n'}${inner}${JSON.stringify(key)}: `;
      if (member((v as Record<string, unknown>)[key], false, prefix)) written++;
    }
    put(written ? `\n${indent}}` : '{}');
  };
  if (depth > 0 && isWalkable(value)) walk(value, '', 0);
  else put(JSON.stringify(value, null, 2));
  flush();
}

/** A plain object or array: what JSON.stringify prints member by member, with no `toJSON` of its own. */
function isWalkable(v: unknown): v is object {
  if (v === null || typeof v !== 'object' || typeof (v as { toJSON?: unknown }).toJSON === 'function')
    return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return Array.isArray(v) || proto === Object.prototype || proto === null;
}
