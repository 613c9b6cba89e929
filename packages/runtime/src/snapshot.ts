import {
  INTERPROCEDURAL_PROFILE_FORMAT,
  PROFILE_FORMAT,
  type FileProfile,
  type Profile,
} from './profile-format';
import type { FileRecord, PathprofStore } from './store';

/**
 * The store's counts as a profile (only nonzero counters), for writing or for a browser to read; `run` names
 * the run it belongs to (see `run.ts`).
 */
export function snapshot(store: PathprofStore, pid: number | null = null, run?: string): Profile {
  const files = Object.values(store.files).map(fileProfile);
  const interprocedural = files.some((f) => (f.meta as { mode?: unknown }).mode === 'interprocedural');
  return {
    format: interprocedural ? INTERPROCEDURAL_PROFILE_FORMAT : PROFILE_FORMAT,
    created: new Date().toISOString(),
    pid,
    ...(run === undefined ? {} : { run }),
    files,
  };
}

function fileProfile(record: FileRecord): FileProfile {
  const counts: [number, number][] = [];
  record.counts.forEach((n, i) => {
    if (n !== 0) counts.push([i, n]);
  });
  const hashed: [number, [number, number][]][] = [];
  record.hashed.forEach((h, slot) => {
    const entries = h.entries();
    if (entries.length) hashed.push([slot, entries]);
  });
  return { key: record.key, hash: record.hash, meta: JSON.parse(record.meta), counts, hashed };
}
