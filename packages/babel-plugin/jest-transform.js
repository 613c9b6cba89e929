// babel-jest, with preferential mode's interesting set in the cache key:
// `transform: { '\\.[cm]?[jt]sx?$': 'babel-plugin-pathprof/jest-transform' }` (options as for babel-jest).
// babel-jest keys its cache on the Babel options, which name the set's file but not its content, and Babel
// runs no plugin code when jest computes the key: without this, a changed set would leave every cached file
// instrumented against the old one (pathprof-report residual detects that and fails, naming the files).
const { createHash } = require('node:crypto');
const { readFileSync } = require('node:fs');
const path = require('node:path');
const babel = require('@babel/core');
const babelJest = require('babel-jest');

/**
 * The content of every interesting set the Babel config gives `filename` (a pathprof plugin entry in mode
 * `preferential`), as babel-jest loads that config; a set that cannot be read counts as missing (the build
 * then fails, naming it).
 */
function interestingSets(filename, transformOptions, transformerConfig) {
  const { cwd, rootDir } = transformOptions.config;
  const babelOptions = { ...transformerConfig };
  delete babelOptions.excludeJestPreset;
  const partial = babel.loadPartialConfig({
    cwd,
    root: rootDir,
    ...babelOptions,
    caller: {
      name: 'babel-jest',
      supportsDynamicImport: transformOptions.supportsDynamicImport ?? false,
      supportsExportNamespaceFrom: transformOptions.supportsExportNamespaceFrom ?? false,
      supportsStaticESM: transformOptions.supportsStaticESM ?? false,
      supportsTopLevelAwait: transformOptions.supportsTopLevelAwait ?? false,
      ...babelOptions.caller,
    },
    filename,
  });
  const sets = [];
  for (const item of partial?.options.plugins ?? []) {
    const options = item.options;
    if (options?.mode !== 'preferential' || typeof options.interesting !== 'string') continue;
    const file = path.resolve(partial.options.cwd ?? cwd, options.interesting);
    let content;
    try {
      content = readFileSync(file, 'utf8');
    } catch {
      content = '(missing)';
    }
    sets.push(`${file}\0${content}`);
  }
  return sets;
}

function withSets(key, sets) {
  if (sets.length === 0) return key;
  const hash = createHash('sha1').update(key);
  for (const set of sets) hash.update('\0').update(set);
  return hash.digest('hex').slice(0, 32);
}

function createTransformer(transformerConfig = {}) {
  const inner = babelJest.createTransformer(transformerConfig);
  return {
    ...inner,
    getCacheKey(sourceText, sourcePath, transformOptions) {
      const key = inner.getCacheKey(sourceText, sourcePath, transformOptions);
      return withSets(key, interestingSets(sourcePath, transformOptions, transformerConfig));
    },
    async getCacheKeyAsync(sourceText, sourcePath, transformOptions) {
      const key = await inner.getCacheKeyAsync(sourceText, sourcePath, transformOptions);
      return withSets(key, interestingSets(sourcePath, transformOptions, transformerConfig));
    },
  };
}

module.exports = { createTransformer };
