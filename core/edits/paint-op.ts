/**
 * @module paint-op
 * A paint: every voxel of a ball (Euclidean distance in voxels from its centre at most the
 * radius, cut at the grid's edges), or of a list of voxels, becomes `label` (0 erases); with
 * `only`, only the voxels that hold `only` now.
 */
import type { PaintEdit } from '../wire/edit-types.ts';
import type { LabelVolume } from './label-volume.ts';
import type { OpOutcome } from './merge-op.ts';
import { ChangeList } from './voxel-changes.ts';

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
