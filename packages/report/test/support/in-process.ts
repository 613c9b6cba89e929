import { transformSync } from '@babel/core';
import { join } from 'node:path';
import vm from 'node:vm';
import pathprof, { type PluginOptions } from 'babel-plugin-pathprof';
import * as runtime from '@pathprof/runtime';
import { decodeFileProfile, Problems, type ProfiledFile } from '../../src';

/** Runs `code` in a fresh context with the runtime `require` the plugin's `runtime: 'require'` calls. */
export function runInContext(code: string): vm.Context {
  const context = vm.createContext({
    require: (id: string) => {
      if (id === 'babel-plugin-pathprof/runtime') return runtime;
      throw new Error(`unexpected require(${id})`);
    },
  });
  vm.runInContext(code, context);
  return context;
}

/** Where a virtual file `name` is, and the key the plugin gives it (relative to the working directory). */
export function virtualFile(name: string): { filename: string; key: string } {
  return { filename: join(process.cwd(), 'virtual', name), key: `virtual/${name}` };
}

export const scriptOptions = (filename: string) => ({
  filename,
  babelrc: false,
  configFile: false,
  sourceType: 'script' as const,
});

/**
 * `source` instrumented by pathprof (with `options`), run once in this process, and its counts decoded as the report decodes
 * a profile (the runtime's store entry is removed afterwards, so each test starts from zero).
 */
export function profileInProcess(source: string, name: string, options: PluginOptions = {}): ProfiledFile {
  const { filename, key } = virtualFile(name);
  const code = transformSync(source, {
    ...scriptOptions(filename),
    plugins: [[pathprof, { runtime: 'require', ...options }]],
  })!.code!;
  try {
    runInContext(code);
    const profile = runtime.snapshot(runtime.getStore()).files.find((f) => f.key === key)!;
    const problems = new Problems();
    const file = decodeFileProfile(profile, filename, source, problems);
    if (!file || problems.any) throw new Error(`${key}: ${problems.messages.join('; ')}`);
    return file;
  } finally {
    delete runtime.getStore().files[key];
  }
}

/** A function `name` whose switch has `cases` cases (two blocks each: the test, the body), called with 1. */
export function switchOf(name: string, cases: number): string {
  const arms = Array.from({ length: cases }, (_, i) => `    case ${i}: return ${i * 2};`).join('\n');
  return `function ${name}(x) {\n  switch (x) {\n${arms}\n  }\n  return -1;\n}\n${name}(1);\n`;
}
