// The ES module half of babel-plugin-pathprof/register: a Node module loader hook (module.register) that
// compiles the project's ES modules with its Babel config, plus the plugin when the config lacks it, as the
// CommonJS half does for require(). Files outside the working directory and in node_modules load untouched.
// Compiled modules are cached in node_modules/.cache/pathprof under a key that needs no Babel
// (compiled-file-cache.ts): Babel and the plugin load in this thread at the first module not in the cache.
// BABEL_DISABLE_CACHE=1 turns the cache off.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = createRequire(import.meta.url);
const { CompiledFileCache, cacheDirectory } = here('./dist/compiled-file-cache.js');

let project;

export function initialize({ cwd, corePath, babelVersion, sourceMaps }) {
  project = {
    cwd,
    corePath,
    cache: new CompiledFileCache(cacheDirectory(cwd), cwd),
    sourceMaps,
    // Keeps ES modules ES modules (preset-env leaves them alone for such a caller). The map goes inline (for
    // --enable-source-maps) and to register.js's stack traces, which Node would give the compiled positions.
    options: {
      cwd,
      sourceMaps: 'both',
      caller: {
        name: 'babel-plugin-pathprof/register',
        supportsStaticESM: true,
        supportsDynamicImport: true,
        supportsTopLevelAwait: true,
      },
    },
    babelVersion,
    compiler: null,
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
  const source = String(loaded.source);
  const { cache, options, babelVersion } = project;
  const key = cache.key(file, source, JSON.stringify({ hook: 'module', babelVersion, options }));
  const compiled = cache.read(key) ?? (await compileWithBabel(source, file, key));
  if (compiled.code === null) return loaded;
  if (compiled.map) project.sourceMaps.postMessage({ url, map: compiled.map });
  return { format: 'module', source: compiled.code, shortCircuit: true };
}

async function compileWithBabel(source, file, key) {
  const { cache } = project;
  const loaded = cache.watchLoads();
  const { babel, plugin, plugins, onlyPathprofLeavesOut } = await loadCompiler();
  const partial = await babel.loadPartialConfigAsync({ ...project.options, plugins, filename: file });
  // Null: ignored by the project's config.
  const result =
    partial &&
    (onlyPathprofLeavesOut(partial.options, plugin, file, source)
      ? { code: null, map: null }
      : await babel.transformAsync(source, partial.options));
  loaded();
  return cache.storeCompiled(
    key,
    file,
    partial && { ...result, files: partial.files, options: partial.options },
  );
}

/** Babel, and the plugin unless the project's config names it (then its options stand). */
async function loadCompiler() {
  if (project.compiler) return project.compiler;
  const babel = here(project.corePath);
  const { default: plugin } = here('./dist/index.js');
  const config = await babel.loadPartialConfigAsync({
    cwd: project.cwd,
    filename: path.join(project.cwd, 'index.js'),
  });
  const named = (config?.options.plugins ?? []).some((item) => item.value === plugin);
  const { onlyPathprofLeavesOut } = here('./dist/untouched-files.js');
  return (project.compiler = { babel, plugin, plugins: named ? [] : [plugin], onlyPathprofLeavesOut });
}
