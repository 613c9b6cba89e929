import { nodeModules } from './node-fs';
import type { PairList } from './packed-pairs';
import { PairScanner } from './pair-scanner';
import { ProfileError, validateProfile, type Profile } from './profile-format';
import { currentRun, RUN_FILE } from './run';
import { isMetadataFile, resolveMetadata } from './shared-metadata';

/**
 * Reads and checks one profile file, with the metadata files it names (see `shared-metadata.ts`; `metadata`
 * keeps each parsed once across the profiles of a directory); a `ProfileError` names the file and what is
 * wrong with it.
 */
export function readProfile(file: string, metadata = new Map<string, unknown>()): Profile {
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
  return validateProfile(resolveMetadata(value, file, metadata), file);
}

/**
 * `readProfile`, with the counters' and hash tables' pairs (of the files, and of each test's files) read
 * straight from the file's bytes into `PackedPairs`: `JSON.parse` would build an array per pair, which for
 * millions of counted paths is most of a report's time. The pair lists are cut out of the text, the rest is
 * parsed and checked as `readProfile` does, and the lists are put back packed. Anything but plain integer
 * pairs where the runtime writes them (a fraction or an exponent, a repeated key, text that is not JSON)
 * reads the file the ordinary way instead, so the result, and every error, is `readProfile`'s.
 */
export function readPackedProfile(file: string, metadata = new Map<string, unknown>()): Profile<PairList> {
  const node = nodeModules();
  if (!node) throw new Error('pathprof: reading profiles needs Node.js');
  let bytes: Buffer;
  try {
    bytes = node.fs.readFileSync(file);
  } catch {
    return readProfile(file, metadata);
  }
  const scanner = new PairScanner(bytes);
  if (!scanner.document()) return readProfile(file, metadata);
  let rest = '';
  let from = 0;
  for (const list of scanner.lists) {
    rest += `${bytes.toString('utf8', from, list.start)}[]`;
    from = list.end;
  }
  rest += bytes.toString('utf8', from);
  let value: unknown;
  try {
    value = JSON.parse(rest);
  } catch {
    return readProfile(file, metadata);
  }
  let profile: Profile<PairList>;
  try {
    profile = validateProfile(resolveMetadata(value, file, metadata), file);
  } catch (error) {
    if (error instanceof ProfileError) return readProfile(file, metadata);
    throw error;
  }
  for (const { path, pairs } of scanner.lists) {
    let at = profile as unknown as Record<string | number, unknown>;
    for (const step of path.slice(0, -1)) at = at[step] as Record<string | number, unknown>;
    at[path[path.length - 1]] = pairs;
  }
  return profile;
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
  /** The directory's run marker is there but names no run: the profiles of every run were read. */
  unreadableMarker: boolean;
} {
  const profiles: Profile[] = [];
  return { profiles, ...eachProfileIn(dir, readProfile, (profile) => profiles.push(profile)) };
}

/**
 * The profiles of `readProfileDirectory`, read packed (`readPackedProfile`) and handed to `visit` one at a
 * time, so that a caller that sums them (`ProfileMerge`) never holds more than one: the counts of millions of
 * paths are most of a report's time and memory.
 */
export function readEachProfile(
  dir: string,
  visit: (profile: Profile<PairList>) => void,
): { errors: ProfileError[]; otherRuns: number; unreadableMarker: boolean } {
  return eachProfileIn(dir, readPackedProfile, visit);
}

function eachProfileIn<P extends Profile<PairList>>(
  dir: string,
  read: (file: string, metadata: Map<string, unknown>) => P,
  visit: (profile: P) => void,
): { errors: ProfileError[]; otherRuns: number; unreadableMarker: boolean } {
  const node = nodeModules();
  if (!node) throw new Error('pathprof: reading profiles needs Node.js');
  const names = node.fs
    .readdirSync(dir)
    .filter((n) => n.startsWith('pathprof-') && n.endsWith('.json') && !isMetadataFile(n));
  const run = currentRun(dir);
  // A marker that names no run (corrupt, or edited) cannot tell the runs apart: every profile is read, and said.
  const unreadableMarker = run === null && node.fs.existsSync(node.path.join(dir, RUN_FILE));
  const metadata = new Map<string, unknown>();
  const errors: ProfileError[] = [];
  let otherRuns = 0;
  for (const name of names.sort()) {
    let profile: P;
    try {
      profile = read(node.path.join(dir, name), metadata);
    } catch (error) {
      if (error instanceof ProfileError) {
        errors.push(error);
        continue;
      }
      throw error;
    }
    if (run === null || profile.run === undefined || profile.run === run) visit(profile);
    else otherRuns++;
  }
  return { errors, otherRuns, unreadableMarker };
}
