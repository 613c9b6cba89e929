import { transformSync } from '@babel/core';
import pathprof from 'babel-plugin-pathprof';
import * as runtime from '@pathprof/runtime';
import { decodeFileProfile, Problems } from '../src';
import { runInContext, scriptOptions, virtualFile } from './support/in-process';

/** `source` instrumented and run once (an exception leaving it is caught here), decoded: the report's notes. */
function notesOf(source: string, name: string): string[] {
  const { filename, key } = virtualFile(name);
  const code = transformSync(source, {
    ...scriptOptions(filename),
    plugins: [[pathprof, { runtime: 'require' }]],
  })!.code!;
  try {
    try {
      runInContext(code);
    } catch {
      // The top level threw: what the report says about it is the test.
    }
    const profile = runtime.snapshot(runtime.getStore()).files.find((f) => f.key === key)!;
    const problems = new Problems();
    expect(decodeFileProfile(profile, filename, source, problems)).not.toBeNull();
    expect(problems.messages).toEqual([]);
    return problems.notes;
  } finally {
    delete runtime.getStore().files[key];
  }
}

const check = 'function check(x) {\n  if (x < 0) throw new RangeError("negative");\n  return x;\n}\n';

test('a top level that an exception left is named: its path is not counted, its functions were', () => {
  expect(notesOf(`${check}check(1);\ncheck(-1);\n`, 'top-throws.js')).toEqual([
    'virtual/top-throws.js: its top level ran but never finished (an exception left it, or the process ended during it), so its path is not counted and the lines it ran read as not executed',
  ]);
});

test('a top level that finished, or that ran nothing else, says nothing', () => {
  expect(notesOf(`${check}check(1);\n`, 'top-finishes.js')).toEqual([]);
  expect(notesOf('throw new Error("at once");\n', 'top-throws-alone.js')).toEqual([]);
});
