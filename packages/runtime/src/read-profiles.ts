import { nodeModules } from './node-fs';
import { ProfileError, validateProfile, type FileProfile, type Profile } from './profile-format';
import { currentRun } from './run';

/** Reads and checks one profile file; a `ProfileError` names the file and what is wrong with it. */
export function readProfile(file: string): Profile {
  const node = nodeModules();
  if (!node) throw new Error('pathprof: reading profiles needs Node.js');
  let text: string;
  try {
    text = node.fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new ProfileError(file, `cannot read: ${(error as Error).message}`);
  }
  if (text.trim() === '') throw new ProfileError(file, 'empty file');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ProfileError(file, `not valid JSON (truncated or corrupt): ${(error as Error).message}`);
  }
  return validateProfile(value, file);
}

/**
 * The profiles of a directory (files named `pathprof-*.json`) that belong to its current run, the ones that
 * could not be used, and how many were left by other runs (not read). A profile without a run (made by
 * hand, or before runs existed) belongs to any run; a directory without a run marker takes every profile.
 */
export function readProfileDirectory(dir: string): {
  profiles: Profile[];
  errors: ProfileError[];
  otherRuns: number;
} {
  const node = nodeModules();
  if (!node) throw new Error('pathprof: reading profiles needs Node.js');
  const names = node.fs.readdirSync(dir).filter((n) => n.startsWith('pathprof-') && n.endsWith('.json'));
  const run = currentRun(dir);
  const profiles: Profile[] = [];
  const errors: ProfileError[] = [];
  let otherRuns = 0;
  for (const name of names.sort()) {
    try {
      const profile = readProfile(node.path.join(dir, name));
      if (run === null || profile.run === undefined || profile.run === run) profiles.push(profile);
      else otherRuns++;
    } catch (error) {
      if (error instanceof ProfileError) errors.push(error);
      else throw error;
    }
  }
  return { profiles, errors, otherRuns };
}

/**
 * Sums profiles file by file: counts of the same file with the same hash and mode add up; a file seen with
 * different hashes (its source changed between runs) or modes is kept once per hash and mode, so nothing is
 * decoded against the wrong graph.
 */
export function mergeProfiles(profiles: readonly Profile[]): FileProfile[] {
  const merged = new Map<
    string,
    { file: FileProfile; counts: Map<number, number>; hashed: Map<number, Map<number, number>> }
  >();
  for (const profile of profiles) {
    for (const file of profile.files) {
      // The same source instrumented in two modes counts in two layouts: never added together.
      const id = `${file.key}\0${file.hash}\0${(file.meta as { mode?: unknown } | null)?.mode}`;
      let entry = merged.get(id);
      if (!entry) {
        entry = { file, counts: new Map(), hashed: new Map() };
        merged.set(id, entry);
      }
      for (const [i, n] of file.counts) entry.counts.set(i, (entry.counts.get(i) ?? 0) + n);
      for (const [slot, pairs] of file.hashed) {
        const table = entry.hashed.get(slot) ?? new Map<number, number>();
        for (const [path, n] of pairs) table.set(path, (table.get(path) ?? 0) + n);
        entry.hashed.set(slot, table);
      }
    }
  }
  return [...merged.values()].map(({ file, counts, hashed }) => ({
    key: file.key,
    hash: file.hash,
    meta: file.meta,
    counts: [...counts].sort((a, b) => a[0] - b[0]),
    hashed: [...hashed]
      .sort((a, b) => a[0] - b[0])
      .map(([slot, table]): [number, [number, number][]] => [slot, [...table].sort((a, b) => a[0] - b[0])]),
  }));
}
