import type { InterproceduralNumbering } from './number-program';

/**
 * Where a file's interprocedural paths are counted. A path never leaves the component of the crossed call
 * graph it starts in, and a component's paths are one consecutive range of numbers, so each component is
 * counted apart, as path mode counts each function: in a slice of the file's counter array when its range is
 * small enough (slot = offset + number - start), else in a hash table of its own keyed by the path number.
 * The plugin places the counts with this plan and readers find them with it.
 */
export interface ComponentStorage {
  /** Per component: the offset of its slice in the counter array, or -1 when a hash table counts it. */
  readonly arrayOffset: readonly number[];
  /** Per component: the index of its hash table, or -1. */
  readonly table: readonly number[];
}

/** Array slices for the components with at most `arrayLimit` paths, hash tables for the others, in order. */
export function planComponentStorage(
  numbering: InterproceduralNumbering,
  arrayLimit: number,
): { storage: ComponentStorage; arraySize: number; hashCount: number } {
  const arrayOffset: number[] = [];
  const table: number[] = [];
  let arraySize = 0;
  let hashCount = 0;
  for (const component of numbering.components) {
    const inArray = component.count <= BigInt(arrayLimit);
    arrayOffset.push(inArray ? arraySize : -1);
    table.push(inArray ? -1 : hashCount++);
    if (inArray) arraySize += Number(component.count);
  }
  return { storage: { arrayOffset, table }, arraySize, hashCount };
}

/**
 * The counted paths as sorted `[path number, count]` pairs (counts above 0), from the array's `[slot, count]`
 * pairs and each table's `[path number, count]` pairs. Throws on a slot or number outside the plan: the counts
 * were not made with this numbering.
 */
export function countsByPathNumber(
  numbering: InterproceduralNumbering,
  storage: ComponentStorage,
  array: Iterable<readonly [number, number]>,
  tables: (table: number) => Iterable<readonly [number, number]>,
): [number, number][] {
  const out: [number, number][] = [];
  // The array's slices in slot order (components are laid out in order): a slot's slice by binary search.
  const slices = numbering.components
    .map((c, i) => ({ start: Number(c.start), count: Number(c.count), offset: storage.arrayOffset[i] }))
    .filter((s) => s.offset >= 0 && s.count > 0);
  for (const [slot, count] of array) {
    if (count <= 0) continue;
    let lo = 0;
    let hi = slices.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (slices[mid].offset <= slot) lo = mid;
      else hi = mid - 1;
    }
    const slice = slices[lo];
    if (!slice || slot < slice.offset || slot >= slice.offset + slice.count) {
      throw new RangeError(`counter slot ${slot} belongs to no interprocedural path`);
    }
    out.push([slice.start + slot - slice.offset, count]);
  }
  numbering.components.forEach((c, i) => {
    if (storage.table[i] < 0) return;
    for (const [path, count] of tables(storage.table[i])) {
      if (count <= 0) continue;
      if (BigInt(path) < c.start || BigInt(path) >= c.start + c.count) {
        throw new RangeError(`interprocedural path ${path} is not one of its table's component`);
      }
      out.push([path, count]);
    }
  });
  return out.sort((a, b) => a[0] - b[0]);
}
