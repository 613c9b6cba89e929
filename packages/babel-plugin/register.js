// `node --require babel-plugin-pathprof/register`: compiles the project's CommonJS files with its own Babel
// config (babel.config.js, .babelrc) as they are required, and its ES modules as they are imported
// (register-esm.mjs, a module loader hook), with this plugin added when the config lacks it (a config that
// adds it under `env.test` only, when NODE_ENV is not test). `pathprof <command>` preloads it into every
// Node process of the command through NODE_OPTIONS, as nyc preloads its hook.
const { register: registerLoaderHooks } = require('node:module');
const path = require('node:path');
const { pathToFileURL } = require('node:url');

const cwd = process.cwd();
let registerPath;
let babel;
try {
  registerPath = require.resolve('@babel/register', { paths: [cwd, __dirname] });
  babel = require(require.resolve('@babel/core', { paths: [cwd, __dirname] }));
} catch {
  throw new Error(
    'pathprof: profiling a Node command needs @babel/register and @babel/core in the project: npm install -D @babel/register @babel/core',
  );
}

const plugin = require('./dist/index.js').default;
// The config a file at the project's root gets; a config that names the plugin keeps its options.
const config = babel.loadPartialConfig({ cwd, filename: path.join(cwd, 'index.js') });
const named = (config?.options.plugins ?? []).some((item) => item.value === plugin);

// A project that calls @babel/register itself (mocha's --require of its own hook) replaces the options of
// the one hook there is: its call gets the plugin too.
const original = require(registerPath);
const register = Object.assign(
  (options = {}) => original(named ? options : { ...options, plugins: [...(options.plugins ?? []), plugin] }),
  original,
);
register.default = register;
require.cache[registerPath].exports = register;

register({
  cwd,
  extensions: ['.js', '.jsx', '.cjs', '.es6', '.es', '.ts', '.tsx', '.cts'],
  // The instrumentation depends on the plugin's version, which a cache key does not include.
  cache: false,
});
// Node 20.6 and later: ES modules too.
registerLoaderHooks?.(pathToFileURL(path.join(__dirname, 'register-esm.mjs')), { data: { cwd, named } });
