import { contextCounts } from './context-profile';
import type { FileContexts } from './context-state';
import { profileFormatOf, type FileProfile, type Profile } from './profile-format';
import type { FileRecord, PathprofStore } from './store';
import { flushCounts } from './variable-counts';

/**
 * The store's counts as a profile (only nonzero counters), for writing or for a browser to read. `store` must
 * be the live one (`getStore()` in the realm that counted): a copy (out of a browser page) has lost the
 * objects whose methods read the counts, and is refused with what it holds instead.
 */
export function snapshot(store: PathprofStore, pid: number | null = null): Profile {
  const records = Object.values(store.files);
  for (const record of records) {
    const copied = notLive(record);
    if (copied)
      throw new Error(
        `pathprof: snapshot needs the live store (getStore() where the code ran, e.g. in the page: ` +
          `page.evaluate(() => runtime.snapshot(runtime.getStore()))), not a copy of it: ${record.key}: ${copied}`,
      );
  }
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

/** What shows `record` is not the runtime's (a copy: its counters are plain data), or null if it is. */
function notLive(record: FileRecord): string | null {
  if (typeof record.counts?.forEach !== 'function') return `its counts are ${kind(record.counts)}`;
  if (!Array.isArray(record.hashed)) return `its hash tables are ${kind(record.hashed)}`;
  for (const [slot, table] of record.hashed.entries()) {
    if (typeof table?.entries !== 'function')
      return `its hash table ${slot} is ${kind(table)}, not a HashCounter`;
  }
  for (const variables of record.variables ?? []) {
    if (typeof variables?.flushInto !== 'function')
      return `its counter variables are ${kind(variables)}, not the runtime's`;
  }
  return null;
}

function kind(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  if (typeof value !== 'object') return `a ${typeof value}`;
  const name = (value as object).constructor?.name;
  return name && name !== 'Object' ? `a ${name}` : 'a plain object';
}
