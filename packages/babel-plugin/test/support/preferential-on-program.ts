import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canInstrument } from '@pathprof/cfg';
import { INTERESTING_SET_FORMAT, type InterestingFunction, type PathNumbering } from '@pathprof/numbering';
import { expandMetadata, getStore } from '@pathprof/runtime';
import type { Random } from '@pathprof/testkit';
import type { TracedProgram } from '../../../cfg/test/support/random-programs';
import { FunctionFingerprints, type FileMetadata } from '../../src';
import { graphMetadata, numberingChecksum } from '../../src/metadata';
import { runCounted } from './counted-paths';
import { instrument } from './instrument';
import { pathsFromTrace, tally } from './paths-from-trace';

/** Per function of a file: its counted paths by Ball-Larus id, interesting and residual apart. */
export interface PreferentialCounts {
  /** Paths counted in the function's array (path mode: every path). */
  readonly interesting: [number, number][];
  /** Paths counted in its residual table. */
  readonly residual: [number, number][];
}

/**
 * What the checks exercised: paths counted as interesting, residual, dropped beyond a capped array, in
 * functions counted in path mode (changed), in functions the set did not list.
 */
export interface PreferentialTally {
  interesting: number;
  residual: number;
  dropped: number;
  changed: number;
  unlisted: number;
}

/**
 * What the store counted for `key` in preferential mode, per function: each counter under the Ball-Larus id
 * its slot holds, and the residual table; a function counted in path mode (changed since its set was made)
 * has all its paths as `interesting`.
 */
export function preferentialCounts(key: string): { meta: FileMetadata; functions: PreferentialCounts[] } {
  const record = getStore().files[key];
  if (!record) throw new Error(`nothing registered for ${key}`);
  const meta = expandMetadata(JSON.parse(record.meta)) as FileMetadata;
  const sorted = (pairs: [number, number][]) => pairs.filter(([, n]) => n > 0).sort((a, b) => a[0] - b[0]);
  const functions = meta.functions.map((fn): PreferentialCounts => {
    const pf = fn.preferential;
    if (!pf) {
      const { storage, pathCount } = fn.path!;
      const pairs: [number, number][] =
        storage.kind === 'hash'
          ? record.hashed[storage.slot].entries()
          : Array.from({ length: pathCount }, (_, p) => [p, record.counts[storage.offset + p]]);
      return { interesting: sorted(pairs), residual: [] };
    }
    return {
      interesting: sorted(pf.slotPathId.map((id, slot) => [id, record.counts[pf.offset + slot]])),
      residual: sorted(record.hashed[pf.table].entries()),
    };
  });
  return { meta, functions };
}

/** The interesting-set file of this process's checks: written before each build, removed after it. */
const SET_FILE = join(tmpdir(), `pathprof-interesting-${process.pid}.json`);

/**
 * Preferential mode on a program already traced (`tracedRuns`), whose functions path mode numbered
 * `numberings` (as `checkPathModeOnTraced` returns them), against a random interesting set drawn from
 * `rng`: per function a random subset of the paths the traced runs take plus random others, some functions
 * left out of the set or listed with another fingerprint (changed since), and on one program in five arrays
 * capped at 2 so that interesting paths fall back to the residual table. For each input, the run returns or
 * throws what the traced run does; the interesting counters hold exactly the traced paths the set names, the
 * residual tables exactly the others, and a changed function's path counts are the traced ones.
 */
export function checkPreferentialOnTraced(
  { source, name, label, traced, runs }: TracedProgram,
  numberings: readonly PathNumbering[],
  rng: Random,
  exercised: PreferentialTally,
): void {
  const where = (args: unknown[]) => `${label}, input ${JSON.stringify(args)}\n${source}`;
  const graphs = traced.graphs.map((g, i) => ({ g, i })).filter(({ g }) => canInstrument(g));

  const meta = graphs.map(({ g }, k) => ({
    ...graphMetadata(g),
    checksum: numberingChecksum(numberings[k]),
  }));
  const paths = runs.map(({ activations }) =>
    graphs.map(({ i }, k) =>
      tally(activations.filter((a) => a.graph === i).flatMap((a) => pathsFromTrace(numberings[k], a.edges))),
    ),
  );

  const fingerprints = new FunctionFingerprints(
    source,
    meta.map((fn) => fn.range),
  );
  const listed: InterestingFunction[] = [];
  // Functions of one name pair with that name's entries in order: those are always listed as they are.
  const names = meta.map((fn) => fn.name);
  const interesting: (Set<number> | null)[] = meta.map((fn, k) => {
    const shared = names.indexOf(fn.name) !== names.lastIndexOf(fn.name);
    const roll = shared ? 1 : rng.next();
    if (roll < 0.1) return new Set(); // not listed: every path residual
    const executed = [...new Set(paths.flatMap((run) => run[k].map(([id]) => id)))];
    const others = Array.from({ length: rng.int(4) }, () => rng.int(numberings[k].pathCount));
    const pathIds = [...new Set([...executed, ...others].filter(() => rng.chance(0.6)))];
    const fingerprint = fingerprints.of(fn.checksum, fn.range);
    if (roll < 0.2) {
      // Listed with another fingerprint: changed since, counted in path mode.
      listed.push({ name: fn.name, fingerprint: `${fingerprint}x`, pathIds });
      return null;
    }
    listed.push({ name: fn.name, fingerprint, pathIds });
    return new Set(pathIds);
  });
  const hashThreshold = rng.chance(0.2) ? 2 : undefined; // small arrays: interesting paths dropped to the table
  const set = {
    format: INTERESTING_SET_FORMAT,
    selection: 'random',
    files: [{ file: `virtual/${name}`, functions: listed }],
  };
  writeFileSync(SET_FILE, JSON.stringify(set));
  const warn = console.warn;
  let code: string;
  try {
    console.warn = () => {}; // the changed functions' warnings
    code = instrument(source, name, { mode: 'preferential', interesting: SET_FILE, hashThreshold });
  } finally {
    console.warn = warn;
    rmSync(SET_FILE, { force: true });
  }

  runs.forEach(({ args, result }, r) => {
    // As path mode's run: a timeout on a loaded machine runs once more with ten times the time.
    const run = runCounted(code, args);
    if (JSON.stringify(run) !== JSON.stringify(result)) {
      throw new Error(
        `behaviour differs: traced ${JSON.stringify(result)}, preferential ${JSON.stringify(run)}\n${where(args)}`,
      );
    }
    const counted = preferentialCounts(`virtual/${name}`);
    counted.functions.forEach((got, k) => {
      const set = interesting[k];
      const fn = counted.meta.functions[k];
      const traced = paths[r][k];
      if ((set === null) !== (fn.preferential === undefined)) {
        throw new Error(`${fn.name}: ${set === null ? 'not' : ''} counted in path mode\n${where(args)}`);
      }
      const dropped = new Set(fn.preferential?.droppedPathIds ?? []);
      const expected: PreferentialCounts =
        set === null
          ? { interesting: traced, residual: [] }
          : {
              interesting: traced.filter(([id]) => set.has(id) && !dropped.has(id)),
              residual: traced.filter(([id]) => !set.has(id) || dropped.has(id)),
            };
      if (JSON.stringify(got) !== JSON.stringify(expected)) {
        throw new Error(
          `${fn.name}: counted ${JSON.stringify(got)}, traced ${JSON.stringify(expected)}\n${where(args)}`,
        );
      }
      if (set === null) exercised.changed += traced.length;
      else if (!fn.preferential!.listed) exercised.unlisted += traced.length;
      else {
        exercised.interesting += got.interesting.length;
        exercised.residual += got.residual.filter(([id]) => !dropped.has(id)).length;
        exercised.dropped += got.residual.filter(([id]) => dropped.has(id)).length;
      }
    });
  });
}
