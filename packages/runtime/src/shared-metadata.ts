import { expandMetadata } from './compact-metadata';
import { nodeOrThrow } from './node-fs';
import { ProfileError, type FileProfile } from './profile-format';

/**
 * A profile directory holds each instrumented file's metadata once per run, beside the profiles: a jest run
 * writes one profile per test file, and each used to repeat the metadata of every file the test file loaded
 * (luxon's 58 test files: 19.5 MB of metadata in 19.7 MB of profiles, 0.8 MB of it distinct). A profile's
 * file entry names its metadata file (`"metaFile"`) instead of holding `"meta"`; the name carries the run (so
 * a new run removes the files of older ones as it removes their profiles, and never those of its own) and the
 * SHA-256 of the metadata's JSON text (so identical metadata is one file, and a reader checks it got what was
 * written).
 */
const METADATA_FILE = /^pathprof-([0-9a-z]+)-meta-([0-9a-f]{32})\.json$/;

/** Whether a `pathprof-*.json` name in a profile directory is a metadata file, not a profile. */
export function isMetadataFile(name: string): boolean {
  return METADATA_FILE.test(name);
}

/**
 * Writes the metadata of `files` into `dir` as the run's metadata files (those not there yet: under a
 * temporary name, then renamed, so a reader never sees half of one; concurrent writers of the same file
 * write the same bytes) and returns the entries as a profile holds them, each naming its metadata file.
 */
export function storeMetadata(dir: string, run: string, files: readonly FileProfile[]): object[] {
  const { fs, path, crypto } = nodeOrThrow('writing profiles');
  return files.map(({ meta, ...entry }) => {
    const text = JSON.stringify(meta);
    const name = `pathprof-${run}-meta-${digest(crypto, text)}.json`;
    const target = path.join(dir, name);
    // Looked for every time (a stat): a directory removed during the run gets its metadata again.
    if (!fs.existsSync(target)) {
      // Named like a profile's temporary file: a reader never takes it for a profile or for metadata.
      const temporary = path.join(
        dir,
        `.${name.slice(0, -5)}-${process.pid}-${Math.random().toString(36).slice(2, 10)}.tmp`,
      );
      try {
        fs.writeFileSync(temporary, text);
        fs.renameSync(temporary, target);
      } catch (error) {
        fs.rmSync(temporary, { force: true });
        throw error;
      }
    }
    return { ...entry, metaFile: name };
  });
}

/**
 * A parsed profile (read from `profilePath`) with each file's `metaFile` replaced by the metadata it names,
 * read from the profile's directory, checked against the digest in its name and parsed once per `cache`, and
 * every file's metadata expanded to `pathprof-meta/1` (`expandMetadata`). Throws a `ProfileError` naming the
 * profile when a metadata file is missing, unreadable or not what was written, or metadata does not expand.
 */
export function resolveMetadata(value: unknown, profilePath: string, cache: Map<string, unknown>): unknown {
  const files = (value as { files?: unknown } | null)?.files;
  if (!Array.isArray(files)) return value;
  const resolved = files.map((f: unknown, i: number) => {
    if (!isObject(f)) return f;
    if (!('metaFile' in f)) {
      const meta = expanded(f.meta, profilePath, `files[${i}].meta`);
      return meta === f.meta ? f : { ...f, meta };
    }
    const { metaFile, ...entry } = f;
    const match = typeof metaFile === 'string' ? METADATA_FILE.exec(metaFile) : null;
    if (!match) throw new ProfileError(profilePath, `files[${i}].metaFile is not a metadata file's name`);
    const { fs, path, crypto } = nodeOrThrow('reading profiles');
    const file = path.join(path.dirname(profilePath), metaFile as string);
    if (!cache.has(file)) {
      let text: string;
      try {
        text = fs.readFileSync(file, 'utf8');
      } catch (error) {
        const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
        throw new ProfileError(
          profilePath,
          missing
            ? `its metadata ${metaFile} is missing (a profile directory is read whole: copy every pathprof-* file of it)`
            : `cannot read its metadata ${metaFile}: ${(error as Error).message}`,
        );
      }
      if (digest(crypto, text) !== match[2])
        throw new ProfileError(
          profilePath,
          `its metadata ${metaFile} is not what was written (truncated or changed)`,
        );
      cache.set(file, expanded(JSON.parse(text), profilePath, `its metadata ${metaFile}`));
    }
    return { ...entry, meta: cache.get(file) };
  });
  return { ...(value as object), files: resolved };
}

/**
 * `expandMetadata`, with a version 2 that does not expand (not what any writer made) a `ProfileError` naming
 * the profile.
 */
function expanded(meta: unknown, profilePath: string, what: string): unknown {
  try {
    return expandMetadata(meta);
  } catch (error) {
    throw new ProfileError(
      profilePath,
      `${what} is pathprof-meta/2 but does not expand: ${(error as Error).message}`,
    );
  }
}

/** The first 128 bits of the text's SHA-256, in hex. */
function digest(crypto: typeof import('node:crypto'), text: string): string {
  return crypto.createHash('sha256').update(text).digest('hex').slice(0, 32);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
