import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dist = join(__dirname, '..', 'dist');

/** `expression` of dist/build-id.js's exports (`id`), in a process of its own (the id is kept per process). */
function inProcess(expression: string): string {
  const run = spawnSync(
    process.execPath,
    ['-e', `const id = require(${JSON.stringify(join(dist, 'build-id.js'))}); console.log(${expression});`],
    { encoding: 'utf8' },
  );
  expect(run.stderr).toBe('');
  return run.stdout.trim();
}

(existsSync(join(dist, 'build-id.js')) ? describe : describe.skip)('the build id remembered on disk', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'pathprof-build-id-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('is used while no built file changed; a changed one (its change time) has it computed again', () => {
    const memo = join(dir, 'build-id.json');
    const computed = inProcess('id.buildId()');
    expect(inProcess(`id.rememberedBuildId(${JSON.stringify(memo)})`)).toBe(computed);
    if (!existsSync(memo)) {
      // Built less than two seconds ago: not remembered yet.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2500);
      expect(inProcess(`id.rememberedBuildId(${JSON.stringify(memo)})`)).toBe(computed);
    }
    const remembered = JSON.parse(readFileSync(memo, 'utf8')) as { stamp: string; id: string };
    expect(remembered.id).toBe(computed);
    // What is remembered is what a process reads: changed here, it reads changed.
    writeFileSync(memo, JSON.stringify({ ...remembered, id: 'remembered' }));
    expect(inProcess(`id.rememberedBuildId(${JSON.stringify(memo)})`)).toBe('remembered');
    // Touching a file (its times, not its content: other tests read it) moves its change time.
    const file = join(dist, 'build-id.js');
    const { atime, mtime } = statSync(file);
    utimesSync(file, atime, mtime);
    expect(inProcess(`id.rememberedBuildId(${JSON.stringify(memo)})`)).toBe(computed);
  });
});
