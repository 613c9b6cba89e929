import { ContextState } from './context-state';
import { HashCounter } from './hash-counter';
import { HashFront } from './hash-front';
import { getStore, type FileRecord } from './store';
import { VariableCounts, type TakeVariables } from './variable-counts';
import { writeProfilesAtExit } from './write-profiles';

/**
 * Called once by each instrumented file when it is evaluated: returns its counters. A file evaluated again
 * in the same realm (a module registry reset) keeps counting into the same record; a changed file (another
 * hash, or the same source instrumented otherwise, under the same key) replaces it. In Node the profile is written when the process exits (in a jest
 * test file's context, by the jest setup file or environment). A file counting calling contexts has
 * `contextCount` context values, which the realm's shared context state gives a range of its own. A file
 * counting some counters in module variables passes `take`, which reads this evaluation's variables, and the
 * slots they count (`runs`, see `VariableCounts`): each evaluation adds its own to the record.
 */
export function registerFile(
  key: string,
  hash: string,
  meta: string,
  outputDir: string,
  arraySize: number,
  hashCount: number,
  contextCount = 0,
  take?: TakeVariables,
  runs?: readonly number[],
): FileRecord {
  writeProfilesAtExit(key);
  const store = getStore();
  const variables = take && runs ? [new VariableCounts(take, runs)] : [];
  const known = store.files[key];
  if (known && known.hash === hash && known.meta === meta) {
    known.variables.push(...variables);
    return known;
  }
  const hashed = Array.from({ length: hashCount }, () => new HashCounter());
  const front = hashCount > 0 ? new HashFront(hashed) : undefined;
  for (const table of hashed) table.front = front ?? null;
  const record: FileRecord = {
    key,
    hash,
    meta,
    outputDir,
    counts: new Float64Array(arraySize),
    variables,
    hashed,
    ...(front ? { front } : {}),
    ...(contextCount > 0
      ? { contexts: (store.contexts ??= new ContextState()).addFile(key, hash, contextCount) }
      : {}),
  };
  store.files[key] = record;
  return record;
}
