import { nodeModules } from './node-fs';
import { ProfileError, validateProfile, type Profile } from './profile-format';
import { currentRun } from './run';
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
 * The profiles of a directory (files named `pathprof-*.json`) that belong to its current run, the ones that
 * could not be used, and how many were left by other runs (not read). A profile without a run (made by
 * hand, or before runs existed) belongs to any run; a directory without a run marker takes every profile.
 */
export function readProfileDirectory(dir: string): {
  profiles: Profile[];
  errors: ProfileError[];
  otherRuns: number;
} {
  const profiles: Profile[] = [];
  return { profiles, ...readEachProfile(dir, (profile) => profiles.push(profile)) };
}

/**
 * `readProfileDirectory` handing each profile to `visit` as it is read, so that a caller that sums them
 * (`ProfileMerge`) never holds more than one: the counts of millions of paths are most of the memory.
 */
export function readEachProfile(
  dir: string,
  visit: (profile: Profile) => void,
): { errors: ProfileError[]; otherRuns: number } {
  const node = nodeModules();
  if (!node) throw new Error('pathprof: reading profiles needs Node.js');
  const names = node.fs
    .readdirSync(dir)
    .filter((n) => n.startsWith('pathprof-') && n.endsWith('.json') && !isMetadataFile(n));
  const run = currentRun(dir);
  const metadata = new Map<string, unknown>();
  const errors: ProfileError[] = [];
  let otherRuns = 0;
  for (const name of names.sort()) {
    let profile: Profile;
    try {
      profile = readProfile(node.path.join(dir, name), metadata);
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
  return { errors, otherRuns };
}
