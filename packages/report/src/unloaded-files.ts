import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve, sep } from 'node:path';
import type { FileProfile } from '@pathprof/runtime';
import { resolveOptions, type FileNotes } from 'babel-plugin-pathprof';
import type { Problems } from './problems';

/** The extensions istanbul looks at (`@istanbuljs/schema`'s defaults), TypeScript's module ones too. */
const SOURCE = /\.(?:[cm]?js|jsx|[cm]?ts|tsx)$/;

/**
 * With `all: true` in pathprof's options in the project's Babel config (its `test` environment, or
 * `BABEL_ENV`'s), the files that config selects but no profile has: each is compiled with that config (nothing
 * of it runs) and given a profile with no counts, so the report lists it with every path unexecuted, as nyc's
 * `--all` and jest's `collectCoverageFrom` do. `root` is the project (Babel's working directory, which the
 * profiles' keys are relative to); `known` the keys that have profiles. A file that does not compile is named.
 */
export function unloadedFiles(root: string, known: ReadonlySet<string>, problems: Problems): FileProfile[] {
  const projectRoot = resolve(root);
  let babel: typeof import('@babel/core');
  try {
    babel = createRequire(join(projectRoot, 'package.json'))('@babel/core');
  } catch {
    return []; // no Babel in the project: nothing was instrumented by a config to read
  }
  const envName = process.env.BABEL_ENV || 'test';
  let config;
  try {
    config = babel.loadPartialConfig({
      cwd: projectRoot,
      filename: join(projectRoot, 'pathprof-all.js'),
      envName,
    });
  } catch {
    return []; // the run itself compiled with this config; a config that fails here says so where it runs
  }
  const item = config?.options.plugins?.find(
    (p) =>
      typeof p === 'object' &&
      p !== null &&
      'value' in p &&
      (p.value as { name?: string }).name === 'pathprof',
  ) as { options?: unknown } | undefined;
  if (!item || (item.options as { all?: unknown } | undefined)?.all !== true) return [];
  const { selects } = resolveOptions(item.options);
  return countlessProfiles(
    projectRoot,
    known,
    selects,
    (path) =>
      (
        babel.transformFileSync(path, { cwd: projectRoot, envName, code: false, ast: false })?.metadata as
          { pathprof?: FileNotes } | undefined
      )?.pathprof?.profile,
    problems,
  );
}

/**
 * The source files under `root` that `selects` takes (by key: the path relative to `root`, with `/`) and
 * `known` lacks, each given the profile `compile` makes of it (the plugin's, from its notes) with no counts:
 * what `all` adds, for the report (compiling with the project's Babel config) and for the Vitest provider
 * (compiling as it instruments). A file that does not compile is named in `problems`.
 */
export function countlessProfiles(
  root: string,
  known: ReadonlySet<string>,
  selects: (key: string) => boolean,
  compile: (path: string) => FileNotes['profile'],
  problems: Pick<Problems, 'add'>,
): FileProfile[] {
  const profiles: FileProfile[] = [];
  for (const key of sourceFiles(root)) {
    if (known.has(key) || !selects(key)) continue;
    try {
      const profile = compile(join(root, key));
      if (profile) profiles.push({ ...profile, counts: [], hashed: [] });
    } catch (error) {
      problems.add(
        `${key}: not loaded by the tests, and it does not compile for \`all\`: ${(error as Error).message}`,
      );
    }
  }
  return profiles;
}

/** Every source file under `root` by its key (relative, with `/`), outside node_modules and dot-directories. */
function sourceFiles(root: string): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && SOURCE.test(entry.name))
        files.push(relative(root, path).split(sep).join('/'));
    }
  };
  walk(root);
  return files.sort();
}
