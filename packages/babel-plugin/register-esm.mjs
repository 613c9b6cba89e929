// The ES module half of babel-plugin-pathprof/register: a Node module loader hook (module.register) that
// compiles the project's ES modules with its Babel config, plus the plugin when the config lacks it, as the
// CommonJS half does for require(). Files outside the working directory and in node_modules load untouched.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let project;

export function initialize({ cwd, named }) {
  const here = createRequire(import.meta.url);
  project = {
    cwd,
    babel: here(here.resolve('@babel/core', { paths: [cwd, path.dirname(fileURLToPath(import.meta.url))] })),
    plugins: named ? [] : [here('./dist/index.js').default],
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
  const compiled = await project.babel.transformAsync(String(loaded.source), {
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
    },
  });
  return compiled ? { format: 'module', source: compiled.code, shortCircuit: true } : loaded;
}
