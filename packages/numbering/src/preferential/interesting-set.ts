/**
 * The interesting-set file (`pathprof-interesting/1`): which paths of which functions preferential path
 * profiling counts in compact arrays. `pathprof-report prefer` writes it from a run's profiles; the plugin's
 * `mode: 'preferential'` reads it. Per file (its key: the path relative to Babel's working directory), per
 * function: its name, the fingerprint of what its path ids mean (its numbering and its source text), and the
 * Ball-Larus ids of its interesting paths.
 *
 * ```
 * { "format": "pathprof-interesting/1", "selection": "covered" | "hot 90%",
 *   "files": [ { "file": "src/cart.js",
 *                "functions": [ { "name": "total", "fingerprint": "5be0c1a2", "pathIds": [0, 3] }, … ] } ] }
 * ```
 * A function listed with no path ids existed in the baseline and ran none of its paths.
 */
export const INTERESTING_SET_FORMAT = 'pathprof-interesting/1';

export interface InterestingSet {
  readonly format: typeof INTERESTING_SET_FORMAT;
  /** How the paths were chosen: every executed path (`covered`), or the hottest (`hot P%`). */
  readonly selection: string;
  readonly files: readonly InterestingFile[];
}

export interface InterestingFile {
  readonly file: string;
  readonly functions: readonly InterestingFunction[];
}

export interface InterestingFunction {
  readonly name: string;
  readonly fingerprint: string;
  readonly pathIds: readonly number[];
}

/** An interesting-set file that cannot be used: the file it came from and what is wrong with it. */
export class InterestingSetError extends Error {
  constructor(
    readonly file: string,
    problem: string,
  ) {
    super(`${file}: ${problem}`);
    this.name = 'InterestingSetError';
  }
}

/**
 * Parses and checks an interesting-set file's text (`file` names it in errors): the shape, whole path ids
 * listed once each, every file listed once. Whether the ids exist in the functions they name is checked
 * when a function is numbered against them.
 */
export function parseInterestingSet(text: string, file: string): InterestingSet {
  const fail = (problem: string): never => {
    throw new InterestingSetError(file, problem);
  };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return fail(`not valid JSON: ${(error as Error).message}`);
  }
  if (!isObject(value)) return fail('not a JSON object');
  if (value.format !== INTERESTING_SET_FORMAT) {
    return fail(
      `not an interesting set (format ${JSON.stringify(value.format)}, expected "${INTERESTING_SET_FORMAT}"; ` +
        'pathprof-report prefer writes one)',
    );
  }
  if (typeof value.selection !== 'string') return fail('"selection" is not a string');
  if (!Array.isArray(value.files)) return fail('"files" is not an array');
  const keys = new Set<string>();
  value.files.forEach((f: unknown, i: number) => {
    const where = `files[${i}]`;
    if (!isObject(f) || typeof f.file !== 'string' || f.file === '') return fail(`${where} has no "file"`);
    if (keys.has(f.file)) return fail(`${f.file} is listed twice`);
    keys.add(f.file);
    if (!Array.isArray(f.functions)) return fail(`${where} (${f.file}): "functions" is not an array`);
    f.functions.forEach((fn: unknown, j: number) => {
      const at = `${f.file}: functions[${j}]`;
      if (!isObject(fn) || typeof fn.name !== 'string') return fail(`${at} has no "name"`);
      if (typeof fn.fingerprint !== 'string' || fn.fingerprint === '')
        return fail(`${at} (${fn.name}) has no "fingerprint"`);
      if (!Array.isArray(fn.pathIds)) return fail(`${at} (${fn.name}): "pathIds" is not an array`);
      const seen = new Set<number>();
      for (const id of fn.pathIds) {
        if (!Number.isSafeInteger(id) || (id as number) < 0)
          return fail(`${at} (${fn.name}): path id ${JSON.stringify(id)} is not a whole number`);
        if (seen.has(id as number)) return fail(`${at} (${fn.name}): path id ${id} is listed twice`);
        seen.add(id as number);
      }
    });
  });
  return value as unknown as InterestingSet;
}

/** The set as the file's text: one line per function, so that a diff of two sets reads function by function. */
export function formatInterestingSet(set: InterestingSet): string {
  const files = set.files.map((f) => {
    const functions = f.functions.map((fn) => `      ${JSON.stringify(fn)}`).join(',\n');
    const list = f.functions.length ? `[\n${functions}\n    ]` : '[]';
    return `    { "file": ${JSON.stringify(f.file)}, "functions": ${list} }`;
  });
  return [
    '{',
    `  "format": ${JSON.stringify(set.format)},`,
    `  "selection": ${JSON.stringify(set.selection)},`,
    files.length ? `  "files": [\n${files.join(',\n')}\n  ]` : '  "files": []',
    '}',
    '',
  ].join('\n');
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
