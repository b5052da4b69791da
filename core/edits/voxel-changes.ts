/**
 * @module voxel-changes
 * What an op changed, kept so that it can be undone: every voxel it changed (flat index, what
 * it held, what it holds now) and every label table entry (what it held, null for none), with
 * the box of the voxels. An undo is these read backwards; an edit's conflicts with later ones
 * are the voxels and entries they share.
 */
import type { VoxelBox } from '../wire/edit-types.ts';

/** A label table of the layer: `label_names` or `label_colors`. */
export type LabelTable = 'label_names' | 'label_colors';

/** One table entry an edit changed. */
export interface TableChange {
  table: LabelTable;
  id: string;
  before: string | null;
  after: string | null;
}

/** What one op changed; `index` ascending. */
export interface EditChanges {
  index: Float64Array;
  before: Uint32Array;
  after: Uint32Array;
  tables: TableChange[];
  box: VoxelBox | null;
}

/** Gathers changed voxels as an op finds them (each voxel once). */
export class ChangeList {
  #index: number[] = [];
  #before: number[] = [];
  #after: number[] = [];
  tables: TableChange[] = [];

  get size(): number {
    return this.#index.length;
  }

  add(i: number, before: number, after: number): void {
    if (before === after) return;
    this.#index.push(i);
    this.#before.push(before);
    this.#after.push(after);
  }

  /** The changes, sorted by index, with their box in a volume of `shape`. */
  done(shape: readonly [number, number, number]): EditChanges {
    const n = this.#index.length;
    const order = orderOf(this.#index);
    const index = new Float64Array(n);
    const before = new Uint32Array(n);
    const after = new Uint32Array(n);
    for (let k = 0; k < n; k++) {
      const o = order ? order[k]! : k;
      index[k] = this.#index[o]!;
      before[k] = this.#before[o]!;
      after[k] = this.#after[o]!;
    }
    return { index, before, after, tables: this.tables, box: boxOf(index, shape) };
  }
}

/** Bits of an index sorted by each pass of {@link orderOf}. */
const RADIX_BITS = 11;

/**
 * The order that sorts `index` (distinct values), or null when it is sorted already: a radix
 * sort of the places, RADIX_BITS of the index a pass (about five times faster than a sort with a
 * comparing function for an op's thousands of voxels); an index past 32 bits is sorted by a
 * comparing function.
 */
function orderOf(index: readonly number[]): Uint32Array | null {
  const n = index.length;
  let [sorted, top] = [true, 0];
  for (let k = 0; k < n; k++) {
    if (k > 0 && index[k - 1]! > index[k]!) sorted = false;
    if (index[k]! > top) top = index[k]!;
  }
  if (sorted) return null;
  let order = new Uint32Array(n);
  for (let k = 0; k < n; k++) order[k] = k;
  if (top >= 2 ** 32) return order.sort((a, b) => index[a]! - index[b]!);
  let next = new Uint32Array(n);
  const starts = new Uint32Array(2 ** RADIX_BITS);
  const digit = (o: number, shift: number) => (index[o]! >>> shift) & (2 ** RADIX_BITS - 1);
  for (let shift = 0; shift < 32 && top >>> shift > 0; shift += RADIX_BITS) {
    starts.fill(0);
    for (let k = 0; k < n; k++) starts[digit(order[k]!, shift)]!++;
    for (let b = 0, sum = 0; b < starts.length; b++) {
      const count = starts[b]!;
      starts[b] = sum;
      sum += count;
    }
    for (let k = 0; k < n; k++) next[starts[digit(order[k]!, shift)]!++] = order[k]!;
    [order, next] = [next, order];
  }
  return order;
}

/** The box of the voxels at `index` in a volume of `shape`; null for none. */
export function boxOf(index: Float64Array, shape: readonly [number, number, number]): VoxelBox | null {
  if (index.length === 0) return null;
  const [, ny, nx] = shape;
  let [z0, y0, x0, z1, y1, x1] = [Infinity, Infinity, Infinity, -1, -1, -1];
  for (const i of index) {
    const z = Math.floor(i / (nx * ny));
    const y = Math.floor(i / nx) % ny;
    const x = i % nx;
    if (z < z0) z0 = z;
    if (z > z1) z1 = z;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
  }
  return { from: [z0, y0, x0], to: [z1 + 1, y1 + 1, x1 + 1] };
}

/** The same changes read backwards: what an undo of them writes. */
export function reversed(changes: EditChanges): EditChanges {
  return {
    index: changes.index,
    before: changes.after,
    after: changes.before,
    tables: changes.tables.map((t) => ({ ...t, before: t.after, after: t.before })),
    box: changes.box,
  };
}

/** Whether two edits' changes share a voxel or a table entry (both sorted by index). */
export function overlaps(a: EditChanges, b: EditChanges): boolean {
  if (a.tables.some((t) => b.tables.some((u) => u.table === t.table && u.id === t.id))) return true;
  if (!a.box || !b.box) return false;
  for (let k = 0; k < 3; k++) if (a.box.to[k]! <= b.box.from[k]! || b.box.to[k]! <= a.box.from[k]!) return false;
  let i = 0;
  let j = 0;
  while (i < a.index.length && j < b.index.length) {
    const x = a.index[i]!;
    const y = b.index[j]!;
    if (x === y) return true;
    if (x < y) i++;
    else j++;
  }
  return false;
}
