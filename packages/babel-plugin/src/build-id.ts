import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
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
