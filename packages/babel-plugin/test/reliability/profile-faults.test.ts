import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mergeProfiles, readProfileDirectory } from '@pathprof/runtime';
import { decodedCounts } from '../support/decoded-counts';
import { instrument } from '../support/instrument';
import { ScratchProject } from '../support/scratch-project';

/**
 * The profile directory under faults, with real Node processes: many writing at once, an unwritable
 * directory, a full disk (a real 16 KB tmpfs where the test may mount one, and always a simulated ENOSPC),
 * and processes killed in the middle of writing. Needs the built packages (`npm test` builds first).
 */
const built = existsSync(join(__dirname, '..', '..', 'dist', 'index.js'));

/** 100 calls of `classify`: its three paths run 33, 14 and 53 times. */
const PROGRAM = `function classify(n) {
  if (n % 3 === 0) return 'fizz';
  if (n % 5 === 0) return 'buzz';
  return 'n';
}
const seen = {};
for (let i = 1; i <= 100; i++) seen[classify(i)] = (seen[classify(i)] || 0) + 1;
console.log(JSON.stringify(seen));
process.exitCode = Number(process.env.EXIT_CODE || 0);
`;
const OUTPUT = '{"n":53,"fizz":33,"buzz":14}\n';

/** Writes a 200,000-counter profile again and again until killed, printing each round written. */
const WRITER = `const { registerFile, writeProfiles } = require('@pathprof/runtime');
const meta = JSON.stringify({ format: 'pathprof-meta/1', functions: [] });
for (let round = 1; ; round++) {
  registerFile('big.js', 'h', meta, process.env.PATHPROF_DIR, 200000, 0).counts.fill(round);
  writeProfiles();
  console.log(round);
}
`;

/** Makes every profile write fail half-way with ENOSPC, as a full disk does. */
const FULL_DISK = `const fs = require('node:fs');
const write = fs.writeFileSync;
fs.writeFileSync = (file, data, ...rest) => {
  if (!/\\.pathprof-.*\\.tmp$/.test(String(file))) return write(file, data, ...rest);
  write(file, String(data).slice(0, String(data).length / 2), ...rest);
  throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
};
`;

(built ? describe : describe.skip)('profile files under faults', () => {
  let project: ScratchProject;
  beforeAll(() => {
    project = new ScratchProject({
      'prog.js': instrument(PROGRAM, 'prog.js', { runtime: 'require' }),
      'writer.js': WRITER,
      'full-disk.js': FULL_DISK,
    });
  });
  afterAll(() => project.dispose());

  const run = (dir: string, extra: { env?: Record<string, string>; args?: string[] } = {}) =>
    spawnSync(process.execPath, [...(extra.args ?? []), 'prog.js'], {
      cwd: project.root,
      env: { ...process.env, PATHPROF_DIR: dir, ...extra.env },
      encoding: 'utf8',
    });

  test('eight processes writing at once: eight profiles, merged counts exact', async () => {
    const dir = project.path('concurrent');
    const exits = await Promise.all(
      Array.from(
        { length: 8 },
        () =>
          new Promise<number | null>((resolve) =>
            spawn(process.execPath, ['prog.js'], {
              cwd: project.root,
              env: { ...process.env, PATHPROF_DIR: dir },
              stdio: 'ignore',
            }).on('exit', resolve),
          ),
      ),
    );
    expect(exits).toEqual(Array(8).fill(0));
    const { profiles, errors } = readProfileDirectory(dir);
    expect(errors).toEqual([]);
    expect(profiles).toHaveLength(8);
    const [file] = mergeProfiles(profiles);
    // Each run calls classify twice per number (test and count): 66, 28 and 106 per process.
    expect(decodedCounts(file).classify).toEqual({
      'entry true return': 8 * 66,
      'entry false true return': 8 * 28,
      'entry false false return': 8 * 106,
    });
  }, 60_000);

  test("an unwritable directory: the program's output stands, the error names the directory, exit code 1", () => {
    writeFileSync(project.path('blocker'), '');
    const dir = project.path('blocker/profiles');
    const failed = run(dir);
    expect(failed.stdout).toBe(OUTPUT);
    expect(failed.stderr).toMatch(/^pathprof: could not write the profile: ENOTDIR.*blocker/);
    expect(failed.status).toBe(1);
    // The program's own failure code is kept: it says more than ours.
    expect(run(dir, { env: { EXIT_CODE: '3' } }).status).toBe(3);
  });

  test('a full disk (simulated ENOSPC half-way): a clear error, exit code 1, nothing half-written left', () => {
    const dir = project.path('full');
    const failed = run(dir, { args: ['--require', './full-disk.js'] });
    expect(failed.stdout).toBe(OUTPUT);
    expect(failed.stderr).toMatch(/^pathprof: could not write the profile: ENOSPC/);
    expect(failed.status).toBe(1);
    // The partial temporary file is removed: it would only hold on to the space that ran out. The run's
    // marker, complete and written before the profile, stays.
    expect(readdirSync(dir)).toEqual(['run.json']);
    expect(readProfileDirectory(dir)).toEqual({
      profiles: [],
      errors: [],
      otherRuns: 0,
      unreadableMarker: false,
    });
  });

  test('a full disk (a real 16 KB tmpfs, where mounting is allowed)', () => {
    const mountPoint = project.path('tiny');
    mkdirSync(mountPoint);
    const mount = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=16k', 'tmpfs', mountPoint]);
    if (mount.status !== 0) return console.log('tmpfs test skipped: cannot mount here (needs root)');
    try {
      // Fill the disk first, as a nearly full one would be.
      writeFileSync(join(mountPoint, 'filler'), Buffer.alloc(15 * 1024));
      const failed = run(mountPoint);
      expect(failed.stdout).toBe(OUTPUT);
      expect(failed.stderr).toMatch(/^pathprof: could not write the profile: ENOSPC/);
      expect(failed.status).toBe(1);
      expect(readdirSync(mountPoint)).toEqual(['filler']);
    } finally {
      spawnSync('umount', [mountPoint]);
    }
  });

  test('processes killed while writing never leave a visible half-written profile', async () => {
    const dir = project.path('killed');
    // Killed at different points of a later write: after the first profile is out, 0 to 120 ms on.
    for (const ms of [0, 15, 40, 80, 120]) {
      const child = spawn(process.execPath, ['writer.js'], {
        cwd: project.root,
        env: { ...process.env, PATHPROF_DIR: dir },
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      await new Promise((resolve) => child.stdout.once('data', resolve));
      await new Promise((resolve) => setTimeout(resolve, ms));
      child.kill('SIGKILL');
      await new Promise((resolve) => child.on('exit', resolve));
    }
    const { profiles, errors } = readProfileDirectory(dir);
    expect(errors).toEqual([]);
    expect(profiles.length).toBeGreaterThanOrEqual(5);
    for (const profile of profiles) expect(profile.files[0].counts).toHaveLength(200_000);
  }, 60_000);
});
