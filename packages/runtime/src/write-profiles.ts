import { clearContexts, countedContexts } from './context-profile';
import type { FileContexts } from './context-state';
import { nodeModules, nodeOrThrow } from './node-fs';
import { checkProfileDirOverride, runForWriting } from './run';
import type { Profile } from './profile-format';
import { storeMetadata } from './shared-metadata';
import { snapshot } from './snapshot';
import { getStore, type PathprofStore } from './store';
import { forgetSeen, takeTestAttribution } from './test-attribution';
import { flushCounts } from './variable-counts';

let sequence = 0;

/**
 * Writes this realm's counts, one profile file per output directory (`PATHPROF_DIR` overrides every
 * file's directory, like `NODE_V8_COVERAGE`). Each file is written under a temporary name and renamed, so
 * no reader ever sees half a profile; names carry the pid, a time and a random part, so concurrent writers
 * never collide. Each profile belongs to a run (see `run.ts`): the first profile of a new run in a directory
 * removes the profiles of earlier runs there. What is written is then cleared from the store, so writing
 * again (a test environment's teardown, then the exit hook) never counts anything twice. Returns the paths
 * written.
 */
export function writeProfiles(store: PathprofStore = getStore()): string[] {
  const { path } = nodeOrThrow('writing profiles (in a browser, read snapshot(getStore()))');
  const override = process.env.PATHPROF_DIR;
  checkProfileDirOverride(override);
  const byDir = new Map<string, PathprofStore['files']>();
  for (const [key, record] of Object.entries(counted(store))) {
    const dir = path.resolve(override || record.outputDir);
    const files = byDir.get(dir) ?? {};
    files[key] = record;
    byDir.set(dir, files);
  }
  const written: string[] = [];
  for (const [dir, files] of byDir) {
    const profile = snapshot({ version: 1, files, contexts: store.contexts }, process.pid);
    const attribution = takeTestAttribution(store, new Set(Object.keys(files)));
    written.push(writeProfileFile(dir, attribution ? { ...profile, ...attribution } : profile));
    zero(store, files);
  }
  return written;
}

/**
 * The store's counts as a profile (files that counted nothing left out; its test file and counts by test
 * when the realm's tests are attributed), then zeroed: what a worker hands to a runner that writes the profile
 * itself (the Vitest provider). Null when nothing was counted.
 */
export function takeCounts(store: PathprofStore = getStore()): Profile | null {
  const files = counted(store);
  if (Object.keys(files).length === 0) return null;
  const profile = snapshot({ version: 1, files, contexts: store.contexts }, process.pid);
  const attribution = takeTestAttribution(store, new Set(Object.keys(files)));
  zero(store, files);
  return attribution ? { ...profile, ...attribution } : profile;
}

/**
 * Writes one profile into `dir` as part of the run that owns it (its id goes into the file and its name),
 * under a temporary name then renamed, its files' metadata in the run's metadata files (`storeMetadata`);
 * returns its path.
 */
export function writeProfileFile(dir: string, profile: Profile): string {
  const { fs, path } = nodeOrThrow('writing profiles');
  fs.mkdirSync(dir, { recursive: true });
  const run = runForWriting(dir);
  const name = `pathprof-${run}-${process.pid}-${Date.now()}-${sequence++}-${Math.random().toString(36).slice(2, 10)}`;
  const target = path.join(dir, `${name}.json`);
  const temporary = path.join(dir, `.${name}.tmp`);
  const { files, tests, ...header } = profile;
  // The metadata first: a profile never names a metadata file that is not there.
  const entries = storeMetadata(dir, run, files);
  try {
    fs.writeFileSync(
      temporary,
      JSON.stringify({ ...header, run, files: entries, ...(tests ? { tests } : {}) }),
    );
    fs.renameSync(temporary, target);
  } catch (error) {
    // A full disk leaves part of the temporary file behind: remove it, it only holds the space that ran out.
    fs.rmSync(temporary, { force: true });
    throw error;
  }
  return target;
}

function counted(store: PathprofStore): PathprofStore['files'] {
  for (const r of Object.values(store.files)) flushCounts(r);
  return Object.fromEntries(
    Object.entries(store.files).filter(
      ([, r]) =>
        r.counts.some((n) => n !== 0) ||
        r.hashed.some((h) => h.entries().length > 0) ||
        (r.contexts !== undefined && countedContexts(store.contexts!, r.contexts)),
    ),
  );
}

function zero(store: PathprofStore, files: PathprofStore['files']): void {
  for (const record of Object.values(files)) {
    record.counts.fill(0);
    for (const h of record.hashed) h.clear();
  }
  forgetSeen(store, Object.values(files));
  const contexts = Object.values(files).flatMap((r): FileContexts[] => (r.contexts ? [r.contexts] : []));
  if (store.contexts && contexts.length) clearContexts(store.contexts, contexts);
}

/**
 * Writes the profile when the process exits; once per realm. A realm whose `process` comes from another
 * realm is a sandbox (a jest test file's context: jest gives it a copy of `process` that never emits
 * `exit`): there the counts are written only by what set the store's `writer`, and without one the user
 * is told, once per process, what to add.
 */
export function writeProfilesAtExit(firstFile?: string): void {
  const p = (globalThis as { process?: NodeJS.Process }).process;
  const store = getStore() as PathprofStore & { exitHook?: boolean };
  if (!p || typeof p.once !== 'function' || store.exitHook) return;
  // A PATHPROF_DIR naming a file could not take the profile: every instrumented file fails to load, saying
  // so, rather than the write at exit, where a test runner's own exit code may win (mocha sets it from its
  // own 'exit' listener).
  if (nodeModules()) checkProfileDirOverride(p.env?.PATHPROF_DIR);
  Object.defineProperty(store, 'exitHook', { value: true });
  if (!(p instanceof Object)) {
    if (!store.writer) warnUnlessAWriterComes(p, store, firstFile);
    return;
  }
  const write = () => {
    try {
      writeProfiles(store);
    } catch (error) {
      const message = (error as Error).message.replace(/^pathprof: /, '');
      console.error(`pathprof: could not write the profile: ${message}`);
      p.exitCode = p.exitCode || 1;
    }
  };
  // Once at exit, from whichever comes first: our 'exit' listener or the exit itself.
  let exited = false;
  const writeAtExit = () => {
    if (exited) return;
    exited = true;
    write();
  };
  p.once('exit', writeAtExit);
  writeBeforeExitFromExitListener(p, writeAtExit);
  // A test runner may set the exit code from an 'exit' listener of its own, added when its run ends, after
  // ours (mocha does, from its result): a failed write's exit code would be overwritten. When the event loop
  // empties, before 'exit', ours moves to the end, so a failure has the last word.
  p.on('beforeExit', () => {
    p.off('exit', writeAtExit);
    p.once('exit', writeAtExit);
  });
  writeOnTerminatingSignals(p, write);
}

/**
 * `process.exit()` called from an 'exit' listener (tape's, to set its result's exit code; one added before
 * ours) ends the process at once, without the listeners after it: write then too, from `process.reallyExit`,
 * where every exit ends, as signal-exit does for nyc. A failed write still ends the process with code 1.
 */
function writeBeforeExitFromExitListener(p: NodeJS.Process, write: () => void): void {
  const exiting = p as NodeJS.Process & { reallyExit?: (code?: number) => never };
  const reallyExit = exiting.reallyExit;
  if (typeof reallyExit !== 'function') return;
  exiting.reallyExit = function (this: NodeJS.Process, code?: number) {
    write();
    return reallyExit.call(this, code || (p.exitCode as number | undefined) || 0);
  };
}

const TERMINATING = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * A process ended by Ctrl-C or `kill` never emits `exit`: write on those signals too, then, when nothing else
 * listens for the signal, let it end the process as it would have (as signal-exit does for nyc). A program
 * with its own handler keeps it, and keeps running; what it counts afterwards is written at exit.
 */
function writeOnTerminatingSignals(p: NodeJS.Process, write: () => void): void {
  // Worker threads get no signals (and may not listen for them).
  if (p.getBuiltinModule?.('node:worker_threads').isMainThread !== true) return;
  const handlers = new Map<NodeJS.Signals, () => void>();
  for (const signal of TERMINATING) {
    const handler = () => {
      for (const [s, h] of handlers) p.off(s, h);
      write();
      if (p.listenerCount(signal) === 0) p.kill(p.pid, signal);
    };
    handlers.set(signal, handler);
    p.on(signal, handler);
  }
}

/**
 * jest runs the setup files in their listed order: a project's own, listed before ours (tippy.js's imports the
 * library), loads instrumented code before our setup file sets the store's writer. So the writer is looked for
 * again before the file's first test, in a root-level hook, while jest still collects the file's tests. Its
 * `setupFiles` run earlier still, before the test framework (no hooks yet): then the writer is looked for once
 * the event loop's current turn is over, in which jest goes on to load the framework, its `setupFilesAfterEnv`
 * and the test file. Code first loaded inside a test, once tests run, or outside a jest file has already missed
 * every setup file: it is told at once. (jest does not throw at a hook added then: it fails the running test, or
 * the run.)
 */
function warnUnlessAWriterComes(p: NodeJS.Process, store: PathprofStore, file: string | undefined): void {
  const warn = () => {
    if (!store.writer) warnNothingWrites(p, file);
  };
  if (lookBeforeTheFirstTest(warn)) return;
  const later = jestStarting() ? p.getBuiltinModule?.('node:timers').setImmediate : undefined;
  if (typeof later === 'function') later(() => lookBeforeTheFirstTest(warn) || warn());
  else warn();
}

/** Runs `look` in a root-level hook when jest-circus is collecting the file's tests; whether it could. */
function lookBeforeTheFirstTest(look: () => void): boolean {
  const beforeAll = (globalThis as { beforeAll?: (hook: () => void) => void }).beforeAll;
  if (typeof beforeAll !== 'function' || !jestCollectsTests()) return false;
  beforeAll(look);
  return true;
}

/** Whether this is a jest test file's realm before its test framework is in (no circus state, no hooks yet). */
function jestStarting(): boolean {
  return (
    typeof (globalThis as { beforeAll?: unknown }).beforeAll !== 'function' && jestCircusState() === undefined
  );
}

/** Whether jest-circus is collecting the test file's tests. */
function jestCollectsTests(): boolean {
  const state = jestCircusState();
  return state?.hasStarted === false && !state.currentlyRunningTest;
}

/** jest-circus's state, under a symbol it does not register. */
function jestCircusState(): JestCircusState | undefined {
  const global = globalThis as Record<symbol, unknown>;
  const key = Object.getOwnPropertySymbols(global).find((s) => s.description === 'JEST_STATE_SYMBOL');
  return key === undefined ? undefined : (global[key] as JestCircusState | undefined);
}

interface JestCircusState {
  readonly hasStarted?: boolean;
  readonly currentlyRunningTest?: unknown;
}

const WARNED = Symbol.for('pathprof.nothing-writes-warned');

function warnNothingWrites(p: NodeJS.Process, file: string | undefined): void {
  const stderr = p.stderr as (NodeJS.WriteStream & { [WARNED]?: boolean }) | undefined;
  if (!stderr || typeof stderr.write !== 'function' || stderr[WARNED]) return;
  stderr[WARNED] = true;
  stderr.write(
    `pathprof: instrumented code${file ? ` (${file})` : ''} runs in a jest test environment that writes no ` +
      "profile, so its counts are lost: add setupFilesAfterEnv: ['babel-plugin-pathprof/jest-setup'] to the " +
      'jest config (any testEnvironment), or use testEnvironment: babel-plugin-pathprof/jest-environment\n',
  );
}
