import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { satisfies } from 'semver';

const repository = join(__dirname, '..', '..', '..', '..');
const repositoryModules = join(repository, 'node_modules');

/**
 * `npm pack --workspaces` into `destination`, as a release would: the tarballs of the packages users can
 * install (not the private ones), by package name.
 */
export function packWorkspaces(destination: string): Map<string, string> {
  const run = spawnSync('npm', ['pack', '--workspaces', '--json', '--pack-destination', destination], {
    cwd: repository,
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`npm pack failed:\n${run.stderr}`);
  const packed = JSON.parse(run.stdout) as { name: string; filename: string }[];
  const tarballs = new Map<string, string>();
  for (const { name, filename } of packed) {
    const manifest = readJson(join(repository, 'node_modules', name, 'package.json'));
    if (!manifest.private) tarballs.set(name, join(destination, filename));
  }
  return tarballs;
}

/**
 * A user's project in a fresh directory under the system's temporary directory, far from this repository,
 * that already has its own tools (jest, Babel: `devDependencies`) and installs pathprof's tarballs with
 * `npm install --offline`: npm fetches nothing, so our packages must resolve among the tarballs.
 *
 * The third-party packages are copied from this repository's node_modules, each at the same place in the
 * tree as there (a valid npm layout for them), because tests download nothing. That copy is the only thing the
 * project shares with the repository: no symlink, no NODE_PATH, so `babel-plugin-pathprof` and `@pathprof/*`
 * resolve only to what npm installed from the tarballs. `substitutes` makes the project's @babel/core an older
 * release, with older releases of its own dependencies (aliases installed in this repository:
 * `{ '@babel/core': 'babel-core-7.20', '@babel/parser': 'babel-parser-7.20', … }`), as in a project locked to
 * an older Babel; it also gives a tool of the project another release (`{ vitest: 'vitest-3' }`), with that
 * release's own dependencies as npm placed them under the alias.
 */
export class PackedInstall {
  readonly root: string;

  constructor(options: {
    files: Record<string, string>;
    tools: string[];
    tarballs: Iterable<string>;
    substitutes?: Record<string, string>;
  }) {
    this.root = mkdtempSync(join(tmpdir(), 'pathprof-install-'));
    for (const [name, text] of Object.entries(options.files)) this.write(name, text);
    const tarballs = [...options.tarballs];
    const ours = tarballs.map((t) => readTarballName(t));
    const { versions, sources } = copyClosure(options.tools, this.root, ours, options.substitutes ?? {});
    const devDependencies = Object.fromEntries(options.tools.map((name) => [name, versions.get(name)!]));
    const manifest = { name: 'user-project', private: true, devDependencies };
    this.write('package.json', `${JSON.stringify(manifest, null, 2)}\n`);
    this.write('package-lock.json', `${JSON.stringify(lockFile(this.root, manifest, sources), null, 2)}\n`);
    // npm would ask the registry about the project's @babel/core to check pathprof's peer range against it
    // (even with it installed): `--legacy-peer-deps` leaves peers alone, and `npm ls` checks them after.
    const install = this.run('npm', [
      'install',
      '--offline',
      '--legacy-peer-deps',
      '--no-audit',
      '--no-fund',
      '--save-dev',
      ...tarballs,
    ]);
    if (install.status !== 0) throw new Error(`npm install failed:\n${install.stdout}\n${install.stderr}`);
    const tree = this.run('npm', ['ls', '--all', '--offline']);
    if (tree.status !== 0) throw new Error(`npm ls finds problems:\n${tree.stdout}\n${tree.stderr}`);
  }

  path(name: string): string {
    return join(this.root, name);
  }

  write(name: string, text: string): void {
    mkdirSync(dirname(this.path(name)), { recursive: true });
    writeFileSync(this.path(name), text);
  }

  /** Runs a command in the project, as a user would from its directory, with `node_modules/.bin` on the PATH. */
  run(command: string, args: string[], env: Record<string, string> = {}): SpawnSyncReturns<string> {
    const bin = this.path(join('node_modules', '.bin'));
    return spawnSync(command, args, {
      cwd: this.root,
      encoding: 'utf8',
      env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, ...env },
    });
  }

  dispose(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}

function readJson(path: string): Record<string, unknown> & {
  name: string;
  version: string;
  private?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
} {
  return JSON.parse(readFileSync(path, 'utf8'));
}

function readTarballName(tarball: string): { name: string; dependencies: Record<string, string> } {
  const run = spawnSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`cannot read ${tarball}: ${run.stderr}`);
  const manifest = JSON.parse(run.stdout);
  return { name: manifest.name, dependencies: { ...manifest.dependencies, ...manifest.peerDependencies } };
}

/**
 * Copies `tools` and every package they and our packages' third-party dependencies need, from this repository's
 * node_modules into `root`'s, each at the same place relative to the package that needs it. Returns the
 * versions of the tools.
 */
function copyClosure(
  tools: string[],
  root: string,
  ours: { name: string; dependencies: Record<string, string> }[],
  substitutes: Record<string, string>,
): { versions: Map<string, string>; sources: Map<string, string> } {
  const ourNames = new Set(ours.map((p) => p.name));
  const sources = new Map<string, string>(); // destination directory → the real directory copied there
  const substitute = new Map(
    Object.entries(substitutes).map(([name, alias]) => {
      const dir = realpathSync(join(repositoryModules, alias));
      return [name, { dir, version: readJson(join(dir, 'package.json')).version }];
    }),
  );

  // Where a package found at `found` goes: inside the copy of the package whose node_modules holds it, else at
  // the same place under the project's node_modules.
  const destinationOf = (found: string): string => {
    let best: [string, string] | null = null;
    for (const [destination, source] of sources) {
      if (
        found.startsWith(`${source}${sep}node_modules${sep}`) &&
        (!best || source.length > best[1].length)
      ) {
        best = [destination, source];
      }
    }
    if (best) return join(best[0], relative(best[1], found));
    const at = relative(repositoryModules, found);
    if (at.startsWith('..')) throw new Error(`${found} is outside the repository's node_modules`);
    return join(root, 'node_modules', at);
  };

  const copy = (source: string, destination: string): void => {
    if (sources.has(destination)) return;
    sources.set(destination, source);
    cpSync(source, destination, {
      recursive: true,
      filter: (from) => !relative(source, from).split(sep).includes('node_modules'),
    });
    const manifest = readJson(join(source, 'package.json'));
    const needs = { ...manifest.dependencies };
    for (const [name, range] of Object.entries(manifest.peerDependencies ?? {})) {
      if (!manifest.peerDependenciesMeta?.[name]?.optional) needs[name] = range;
    }
    // Optional ones as far as they are installed here (this platform's native bindings).
    for (const [name, range] of Object.entries(manifest.optionalDependencies ?? {})) {
      if (resolvePackage(name, source)) needs[name] = range;
    }
    for (const [name, range] of Object.entries(needs)) visit(name, range, source, destination);
  };

  const visit = (name: string, range: string, from: string, fromDestination: string): void => {
    if (ourNames.has(name)) return;
    // A substitute the project itself asks for (a tool, or a peer of ours it fits) is the project's own.
    // An older @babel/core is the project's own, its older parser, traverse, … nested inside it (the newer
    // ones stay at the top for pathprof); a range that excludes the older core gets the repository's, nested
    // inside the package that asks, as npm would place it.
    const older = substitute.get(name);
    if (older && fromDestination === root && satisfies(older.version, range)) {
      return copy(older.dir, join(root, 'node_modules', name));
    }
    const core = join(root, 'node_modules', '@babel', 'core');
    const insideCore = fromDestination === core || fromDestination.startsWith(`${core}${sep}`);
    if (older && (name === '@babel/core' || insideCore)) {
      if (!satisfies(older.version, range)) {
        return copy(resolvePackage(name, from)!, join(fromDestination, 'node_modules', name));
      }
      return copy(older.dir, name === '@babel/core' ? core : join(core, 'node_modules', name));
    }
    const found = resolvePackage(name, from);
    if (!found) throw new Error(`${name} (needed by ${from}) is not installed in the repository`);
    copy(found, destinationOf(found));
  };

  const versions = new Map<string, string>();
  for (const name of tools) {
    visit(name, '*', repository, root);
    const dir = substitute.get(name)?.dir ?? resolvePackage(name, repository)!;
    versions.set(name, readJson(join(dir, 'package.json')).version);
  }
  for (const { dependencies } of ours) {
    for (const [name, range] of Object.entries(dependencies)) visit(name, range, repository, root);
  }
  return { versions, sources };
}

/**
 * The project's package-lock.json for what was copied, each entry the repository's own for the copied
 * directory: without a lock file npm would not look at node_modules and would ask the registry about every tool.
 */
function lockFile(
  root: string,
  manifest: { name: string; devDependencies: Record<string, string> },
  sources: Map<string, string>,
): object {
  const repositoryLock = JSON.parse(readFileSync(join(repository, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, Record<string, unknown>>;
  };
  const packages: Record<string, unknown> = { '': manifest };
  for (const [destination, source] of sources) {
    const entry = { ...repositoryLock.packages[posix(relative(repository, source))] };
    delete entry.name; // an alias's real name: here it is installed under that name
    packages[posix(relative(root, destination))] = entry;
  }
  return { name: manifest.name, lockfileVersion: 3, requires: true, packages };
}

const posix = (path: string): string => path.split(sep).join('/');

/** Where Node would find package `name` from directory `from` (the real path), or null. */
function resolvePackage(name: string, from: string): string | null {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
    if (dirname(dir) === dir) return null;
  }
}
