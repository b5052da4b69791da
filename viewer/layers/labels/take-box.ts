/**
 * @module take-box
 * An edit's changes taken into a segmentation the page holds: the voxels of the new version
 * within the edit's box (voxel indices of level 0, z, y, x, ends exclusive) copied over the
 * held ones, nothing outside it. Only a volume on the same grid can take them.
 */
import type { VolumeData } from '../../../core/wire/decoded-types.ts';
import type { VoxelBox } from '../../../core/wire/edit-types.ts';

/** Copies `next`'s voxels within `box` into `held`; false (nothing copied) when their grids differ. */
export function takeBox(held: VolumeData, next: VolumeData, box: VoxelBox): boolean {
  const [d, hgt, w] = held.shape;
  if (next.shape.length !== 3 || next.shape[0] !== d || next.shape[1] !== hgt || next.shape[2] !== w) return false;
  const [z0, y0, x0] = box.from.map((v) => Math.max(0, v)) as [number, number, number];
  const z1 = Math.min(box.to[0], d!);
  const y1 = Math.min(box.to[1], hgt!);
  const x1 = Math.min(box.to[2], w!);
  for (let z = z0; z < z1; z++)
    for (let y = y0; y < y1; y++) {
      const row = (z * hgt! + y) * w!;
      for (let x = x0; x < x1; x++) held.data[row + x] = next.data[row + x]!;
    }
  return true;
}
