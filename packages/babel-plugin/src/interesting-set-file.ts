import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import {
  InterestingSetError,
  parseInterestingSet,
  type InterestingFunction,
  type InterestingSet,
} from '@pathprof/numbering';
import { fingerprint } from './fingerprint';

/** An interesting-set file as the plugin uses it, read for one Babel working directory. */
export interface LoadedInterestingSet {
  /** The file relative to the working directory, `/`-separated (as metadata names it). */
  readonly file: string;
  /** The fingerprint of its content. */
  readonly digest: string;
  readonly set: InterestingSet;
  /** The functions it lists, by file key. */
  readonly byFile: ReadonlyMap<string, readonly InterestingFunction[]>;
}

const parsed = new Map<string, LoadedInterestingSet>();

/**
 * The `interesting` option's file, resolved against Babel's working directory. Read for every file Babel
 * transforms (a watch mode or a long-lived process sees a new set at once); parsed again only when its
 * content changed. Errors name the option and the file.
 */
export function loadInterestingSet(cwd: string, given: string): LoadedInterestingSet {
  const absolute = path.resolve(cwd, given);
  const fail = (problem: string): never => {
    throw new Error(`babel-plugin-pathprof: invalid options: "interesting": ${problem}`);
  };
  let text = '';
  try {
    text = readFileSync(absolute, 'utf8');
  } catch (error) {
    fail(
      `cannot read ${absolute} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); pathprof-report prefer -o ${given} writes it`,
    );
  }
  const digest = fingerprint(text);
  const known = parsed.get(`${cwd}\0${absolute}`);
  if (known?.digest === digest) return known;
  let set: InterestingSet;
  try {
    set = parseInterestingSet(text, absolute);
  } catch (error) {
    if (error instanceof InterestingSetError) return fail(error.message);
    throw error;
  }
  const loaded: LoadedInterestingSet = {
    file: path.relative(cwd, absolute).split(path.sep).join('/'),
    digest,
    set,
    byFile: new Map(set.files.map((f) => [f.file, f.functions])),
  };
  parsed.set(`${cwd}\0${absolute}`, loaded);
  return loaded;
}
