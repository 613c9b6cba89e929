// `node --require babel-plugin-pathprof/register`: compiles the project's CommonJS files with its own Babel
// config (babel.config.js, .babelrc) as they are required, and its ES modules as they are imported
// (register-esm.mjs, a module loader hook), with this plugin added when the config lacks it (a config that
// adds it under `env.test` only, when NODE_ENV is not test). `pathprof <command>` preloads it into every
// Node process of the command through NODE_OPTIONS, as nyc preloads its hook. The CommonJS hook is
// @babel/register's (its options, its `only`/`ignore` defaults, the project's own calls to it), with the
// compiled files cached as nyc does: a test runner that starts a process per test file would compile every
// source file in each. The cache's key needs no Babel (compiled-file-cache.ts), so Babel and the plugin load
// at the first file not in it: a process whose files are all cached skips most of the preload's cost.
// BABEL_DISABLE_CACHE=1 turns the cache off.
// Node 20 runs NODE_OPTIONS' preloads in the module hooks' own thread too, where this file would register the
// hooks a second time (every ES module compiled twice): the thread that registers them marks the one it starts.
const HOOKS_THREAD = 'PATHPROF_HOOKS_THREAD';
if (process.env[HOOKS_THREAD]) return;

const { readFileSync } = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const { fileURLToPath, pathToFileURL } = require('node:url');
const { MessageChannel, receiveMessageOnPort } = require('node:worker_threads');
const { CompiledFileCache, cacheDirectory } = require('./dist/compiled-file-cache.js');

const cwd = process.cwd();
let registerPath;
let corePath;
try {
  registerPath = require.resolve('@babel/register', { paths: [cwd, __dirname] });
  corePath = require.resolve('@babel/core', { paths: [cwd, __dirname] });
} catch {
  throw new Error(
    'pathprof: profiling a Node command needs @babel/register and @babel/core in the project: npm install -D @babel/register @babel/core',
  );
}
const babelVersion = JSON.parse(
  readFileSync(require.resolve('@babel/core/package.json', { paths: [cwd, __dirname] }), 'utf8'),
).version;
// @babel/register's own dependencies: the require hook and stack traces through source maps.
const fromRegister = { paths: [path.dirname(registerPath)] };
const piratesPath = require.resolve('pirates', fromRegister);
const pirates = require(piratesPath);
const cache = new CompiledFileCache(cacheDirectory(cwd), cwd);

/** Babel, and the plugins the hooks add to the project's config: loaded at the first file not in the cache. */
let compiler;
function loadCompiler() {
  if (compiler) return compiler;
  const babel = require(corePath);
  const { default: plugin } = require('./dist/index.js');
  // The config a file at the project's root gets; a config that names the plugin keeps its options.
  const config = babel.loadPartialConfig({ cwd, filename: path.join(cwd, 'index.js') });
  const named = (config?.options.plugins ?? []).some((item) => item.value === plugin);
  const { onlyPathprofLeavesOut } = require('./dist/untouched-files.js');
  return (compiler = { babel, plugin, plugins: named ? [] : [plugin], onlyPathprofLeavesOut });
}

/** @babel/register's extensions when a call names none (@babel/core's DEFAULT_EXTENSIONS, without loading it). */
const BABEL_EXTENSIONS = ['.js', '.jsx', '.es6', '.es', '.mjs', '.cjs'];
const escape = (text) => text.replace(/[|\\{}()[\]^$+*?.]/g, '\\$&');

/** The hook's current options (@babel/register's `setOptions`), what the cache key holds of them. */
let hook;
let revert;
/** Babel at work: files it requires itself (configs, plugins) load untouched, as @babel/register has them. */
let compiling = false;

/** @babel/register's `register(options)`: the one hook there is, with these options from now on. */
function register(options = {}) {
  const { extensions = BABEL_EXTENSIONS, cache: caching = true, ...rest } = options;
  const transform = { ...rest, caller: { name: '@babel/register', ...rest.caller } };
  transform.cwd = path.resolve(transform.cwd ?? '.');
  if (transform.only === undefined && transform.ignore === undefined) {
    transform.only = [new RegExp(`^${escape(transform.cwd)}`, 'i')];
    transform.ignore = [
      new RegExp(
        `^${escape(transform.cwd)}(?:${escape(path.sep)}.*)?${escape(`${path.sep}node_modules${path.sep}`)}`,
        'i',
      ),
    ];
  }
  hook = { transform, caching, settings: settingsOf(transform) };
  revert?.();
  revert = pirates.addHook(compile, { exts: extensions, ignoreNodeModules: false, matcher: matches });
}
register.revert = () => revert?.();
register.default = register;

/**
 * The options as the cache key holds them, and @babel/core's version; null when they hold a function (a
 * plugin or an `only` given as one), which text cannot stand for: the key then holds Babel's resolved
 * options, as @babel/register's does.
 */
function settingsOf(transform) {
  let serializable = true;
  const text = JSON.stringify({ hook: 'commonjs', babelVersion, transform }, (_key, value) => {
    if (typeof value === 'function') serializable = false;
    return value instanceof RegExp ? `RegExp ${value}` : value;
  });
  return serializable ? text : null;
}

/**
 * Whether the hook's `only`/`ignore` take `filename` (as Babel matches them): decided here when they are
 * regular expressions (the defaults), else by Babel at the first compile (cached with the output).
 */
function matches(filename) {
  if (compiling) return false;
  const { only, ignore } = hook.transform;
  const patterns = [...(only ?? []), ...(ignore ?? [])];
  if (!patterns.every((pattern) => pattern instanceof RegExp)) return true;
  if (ignore?.some((pattern) => pattern.test(filename))) return false;
  return only === undefined || only.some((pattern) => pattern.test(filename));
}

function compile(source, filename) {
  if (compiling) return source;
  compiling = true;
  try {
    const settings = hook.settings ?? resolvedSettings(filename);
    const key = hook.caching ? cache.key(filename, source, settings) : null;
    const compiled = cache.read(key) ?? compileWithBabel(source, filename, key);
    if (compiled.map) {
      maps.set(filename, compiled.map);
      installSourceMaps();
    }
    return compiled.code ?? source;
  } finally {
    compiling = false;
  }
}

/** The options of `filename` for Babel: the hook's, its source root, the plugin unless the config names it. */
function optionsOf(filename) {
  const { transform } = hook;
  return {
    sourceRoot: path.dirname(filename) + path.sep,
    ...transform,
    plugins: [...(transform.plugins ?? []), ...loadCompiler().plugins],
    filename,
  };
}

function resolvedSettings(filename) {
  const partial = loadCompiler().babel.loadPartialConfig(optionsOf(filename));
  return JSON.stringify({ hook: 'commonjs', babelVersion, options: partial?.options ?? null });
}

function compileWithBabel(source, filename, key) {
  const loaded = cache.watchLoads();
  const { babel, plugin, onlyPathprofLeavesOut } = loadCompiler();
  // @babel/register's matcher: the hook's `only`/`ignore` alone, then the config's in the options.
  const ignoreCheck = {
    ...hook.transform,
    filename,
    showIgnoredFiles: true,
    babelrc: false,
    configFile: false,
    browserslistConfigFile: false,
    plugins: [],
    presets: [],
    targets: { browsers: undefined },
  };
  const partial = babel.loadPartialConfig(ignoreCheck) && babel.loadPartialConfig(optionsOf(filename));
  const result =
    partial &&
    (onlyPathprofLeavesOut(partial.options, plugin, filename, source)
      ? { code: null, map: null }
      : babel.transformSync(source, {
          ...partial.options,
          sourceMaps: partial.options.sourceMaps === undefined ? 'both' : partial.options.sourceMaps,
          ast: false,
        }));
  loaded();
  return cache.storeCompiled(
    key,
    filename,
    partial && { ...result, files: partial.files, options: partial.options },
  );
}

/**
 * Source maps of the compiled files, for stack traces, which the first one installs: V8's frames at the sources'
 * positions (source-position-stacks.ts), as the files give without pathprof. A project that loads @babel/register
 * itself gets the frames its own hook gives: source-map-support's, loaded then.
 */
const maps = new Map();
let projectLoadsRegister = false;
let sourceMapsInstalled = false;
function installSourceMaps() {
  if (sourceMapsInstalled) return;
  sourceMapsInstalled = true;
  if (projectLoadsRegister) installSourceMapSupport();
  else
    Error.prepareStackTrace = require('./dist/source-position-stacks.js').sourcePositionStacks(mapOf, [
      piratesPath,
    ]);
}
function installSourceMapSupport() {
  require(require.resolve('source-map-support', fromRegister)).install({
    handleUncaughtExceptions: false,
    environment: 'node',
    retrieveSourceMap: (filename) => {
      const map = mapOf(filename);
      return map === undefined ? null : { url: null, map };
    },
  });
}
function mapOf(filename) {
  receiveModuleMaps();
  return maps.get(filename) ?? requiredModuleMap(filename);
}

/**
 * The ES modules' maps, by URL (their frames' file names), posted by the hooks' thread as it compiles them:
 * the first arrives before the module runs; those that come later are read when a stack trace needs them.
 */
const moduleMaps = new MessageChannel();
moduleMaps.port1.once('message', (message) => {
  addModuleMap(message);
  installSourceMaps();
});
// After the listener, which refs the port: waiting for maps must not keep the process alive.
moduleMaps.port1.unref();
function receiveModuleMaps() {
  for (let next; (next = receiveMessageOnPort(moduleMaps.port1));) addModuleMap(next.message);
}
function addModuleMap({ url, map }) {
  // Babel names the module's own source by its file's name: the frames show its URL (file:///…) instead, as
  // without pathprof. Sources of an input source map (a .ts compiled earlier) stay as they are.
  const own = path.basename(fileURLToPath(url));
  maps.set(url, { ...map, sources: map.sources.map((source) => (source === own ? url : source)) });
}

/**
 * An ES module that require() loaded (Node's require(esm): mocha requires a spec before importing it) went
 * through the CommonJS hook: its map is under its path, with the path's folder as source root; its frames name
 * its URL.
 */
function requiredModuleMap(filename) {
  if (!filename.startsWith('file:')) return undefined;
  const map = maps.get(fileURLToPath(filename));
  if (map === undefined) return undefined;
  addModuleMap({ url: filename, map: { ...map, sourceRoot: undefined } });
  return maps.get(filename);
}

// A project that calls @babel/register itself (mocha's --require of its own hook) sets the options of the one
// hook there is: its `require('@babel/register')` gets this module's `register`, @babel/register never loads.
const stand = new Module(registerPath, null);
stand.filename = registerPath;
stand.loaded = true;
// Read by require() (Module._load returns a cached module's exports): the project loads @babel/register.
Object.defineProperty(stand, 'exports', {
  get() {
    // Its hook would install source-map-support at its first compiled file: at once, if ours came first.
    if (!projectLoadsRegister && sourceMapsInstalled) installSourceMapSupport();
    projectLoadsRegister = true;
    return register;
  },
});
require.cache[registerPath] = stand;

register({ cwd, extensions: ['.js', '.jsx', '.cjs', '.es6', '.es', '.ts', '.tsx', '.cts'] });
// Node 20.6 and later: ES modules too.
process.env[HOOKS_THREAD] = '1';
try {
  Module.register?.(pathToFileURL(path.join(__dirname, 'register-esm.mjs')), {
    data: { cwd, corePath, babelVersion, sourceMaps: moduleMaps.port2 },
    transferList: [moduleMaps.port2],
  });
} finally {
  delete process.env[HOOKS_THREAD];
}
