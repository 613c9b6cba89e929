// The test262-harness preprocessor of the conformance runner (run.mjs): instruments each test scenario, harness
// includes and all (test262-stream has already joined them into `test.contents`), with babel-plugin-pathprof,
// under the test's own filename so the plugin really instruments it. Settings come from the environment
// (PATHPROF_CONFORMANCE, JSON: { plugin, pluginOptions, statsFile }); what was instrumented, what Babel could not
// parse or would not transform (left as it is, so the engine judges it; babel-refusal.cjs) and where the plugin
// failed is written to `statsFile` when the harness exits.
const { transformSync } = require('@babel/core');
const { writeFileSync } = require('node:fs');
const path = require('node:path');
const { failureKind } = require('./babel-refusal.cjs');

const settings = JSON.parse(process.env.PATHPROF_CONFORMANCE || '{}');
const plugin = require(settings.plugin);
const tracing = settings.pluginOptions && settings.pluginOptions.mode === 'trace';
const { countingRecorderSource } = tracing ? require('./trace-recorder.cjs') : {};

/** Puts the trace recorder first in the program, after its directives (a strict scenario stays strict). */
const withRecorder = ({ template }) => ({
  visitor: {
    Program: {
      exit(program) {
        program.unshiftContainer('body', template.statements.ast(countingRecorderSource));
      },
    },
  },
});
const stats = { instrumented: 0, unparsed: [], crashed: [] };

process.on('exit', () => {
  if (settings.statsFile) writeFileSync(settings.statsFile, JSON.stringify(stats));
});

module.exports = function instrumentTest(test) {
  const module = Boolean(test.attrs.flags && test.attrs.flags.module);
  const options = {
    filename: path.resolve(test.file),
    babelrc: false,
    configFile: false,
    sourceType: module ? 'module' : 'script',
  };
  try {
    const plugins = [
      [plugin, { runtime: 'require', include: ['**'], exclude: [], ...settings.pluginOptions }],
      ...(tracing ? [withRecorder] : []),
    ];
    test.contents = transformSync(test.contents, { ...options, plugins }).code;
    stats.instrumented++;
  } catch (error) {
    const { phase, type } = test.attrs.negative || {};
    const expected = (phase === 'parse' || phase === 'early') && type === 'SyntaxError';
    const { list, refused } = failureKind(error, test.contents, options);
    const entry = { file: test.file, scenario: test.scenario, expected, refused };
    stats[list].push({ ...entry, message: error.message.split('\n')[0] });
  }
  return test;
};
