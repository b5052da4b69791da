/**
 * @module version-region
 * A box of a version of a labels layer, without the version made whole: the box's voxels as
 * the volume holds them now (each row from its chunk's own copy or the base), then the voxels
 * of every later edit that fall inside the box written back to what they held before, newest
 * first. What a changed segment's surface and label entry are made from: the bytes of a box,
 * not of the volume. Read in the layer's turn, as the volume does not change under it.
 */
import type { LabelArray, LabelVolume } from './label-volume.ts';
import type { WriteBack } from './version-voxels.ts';
import type { VoxelBox } from '../wire/edit-types.ts';

/** Voxels of a box of a volume: `data` in C order over `shape`, whose first voxel is `from` (z, y, x) of the volume. */
export interface VoxelRegion {
  data: LabelArray;
  from: [number, number, number];
  shape: [number, number, number];
}

/** Whether a box of voxels meets the box `from`..`to` (`to` exclusive on both). */
function meets(box: VoxelBox, from: readonly number[], to: readonly number[]): boolean {
  for (let a = 0; a < 3; a++) if (box.to[a]! <= from[a]! || to[a]! <= box.from[a]!) return false;
  return true;
}

/**
 * The box `from`..`to` (z, y, x; `to` exclusive) of the version whose later edits are `later`
 * (oldest first, as LayerEdits.laterWrites gives them).
 */
export function versionRegion(volume: LabelVolume, later: readonly WriteBack[], from: readonly number[], to: readonly number[]): VoxelRegion {
  const [z0, y0, x0] = from as [number, number, number];
  const shape: [number, number, number] = [to[0]! - z0, to[1]! - y0, to[2]! - x0];
  const data = volume.readBox(from, to);
  const [, ny, nx] = volume.shape;
  const [dz, dy, dx] = shape;
  for (let k = later.length - 1; k >= 0; k--) {
    const { index, before, box } = later[k]!;
    // An edit whose voxels all lie outside the box wrote nothing in it.
    if (box && !meets(box, from, to)) continue;
    for (let j = 0; j < index.length; j++) {
      const i = index[j]!;
      const x = (i % nx) - x0;
      const y = (Math.floor(i / nx) % ny) - y0;
      const z = Math.floor(i / (nx * ny)) - z0;
      if (z >= 0 && z < dz && y >= 0 && y < dy && x >= 0 && x < dx) data[(z * dy + y) * dx + x] = before[j]!;
    }
  }
  return { data, from: [z0, y0, x0], shape };
}
