// The test262-harness preprocessor of the conformance runner (run.mjs): instruments each test scenario, harness
// includes and all (test262-stream has already joined them into `test.contents`), with babel-plugin-pathprof,
// under the test's own filename so the plugin really instruments it. Settings come from the environment
// (PATHPROF_CONFORMANCE, JSON: { plugin, pluginOptions, statsFile }); what was instrumented, and what Babel
// could not parse (left as it is, so the engine judges it) and where the plugin failed, is written to `statsFile` when the harness exits.
const { transformSync } = require('@babel/core');
const { writeFileSync } = require('node:fs');
const path = require('node:path');

const settings = JSON.parse(process.env.PATHPROF_CONFORMANCE || '{}');
const plugin = require(settings.plugin);
const stats = { instrumented: 0, unparsed: [], crashed: [] };

process.on('exit', () => {
  if (settings.statsFile) writeFileSync(settings.statsFile, JSON.stringify(stats));
});

module.exports = function instrumentTest(test) {
  const module = Boolean(test.attrs.flags && test.attrs.flags.module);
  try {
    const result = transformSync(test.contents, {
      filename: path.resolve(test.file),
      babelrc: false,
      configFile: false,
      sourceType: module ? 'module' : 'script',
      plugins: [[plugin, { runtime: 'require', include: ['**'], exclude: [], ...settings.pluginOptions }]],
    });
    test.contents = result.code;
    stats.instrumented++;
  } catch (error) {
    // A syntax error Babel finds is left for the engine to find too; anything else is pathprof's failure.
    const list = error.code === 'BABEL_PARSE_ERROR' ? stats.unparsed : stats.crashed;
    const { phase, type } = test.attrs.negative || {};
    const expected = (phase === 'parse' || phase === 'early') && type === 'SyntaxError';
    list.push({ file: test.file, scenario: test.scenario, expected, message: error.message.split('\n')[0] });
  }
  return test;
};
