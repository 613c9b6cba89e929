import istanbulExclude = require('@istanbuljs/schema/default-exclude');
import istanbulExtensions = require('@istanbuljs/schema/default-extension');

const extensions = istanbulExtensions.map((e) => e.slice(1)).join(',');

/**
 * Files never instrumented unless the `exclude` option says otherwise: istanbul's own defaults (test-exclude's
 * list from `@istanbuljs/schema`: test files and `test/` directories, `__tests__`, `.d.ts`, `coverage/`, tool
 * configs), plus what jest also never covers: `node_modules`, `*.spec.*` files and `__mocks__`. An `exclude`
 * option replaces the whole list, as nyc's does; to extend it, spread this one (exported by the package).
 */
export const DEFAULT_EXCLUDE: readonly string[] = [
  ...istanbulExclude,
  '**/node_modules/**',
  `**/*{.,-}spec.{${extensions}}`,
  '**/__mocks__/**',
];
