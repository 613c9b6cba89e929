// The test files of a test262 checkout that globs select.
import { readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import picomatch from 'picomatch';

/** The files under `dir`/test the globs select (paths relative to `dir`, with `/`), sorted; fixtures are not tests. */
export function testFiles(dir, globs) {
  const match = picomatch(globs);
  const all = [];
  const walk = (d) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const full = join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.js') && !entry.name.includes('_FIXTURE')) {
        const rel = relative(dir, full).split(sep).join('/');
        if (match(rel)) all.push(rel);
      }
    }
  };
  walk(join(dir, 'test'));
  return all.sort();
}
