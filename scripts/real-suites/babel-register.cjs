// Required first by mocha, or by every process of `node --test` (through NODE_OPTIONS), in the real-suites
// runner (run.mjs): compiles the suite's own source files (the recipe's `include` globs, relative to the
// checkout) with babel-plugin-pathprof alone: CommonJS through @babel/register here, ES modules through
// babel-register-esm.mjs. Settings come from PATHPROF_REAL_SUITE (JSON: { dir, plugin, include, pluginOptions }).
// Node 20 runs NODE_OPTIONS' preloads in the module hooks' thread too: that thread is marked and skips it all.
const HOOKS_THREAD = 'PATHPROF_HOOKS_THREAD';
if (process.env[HOOKS_THREAD]) return;
const { register } = require('node:module');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const picomatch = require('picomatch');

const settings = JSON.parse(process.env.PATHPROF_REAL_SUITE);
const selected = picomatch(settings.include);
require('@babel/register')({
  cwd: settings.dir,
  babelrc: false,
  configFile: false,
  extensions: ['.js', '.cjs'],
  cache: false,
  only: [
    (file) =>
      !file.includes(`${path.sep}node_modules${path.sep}`) &&
      selected(path.relative(settings.dir, file).split(path.sep).join('/')),
  ],
  plugins: [[settings.plugin, { include: ['**'], exclude: [], ...settings.pluginOptions }]],
});
// ES modules: babel-register-esm.mjs.
process.env[HOOKS_THREAD] = '1';
try {
  register(pathToFileURL(path.join(__dirname, 'babel-register-esm.mjs')), { data: settings });
} finally {
  delete process.env[HOOKS_THREAD];
}
