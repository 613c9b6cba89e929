import { contextCounts } from './context-profile';
import type { FileContexts } from './context-state';
import { profileFormatOf, type FileProfile, type Profile } from './profile-format';
import type { FileRecord, PathprofStore } from './store';
import { flushCounts } from './variable-counts';

/** The store's counts as a profile (only nonzero counters), for writing or for a browser to read. */
export function snapshot(store: PathprofStore, pid: number | null = null): Profile {
  const records = Object.values(store.files);
  const withContexts = records.flatMap((r): FileContexts[] => (r.contexts ? [r.contexts] : []));
  const contexts = store.contexts ? contextCounts(store.contexts, withContexts) : new Map();
  const files = records.map((r) => fileProfile(r, r.contexts && contexts.get(r.contexts)));
  return { format: profileFormatOf(files), created: new Date().toISOString(), pid, files };
}

function fileProfile(record: FileRecord, contexts: FileProfile['contexts']): FileProfile {
  const counts: [number, number][] = [];
  flushCounts(record);
  record.counts.forEach((n, i) => {
    if (n !== 0) counts.push([i, n]);
  });
  const hashed: [number, [number, number][]][] = [];
  record.hashed.forEach((h, slot) => {
    // In path order, as the array's counts are: profiles of the same runs are the same files.
    const entries = h.entries().sort((a, b) => a[0] - b[0]);
    if (entries.length) hashed.push([slot, entries]);
  });
  return {
    key: record.key,
    hash: record.hash,
    meta: JSON.parse(record.meta),
    counts,
    hashed,
    ...(contexts ? { contexts } : {}),
  };
}
