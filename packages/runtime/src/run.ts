import { nodeOrThrow } from './node-fs';

/**
 * A run is what one test command counts (a jest or Vitest run, `pathprof <command>`): like jest's coverage
 * directory, a new run replaces the previous run's profiles. The run that owns a profile directory is named
 * in its marker file; every profile carries the id of the run that wrote it, so a reader ignores leftovers
 * of other runs. Ids start with the run's start time, so they sort by age: a late writer of an older run
 * never takes a directory back from a newer one.
 */
export const RUN_FILE = 'run.json';
export const RUN_FORMAT = 'pathprof-run/1';

/** The environment variable a run's starter sets, so every process of the run (workers, children) joins it. */
export const RUN_ENV = 'PATHPROF_RUN';

/** Set to 1 (or true) to add this command's counts to the directory's current run instead of starting anew. */
export const ACCUMULATE_ENV = 'PATHPROF_ACCUMULATE';

/** Where profiles go when neither `PATHPROF_DIR` nor the plugin's `outputDir` says otherwise. */
export const DEFAULT_PROFILE_DIR = '.pathprof';

let lastStart = 0;

/**
 * A fresh run id: the start time in microseconds (base 36, fixed width, so ids compare by age; two runs
 * started in one millisecond still do, and within a process every id is later than the one before) and a
 * random part.
 */
export function newRunId(): string {
  const now = Math.round((performance.timeOrigin + performance.now()) * 1000);
  lastStart = Math.max(now, lastStart + 1);
  return lastStart.toString(36).padStart(11, '0') + Math.random().toString(36).slice(2, 8).padEnd(6, '0');
}

/** The profile directory a run starter manages: `PATHPROF_DIR`, else `.pathprof`, from the working directory. */
export function profileDirectory(): string {
  const { path } = nodeOrThrow('runs');
  const override = process.env.PATHPROF_DIR;
  checkProfileDirOverride(override);
  return path.resolve(override || DEFAULT_PROFILE_DIR);
}

/** `PATHPROF_DIR` naming something that is not a directory is the user's mistake: say so by its name. */
export function checkProfileDirOverride(override: string | undefined): void {
  if (!override) return;
  const { fs, path } = nodeOrThrow('runs');
  const resolved = path.resolve(override);
  if (fs.existsSync(resolved) && !fs.statSync(resolved).isDirectory()) {
    throw new Error(`pathprof: PATHPROF_DIR=${override} is not a directory (${resolved})`);
  }
}

/** The id of the run that owns `dir` (its marker), or null when it has none or the marker is unreadable. */
export function currentRun(dir: string): string | null {
  const { fs, path } = nodeOrThrow('runs');
  try {
    const marker = JSON.parse(fs.readFileSync(path.join(dir, RUN_FILE), 'utf8')) as {
      format?: unknown;
      id?: unknown;
    };
    return marker.format === RUN_FORMAT && typeof marker.id === 'string' ? marker.id : null;
  } catch {
    return null;
  }
}

/**
 * Starts a run in `dir` (by default the profile directory): removes the profiles of earlier runs, names the
 * new run in the marker and in this process's environment (inherited by workers and child processes), and
 * returns its id. With `accumulate` (default: `PATHPROF_ACCUMULATE`) the directory's current run goes on.
 */
export function startRun(
  dir: string = profileDirectory(),
  accumulate: boolean = /^(1|true)$/i.test(process.env[ACCUMULATE_ENV] ?? ''),
): string {
  const existing = accumulate ? currentRun(dir) : null;
  const id = existing ?? newRunId();
  if (!existing) takeOver(dir, id);
  process.env[RUN_ENV] = id;
  return id;
}

/**
 * The run a profile written into `dir` belongs to: the run named in the environment (taking the directory
 * over if its marker names an older run), else the directory's current run, else a new run this writer
 * starts (exclusively: of concurrent writers without a run, one creates the marker and the others join it).
 */
export function runForWriting(dir: string): string {
  const named = process.env[RUN_ENV];
  const current = currentRun(dir);
  if (named) {
    if (current === null || current < named) takeOver(dir, named);
    return named;
  }
  if (current !== null) return current;
  const { fs, path } = nodeOrThrow('runs');
  const id = newRunId();
  const temporary = writeTemporaryMarker(dir, id);
  try {
    fs.linkSync(temporary, path.join(dir, RUN_FILE));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    fs.rmSync(temporary, { force: true });
  }
  return currentRun(dir) ?? id;
}

/** Makes `dir` the run's: profiles of other runs (and pre-run leftovers) removed, the marker replaced. */
function takeOver(dir: string, id: string): void {
  const { fs, path } = nodeOrThrow('runs');
  fs.mkdirSync(dir, { recursive: true });
  for (const name of fs.readdirSync(dir)) {
    const profile = name.startsWith('pathprof-') && name.endsWith('.json');
    if (profile && !name.startsWith(`pathprof-${id}-`)) fs.rmSync(path.join(dir, name), { force: true });
  }
  fs.renameSync(writeTemporaryMarker(dir, id), path.join(dir, RUN_FILE));
}

function writeTemporaryMarker(dir: string, id: string): string {
  const { fs, path } = nodeOrThrow('runs');
  fs.mkdirSync(dir, { recursive: true });
  const temporary = path.join(dir, `.run-${process.pid}-${Math.random().toString(36).slice(2, 10)}.tmp`);
  try {
    fs.writeFileSync(
      temporary,
      `${JSON.stringify({ format: RUN_FORMAT, id, started: new Date().toISOString() })}\n`,
    );
  } catch (error) {
    // A full disk leaves part of it behind: remove it, it only holds the space that ran out.
    fs.rmSync(temporary, { force: true });
    throw error;
  }
  return temporary;
}
