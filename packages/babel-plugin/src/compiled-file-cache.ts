import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import * as path from 'node:path';
import { builtDirectories, rememberedBuildId } from './build-id';

/**
 * A file as `pathprof <command>`'s hooks (register.js, register-esm.mjs) compiled it, stored in
 * node_modules/.cache/pathprof under a key computed without Babel: a process whose files are all there never
 * loads Babel or the plugin (0.45 s of CPU per process otherwise, which `node --test` pays per test file).
 */
export interface CompiledFile {
  /** The compiled code; null when the file loads untouched (Babel's config or the hook's `only`/`ignore` skip it). */
  readonly code: string | null;
  /** The source map, for stack traces (formatted in the main thread, register.js); ES modules also carry it inline. */
  readonly map: unknown;
  /**
   * The files the output depends on that the key cannot name before Babel has run (every config file Babel
   * loaded, `extends` included, preferential mode's interesting set, plugins' declared dependencies), each with
   * the digest of its content then (null: it was missing). A hit checks them all.
   */
  readonly files: readonly (readonly [string, string | null])[];
  /**
   * A digest of the whole environment when a programmable config (babel.config.js, .babelrc.js…) was among
   * those files: its result may read any variable; a JSON config reads only those the key holds.
   */
  readonly environment: string | null;
}

/** Bumped when the entries' format or the key's inputs change. */
const FORMAT = 'pathprof-compiled-file-1';

/**
 * Files whose presence or content changes what Babel makes of a file in their directory or below: configs,
 * ignore files, browserslist's (preset-env's targets), package.json (`babel` and `browserslist` keys).
 */
const CONFIG_NAME =
  /^(?:\.babelrc(?:\..+)?|\.babelignore|babel\.config\..+|\.browserslistrc|browserslist|package\.json)$/;
const CONFIG_CANDIDATES = [
  '.babelrc',
  '.babelrc.json',
  '.babelrc.js',
  '.babelrc.cjs',
  '.babelrc.mjs',
  '.babelrc.cts',
  '.babelignore',
  'babel.config.json',
  'babel.config.js',
  'babel.config.cjs',
  'babel.config.mjs',
  'babel.config.cts',
  'babel.config.ts',
  'babel.config.mts',
  '.browserslistrc',
  'browserslist',
  'package.json',
];
/** What package managers rewrite on every install: an upgraded preset or plugin changes the key. */
const INSTALL_STAMPS = [
  'node_modules/.package-lock.json',
  'node_modules/.modules.yaml',
  'node_modules/.yarn-state.yml',
  'node_modules/.yarn-integrity',
];
const PROGRAMMABLE = /\.[cm]?[jt]s$/;
/**
 * pathprof's own variables (the run's id, which differs every run; the profile directory; the hooks' thread
 * marker) say where counts go, never how a file compiles: the plugin reads none of them.
 */
const PATHPROF_VARIABLE = /^PATHPROF_/;

/**
 * Where the hooks cache compiled files: in the node_modules of the working directory or the nearest folder
 * above it that has one (a workspace's package run from its own folder, its dependencies hoisted to the root),
 * as @babel/register and nyc cache in their package's; null when off or there is none. Keys hold the working
 * directory: packages sharing a root share nothing else.
 */
export function cacheDirectory(cwd: string): string | null {
  if (process.env.BABEL_DISABLE_CACHE) return null;
  for (let dir = cwd; ; dir = path.dirname(dir)) {
    const modules = path.join(dir, 'node_modules');
    if (existsSync(modules)) return path.join(modules, '.cache', 'pathprof');
    if (path.dirname(dir) === dir) return null;
  }
}

export class CompiledFileCache {
  /** A digest of each directory's config files and install stamps, once per process (as Babel reads configs). */
  private readonly directories = new Map<string, string>();
  /** What `watchLoads` saw Babel load. */
  private readonly babelModules = new Set<string>();
  private builtDirectories: string[] | undefined;

  /**
   * @param dir where entries go (`cacheDirectory`); null: nothing is cached.
   * @param cwd the working directory (Babel's root config is there).
   */
  constructor(
    private readonly dir: string | null,
    private readonly cwd: string,
  ) {}

  /**
   * The key of `file` with content `source`: the plugin's build, `settings` (all else the output depends on:
   * the hook, its Babel options, @babel/core's version), the Babel environment variables, and every config
   * file in `file`'s directory, the working directory and all their parents, so a config added, removed or
   * changed anywhere Babel looks (or an install) makes a new key. Null when off.
   */
  key(file: string, source: string, settings: string): string | null {
    if (this.dir === null) return null;
    const hash = createHash('sha1')
      .update(FORMAT)
      .update('\0')
      .update(rememberedBuildId(path.join(this.dir, 'build-id.json')))
      .update('\0');
    hash.update(settings).update('\0');
    for (const [name, value] of Object.entries(process.env).sort(([a], [b]) => (a < b ? -1 : 1))) {
      if (name === 'BABEL_ENV' || name === 'NODE_ENV' || name.startsWith('BROWSERSLIST'))
        hash
          .update(name)
          .update('=')
          .update(value ?? '')
          .update('\0');
    }
    const seen = new Set<string>();
    for (const start of [path.dirname(file), this.cwd]) {
      for (let dir = start; !seen.has(dir); dir = path.dirname(dir)) {
        seen.add(dir);
        hash.update(dir).update('\0').update(this.directoryDigest(dir)).update('\0');
      }
    }
    return hash.update(file).update('\0').update(source).digest('hex');
  }

  /** The entry under `key` if there is one and every file it depends on is as it was. */
  read(key: string | null): CompiledFile | undefined {
    if (key === null) return undefined;
    let entry: CompiledFile;
    try {
      entry = JSON.parse(readFileSync(this.entryPath(key), 'utf8')) as CompiledFile;
    } catch {
      // Not compiled yet (an entry appears whole: `store`).
      return undefined;
    }
    const current =
      entry.files.every(([file, digest]) => fileDigest(file) === digest) &&
      (entry.environment === null || entry.environment === environmentDigest());
    return current ? entry : undefined;
  }

  /** Written whole or not at all: processes compiling the same file at once each rename a file of their own. */
  store(key: string | null, entry: CompiledFile, file: string): void {
    if (key === null) return;
    const target = this.entryPath(key);
    const temporary = `${target}.${process.pid}.tmp`;
    try {
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(temporary, JSON.stringify(entry));
      renameSync(temporary, target);
    } catch (error) {
      process.emitWarning(`pathprof: could not cache ${file} compiled: ${(error as Error).message}`);
    }
  }

  /**
   * To call before Babel runs, and what it returns after: notes the modules Babel loaded meanwhile outside
   * node_modules and pathprof's own code (what a programmable config requires, a local plugin). Every later
   * entry depends on them (Babel keeps a config once loaded); an install changes the key for the others, a
   * build of pathprof for its own.
   */
  watchLoads(): () => void {
    const before = new Set(Object.keys(require.cache));
    return () => {
      this.builtDirectories ??= builtDirectories().map((dir) => dir + path.sep);
      for (const file of Object.keys(require.cache)) {
        if (
          !before.has(file) &&
          !file.split(path.sep).includes('node_modules') &&
          !this.builtDirectories.some((dir) => file.startsWith(dir))
        )
          this.babelModules.add(file);
      }
    };
  }

  /** Stores what Babel made of `file` under `key` (null: Babel left it untouched) and returns the entry. */
  storeCompiled(key: string | null, file: string, output: BabelOutput | null): CompiledFile {
    const entry = output ? this.entryOf(output) : this.untouchedEntry();
    this.store(key, entry, file);
    return entry;
  }

  /**
   * The entry for Babel's output: it depends on the config files Babel loaded, the modules `watchLoads` saw,
   * the plugins' declared dependencies and the interesting set preferential mode reads (of any plugin with an
   * `interesting` file, so a copy of the plugin other than this one counts too).
   */
  entryOf(output: BabelOutput): CompiledFile {
    const files = [...output.files, ...(output.externalDependencies ?? [])];
    for (const item of output.options.plugins ?? []) {
      const interesting = (item.options as { interesting?: unknown } | undefined)?.interesting;
      if (typeof interesting === 'string')
        files.push(path.resolve(output.options.cwd ?? this.cwd, interesting));
    }
    const entry = this.entryDependingOn(files);
    return { ...entry, code: output.code, map: output.map ?? null };
  }

  /**
   * The entry for a file Babel leaves alone: which config decided is not known, so any change to the
   * environment (a programmable config's input) makes it a miss too.
   */
  untouchedEntry(): CompiledFile {
    return { ...this.entryDependingOn([]), environment: environmentDigest() };
  }

  private entryDependingOn(files: string[]): CompiledFile {
    const unique = [...new Set([...files, ...this.babelModules])].sort();
    return {
      code: null,
      map: null,
      files: unique.map((file) => [file, fileDigest(file)] as const),
      environment: unique.some((file) => PROGRAMMABLE.test(file)) ? environmentDigest() : null,
    };
  }

  private entryPath(key: string): string {
    return path.join(this.dir!, `${key}.json`);
  }

  private directoryDigest(dir: string): string {
    let digest = this.directories.get(dir);
    if (digest !== undefined) return digest;
    let names: string[];
    try {
      names = readdirSync(dir).filter((name) => CONFIG_NAME.test(name));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // A directory that cannot be listed may still hold a config Babel opens by name.
      names = code === 'ENOENT' || code === 'ENOTDIR' ? [] : CONFIG_CANDIDATES;
    }
    const hash = createHash('sha1');
    for (const name of [...names].sort()) {
      const content = fileDigest(path.join(dir, name));
      if (content !== null) hash.update(name).update('\0').update(content).update('\0');
    }
    for (const stamp of INSTALL_STAMPS) {
      try {
        const { mtimeMs, size } = statSync(path.join(dir, stamp));
        hash.update(stamp).update(`\0${mtimeMs}\0${size}\0`);
      } catch {
        // Not installed with that package manager.
      }
    }
    digest = hash.digest('hex');
    this.directories.set(dir, digest);
    return digest;
  }
}

/** What a partial config (`babel.loadPartialConfig`) and a transform of it tell `CompiledFileCache.entryOf`. */
export interface BabelOutput {
  readonly files: ReadonlySet<string>;
  readonly options: { readonly cwd?: string; readonly plugins?: readonly { options?: unknown }[] };
  readonly code: string;
  readonly map: unknown;
  readonly externalDependencies?: ReadonlySet<string>;
}

/** The digest of a file's content; null if it cannot be read. */
function fileDigest(file: string): string | null {
  try {
    return createHash('sha1').update(readFileSync(file)).digest('hex');
  } catch {
    return null;
  }
}

function environmentDigest(): string {
  const hash = createHash('sha1');
  for (const [name, value] of Object.entries(process.env).sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (!PATHPROF_VARIABLE.test(name))
      hash
        .update(name)
        .update('=')
        .update(value ?? '')
        .update('\0');
  }
  return hash.digest('hex');
}
