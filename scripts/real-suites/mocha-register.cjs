// Required first by mocha in the real-suites runner (run.mjs): compiles the suite's own source files (the
// recipe's `include` globs, relative to the checkout) with babel-plugin-pathprof alone, through @babel/register.
// Settings come from PATHPROF_REAL_SUITE (JSON: { dir, plugin, include, pluginOptions }).
const path = require('node:path');
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
  plugins: [
    [settings.plugin, { runtime: 'require', include: ['**'], exclude: [], ...settings.pluginOptions }],
  ],
});
