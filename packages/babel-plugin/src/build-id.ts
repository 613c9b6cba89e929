import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The libraries whose code decides what the plugin emits (the report's is not among them). */
const LIBRARIES = ['@pathprof/cfg', '@pathprof/numbering', '@pathprof/runtime'];

let memo: string | undefined;

/**
 * What the plugin's output depends on besides a file and its Babel options: the code of the plugin and of the
 * libraries it runs, as a digest of their built files. A cache of compiled files keys on it (`pathprof
 * <command>` gives it to @babel/register's cache and to the ES module hook's), so a pathprof upgraded or
 * rebuilt in place never serves what an older one compiled. Its version would not do: a build in a checkout
 * keeps the version, and a published package's files keep no dates.
 */
export function buildId(): string {
  if (memo !== undefined) return memo;
  const hash = createHash('sha1');
  for (const dist of builtDirectories()) {
    for (const file of builtFiles(dist))
      hash
        .update(file)
        .update('\0')
        .update(readFileSync(join(dist, file)));
  }
  return (memo = hash.digest('hex').slice(0, 16));
}

/**
 * `buildId()`, remembered in `file` against every built file's inode, change time and size: hashing them costs
 * a process 8 ms of CPU, stat-ing them 1 ms, which matters where every process of a command needs the id and
 * little else (`pathprof <command>`'s cache hits). Any write moves a file's change time, and a file unpacked
 * anew (npm gives every file the same modification time) has a new inode and change time too. Files written
 * in the last two seconds are not trusted to show a later write within the same tick (as git treats racily
 * clean files): the id is then computed and not remembered.
 */
export function rememberedBuildId(file: string): string {
  if (memo !== undefined) return memo;
  const hash = createHash('sha1');
  let newest = 0;
  for (const dist of builtDirectories()) {
    for (const name of builtFiles(dist)) {
      const { ino, ctimeMs, size } = statSync(join(dist, name));
      hash.update(`${dist}/${name}\0${ino}\0${ctimeMs}\0${size}\0`);
      newest = Math.max(newest, ctimeMs);
    }
  }
  const stamp = hash.digest('hex');
  try {
    const remembered = JSON.parse(readFileSync(file, 'utf8')) as { stamp?: unknown; id?: unknown };
    if (remembered.stamp === stamp && typeof remembered.id === 'string') return (memo = remembered.id);
  } catch {
    // Not remembered yet.
  }
  const id = buildId();
  if (newest < Date.now() - 2000) {
    const temporary = `${file}.${process.pid}.tmp`;
    try {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(temporary, JSON.stringify({ stamp, id }));
      renameSync(temporary, file);
    } catch {
      // Computed again next time.
    }
  }
  return id;
}

/** The directories of the plugin's and those libraries' built code. */
export function builtDirectories(): string[] {
  return [__dirname, ...LIBRARIES.map((name) => dirname(require.resolve(name)))];
}

/** The `.js` files under `dir`, relative to it, in a fixed order. */
function builtFiles(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    const name = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) out.push(...builtFiles(dir, name));
    else if (entry.name.endsWith('.js')) out.push(name);
  }
  return out.sort();
}
