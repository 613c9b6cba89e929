// The ES module half of babel-plugin-pathprof/register: a Node module loader hook (module.register) that
// compiles the project's ES modules with its Babel config, plus the plugin when the config lacks it, as the
// CommonJS half does for require(). Files outside the working directory and in node_modules load untouched.
// Compiled modules are cached in node_modules/.cache/pathprof, as @babel/register caches the CommonJS half's,
// keyed on the Babel options (the caller says the plugin's build) and the source; BABEL_DISABLE_CACHE=1 turns
// it off.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let project;

export function initialize({ cwd, named, caller }) {
  const here = createRequire(import.meta.url);
  const modules = path.join(cwd, 'node_modules');
  project = {
    cwd,
    babel: here(here.resolve('@babel/core', { paths: [cwd, path.dirname(fileURLToPath(import.meta.url))] })),
    plugins: named ? [] : [here('./dist/index.js').default],
    caller,
    // Where @babel/register's cache goes too (find-cache-dir): only in a project with its node_modules.
    cache:
      process.env.BABEL_DISABLE_CACHE || !existsSync(modules)
        ? null
        : path.join(modules, '.cache', 'pathprof'),
  };
}

export async function load(url, context, nextLoad) {
  const loaded = await nextLoad(url, context);
  if (loaded.format !== 'module' || !url.startsWith('file:') || loaded.source == null) return loaded;
  const file = fileURLToPath(url);
  const relative = path.relative(project.cwd, file);
  if (
    relative.startsWith('..') ||
    path.isAbsolute(relative) ||
    relative.split(path.sep).includes('node_modules')
  )
    return loaded;
  const { babel } = project;
  const options = await babel.loadOptionsAsync({
    filename: file,
    cwd: project.cwd,
    sourceMaps: 'inline',
    plugins: project.plugins,
    // Keeps ES modules ES modules (preset-env leaves them alone for such a caller).
    caller: {
      name: 'babel-plugin-pathprof/register',
      supportsStaticESM: true,
      supportsDynamicImport: true,
      supportsTopLevelAwait: true,
      ...project.caller,
    },
  });
  // Ignored by the project's config.
  if (options === null) return loaded;
  const source = String(loaded.source);
  const cached = project.cache && path.join(project.cache, `${cacheKey(options, source)}.mjs`);
  if (cached) {
    try {
      return { format: 'module', source: readFileSync(cached, 'utf8'), shortCircuit: true };
    } catch {
      // Not compiled yet (a file appears whole: `store`).
    }
  }
  const compiled = await babel.transformAsync(source, options);
  if (!compiled) return loaded;
  if (cached) store(cached, compiled.code, file);
  return { format: 'module', source: compiled.code, shortCircuit: true };
}

function cacheKey(options, source) {
  return createHash('sha1')
    .update(JSON.stringify(options))
    .update('\0')
    .update(project.babel.version)
    .update('\0')
    .update(source)
    .digest('hex');
}

/** Written whole or not at all: processes compiling the same module at once each rename a file of their own. */
function store(cached, code, file) {
  const temporary = `${cached}.${process.pid}.tmp`;
  try {
    mkdirSync(path.dirname(cached), { recursive: true });
    writeFileSync(temporary, code);
    renameSync(temporary, cached);
  } catch (error) {
    process.emitWarning(`pathprof: could not cache ${file} compiled: ${error.message}`);
  }
}
