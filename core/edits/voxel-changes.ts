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
    const order = new Uint32Array(n);
    for (let k = 0; k < n; k++) order[k] = k;
    let sorted = true;
    for (let k = 1; k < n && sorted; k++) sorted = this.#index[k - 1]! < this.#index[k]!;
    if (!sorted) order.sort((a, b) => this.#index[a]! - this.#index[b]!);
    const index = new Float64Array(n);
    const before = new Uint32Array(n);
    const after = new Uint32Array(n);
    for (let k = 0; k < n; k++) {
      const o = order[k]!;
      index[k] = this.#index[o]!;
      before[k] = this.#before[o]!;
      after[k] = this.#after[o]!;
    }
    return { index, before, after, tables: this.tables, box: boxOf(index, shape) };
  }
}

/** The box of the voxels at `index` in a volume of `shape`; null for none. */
export function boxOf(index: Float64Array, shape: readonly [number, number, number]): VoxelBox | null {
  if (index.length === 0) return null;
  const [, ny, nx] = shape;
  const from = [Infinity, Infinity, Infinity];
  const to = [-Infinity, -Infinity, -Infinity];
  for (const i of index) {
    const p = [Math.floor(i / (nx * ny)), Math.floor(i / nx) % ny, i % nx];
    for (let a = 0; a < 3; a++) {
      if (p[a]! < from[a]!) from[a] = p[a]!;
      if (p[a]! + 1 > to[a]!) to[a] = p[a]! + 1;
    }
  }
  return { from: from as [number, number, number], to: to as [number, number, number] };
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
