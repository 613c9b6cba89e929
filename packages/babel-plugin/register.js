// `node --require babel-plugin-pathprof/register`: compiles the project's CommonJS files with its own Babel
// config (babel.config.js, .babelrc) as they are required, and its ES modules as they are imported
// (register-esm.mjs, a module loader hook), with this plugin added when the config lacks it (a config that
// adds it under `env.test` only, when NODE_ENV is not test). `pathprof <command>` preloads it into every
// Node process of the command through NODE_OPTIONS, as nyc preloads its hook. Compiled files are cached (as
// nyc does: a test runner that starts a process per test file would compile every source file in each), keyed
// on the plugin's build and preferential mode's interesting sets too; BABEL_DISABLE_CACHE=1 turns it off.
// Node 20 runs NODE_OPTIONS' preloads in the module hooks' own thread too, where this file would load Babel for
// nothing and register the hooks a second time (every ES module compiled twice): the thread that registers them
// marks the one it starts.
const HOOKS_THREAD = 'PATHPROF_HOOKS_THREAD';
if (process.env[HOOKS_THREAD]) return;

const { createHash } = require('node:crypto');
const { readFileSync } = require('node:fs');
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

const { default: plugin, buildId } = require('./dist/index.js');
// The config a file at the project's root gets; a config that names the plugin keeps its options.
const config = babel.loadPartialConfig({ cwd, filename: path.join(cwd, 'index.js') });
const named = (config?.options.plugins ?? []).some((item) => item.value === plugin);
// Both caches key on the Babel options, caller included: what the options do not say goes there.
const caller = { pathprofBuild: cacheKey() };

// A project that calls @babel/register itself (mocha's --require of its own hook) replaces the options of
// the one hook there is: its call gets the plugin too.
const original = require(registerPath);
const register = Object.assign((options = {}) => {
  const withPlugin = named ? options : { ...options, plugins: [...(options.plugins ?? []), plugin] };
  return original({ ...withPlugin, caller: { ...options.caller, ...caller } });
}, original);
register.default = register;
require.cache[registerPath].exports = register;

register({
  cwd,
  extensions: ['.js', '.jsx', '.cjs', '.es6', '.es', '.ts', '.tsx', '.cts'],
  caller,
});
// Node 20.6 and later: ES modules too.
process.env[HOOKS_THREAD] = '1';
try {
  registerLoaderHooks?.(pathToFileURL(path.join(__dirname, 'register-esm.mjs')), {
    data: { cwd, named, caller },
  });
} finally {
  delete process.env[HOOKS_THREAD];
}

/**
 * The plugin's build and the content of every interesting set the project's config names (preferential mode
 * reads it while compiling; the options name only its file).
 */
function cacheKey() {
  const hash = createHash('sha1').update(buildId());
  for (const item of config?.options.plugins ?? []) {
    if (item.value !== plugin || typeof item.options?.interesting !== 'string') continue;
    const file = path.resolve(cwd, item.options.interesting);
    let content = '(missing)';
    try {
      content = readFileSync(file);
    } catch {
      // The build fails naming it.
    }
    hash.update('\0').update(file).update('\0').update(content);
  }
  return hash.digest('hex').slice(0, 16);
}
