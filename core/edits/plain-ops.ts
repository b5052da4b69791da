/**
 * @module plain-ops
 * The ops of plain edits found chunk by chunk or entry by entry (a split, which floods, is
 * split-op.ts's): each finds its changes and the segments it changed and made, writing nothing.
 */
import type { ChangedSegments, MergeEdit, NamesEdit, PaintEdit } from '../wire/edit-types.ts';
import { invalid } from './check-edit.ts';
import type { LabelTables } from './label-tables.ts';
import type { LabelVolume } from './label-volume.ts';
import { ChangeList, type EditChanges, type LabelTable } from './voxel-changes.ts';

/** What an op found: its changes and the segments it changed and made. */
export interface OpOutcome {
  changes: EditChanges;
  segments: ChangedSegments;
}

/**
 * A merge: every voxel of each listed segment becomes the first one's. Only the chunks the
 * other segments lie in are looked at. Every listed id must be present in the layer.
 */
export function mergeOp(volume: LabelVolume, edit: MergeEdit): OpOutcome {
  edit.segments.forEach((id, i) => {
    if (volume.count(id) === 0) throw invalid(`segments[${i}]`, `segment ${id} is not present in the layer`);
  });
  const [into, ...others] = edit.segments;
  const chunks = new Set(others.flatMap((id) => volume.chunksOf(id)));
  const list = new ChangeList();
  volume.forEachOf([...chunks].sort((a, b) => a - b), others, (i, value) => list.add(i, value, into!));
  return { changes: list.done(volume.shape), segments: { changed: [...edit.segments], new: [] } };
}

/** The flat indexes of the ball's voxels inside the grid, ascending. */
function* ballVoxels(volume: LabelVolume, [cz, cy, cx]: readonly number[], radius: number): Generator<number> {
  const [nz, ny, nx] = volume.shape;
  const r = Math.floor(radius);
  const r2 = radius * radius;
  for (let z = Math.max(0, cz! - r); z <= Math.min(nz - 1, cz! + r); z++)
    for (let y = Math.max(0, cy! - r); y <= Math.min(ny - 1, cy! + r); y++)
      for (let x = Math.max(0, cx! - r); x <= Math.min(nx - 1, cx! + r); x++) {
        const dz = z - cz!;
        const dy = y - cy!;
        const dx = x - cx!;
        if (dz * dz + dy * dy + dx * dx <= r2) yield (z * ny + y) * nx + x;
      }
}

/**
 * A paint: every voxel of a ball (Euclidean distance in voxels from its centre at most the
 * radius, cut at the grid's edges), or of a list of voxels, becomes `label` (0 erases); with
 * `only`, only the voxels that hold `only` now.
 */
export function paintOp(volume: LabelVolume, edit: PaintEdit): OpOutcome {
  const [, ny, nx] = volume.shape;
  const targets = edit.voxels ? edit.voxels.map(([z, y, x]) => (z * ny + y) * nx + x) : ballVoxels(volume, edit.center!, edit.radius!);
  const list = new ChangeList();
  const seen = new Set<number>();
  const lost = new Set<number>();
  for (const i of targets) {
    if (seen.has(i)) continue;
    seen.add(i);
    const value = volume.get(i);
    if (edit.only !== undefined && value !== edit.only) continue;
    if (value === edit.label) continue;
    list.add(i, value, edit.label);
    if (value !== 0) lost.add(value);
  }
  const painted = list.size > 0 && edit.label !== 0;
  const isNew = painted && volume.count(edit.label) === 0;
  const changed = [...lost, ...(painted && !isNew ? [edit.label] : [])].sort((a, b) => a - b);
  return { changes: list.done(volume.shape), segments: { changed: [...new Set(changed)], new: isNew ? [edit.label] : [] } };
}

/**
 * A names edit: entries of the label tables set (or, with null, taken out). Each entry that
 * changed is kept with what it held, so an undo puts it back; no voxel changes.
 */
export function namesOp(volume: LabelVolume, tables: LabelTables, edit: NamesEdit): OpOutcome {
  const list = new ChangeList();
  const ids = new Set<number>();
  for (const table of ['label_names', 'label_colors'] as LabelTable[]) {
    for (const [id, after] of Object.entries(edit[table] ?? {})) {
      const before = tables[table].get(id) ?? null;
      if (before === after) continue;
      list.tables.push({ table, id, before, after });
      if (id !== '0') ids.add(Number(id));
    }
  }
  return { changes: list.done(volume.shape), segments: { changed: [...ids].sort((a, b) => a - b), new: [] } };
}
