// The ES module half of babel-register.cjs (real-suites runner): a module loader hook that compiles the suite's
// own ES modules (the recipe's `include`) with babel-plugin-pathprof alone, and resolves the runtime the
// instrumented modules import through this repository (the checkout does not install it).
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const babel = require('@babel/core');
const picomatch = require('picomatch');
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const runtime = pathToFileURL(path.join(root, 'packages', 'babel-plugin', 'runtime.js')).href;
let settings;
let selected;

export function initialize(data) {
  settings = data;
  selected = picomatch(settings.include);
}

export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'babel-plugin-pathprof/runtime') return { url: runtime, shortCircuit: true };
  return nextResolve(specifier, context);
}

export async function load(url, context, nextLoad) {
  const loaded = await nextLoad(url, context);
  if (loaded.format !== 'module' || !url.startsWith('file:') || loaded.source == null) return loaded;
  const file = fileURLToPath(url);
  const relative = path.relative(settings.dir, file).split(path.sep).join('/');
  if (relative.startsWith('..') || relative.includes('node_modules/') || !selected(relative)) return loaded;
  const compiled = await babel.transformAsync(String(loaded.source), {
    filename: file,
    cwd: settings.dir,
    babelrc: false,
    configFile: false,
    plugins: [[settings.plugin, { include: ['**'], exclude: [], ...settings.pluginOptions }]],
  });
  return { format: 'module', source: compiled.code, shortCircuit: true };
}
