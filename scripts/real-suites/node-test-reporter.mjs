// A node:test reporter for the real-suites runner (run.mjs): each test's outcome under its full name (its
// suites' names and its own), as JSON, to the reporter's destination. Suites themselves are not listed: a suite
// fails only through its tests, or as a file that could not run, which is listed under the file's name.
import { relative } from 'node:path';

export default async function* nodeTestReporter(source) {
  // Per test file (events of different files may interleave), the names of the suites open at each nesting.
  const open = new Map();
  const tests = [];
  for await (const event of source) {
    const { name, nesting, file, skip, todo, details } = event.data ?? {};
    const names = file === undefined ? [] : (open.get(file) ?? open.set(file, []).get(file));
    if (event.type === 'test:start') names[nesting] = name;
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    if (details?.type === 'suite' && event.type === 'test:pass') continue;
    const where = file === undefined ? '' : `${relative(process.cwd(), file)} `;
    const outcome = event.type === 'test:fail' ? 'failed' : skip || todo ? 'pending' : 'passed';
    tests.push({ name: where + [...names.slice(0, nesting), name].join(' '), outcome });
  }
  yield `${JSON.stringify(tests)}\n`;
}
