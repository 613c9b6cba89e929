// Where a test that the plugin could not instrument belongs, for both engines' instrumenting code
// (vm-worker.cjs, instrument-test.cjs). A syntax error Babel finds is left for the engine to find too. So is a
// test Babel refuses to transform with no plugin at all: its scope tracker throws `Duplicate declaration` on
// sloppy code the language allows (an Annex B function declaration as an `if` branch, `if (x) function f() {}`,
// in a scope with `let f` or a `catch (f)`: annexB/language/function-code/*-skip-early-err*), so no Babel
// plugin can instrument it. Anything else is pathprof's failure.
/**
 * `unparsed` (with `refused: true` when Babel parses the source but will not transform it) or `crashed`, for
 * `error`, which the plugin's transform of `source` with these Babel `options` threw.
 */
function failureKind(error, source, options) {
  if (error.code === 'BABEL_PARSE_ERROR') return { list: 'unparsed', refused: false };
  try {
    require('@babel/core').transformSync(source, { ...options, plugins: [] });
  } catch {
    return { list: 'unparsed', refused: true };
  }
  return { list: 'crashed', refused: false };
}

module.exports = { failureKind };
