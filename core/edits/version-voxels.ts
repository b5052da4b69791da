/**
 * @module version-voxels
 * A version of a labels layer made whole: the frozen volume's base with its changed chunks
 * written in, then the voxels of every later edit written back to what they held before (newest
 * first), into a new array in shared memory. A 512³ uint32 layer is half a GiB to copy, so this
 * runs on a worker thread (the `labelsVersion` task): the event loop only freezes the volume and
 * hands over references.
 */
import { ChunkGrid } from './chunk-grid.ts';
import { sharedLabels, type FrozenVolume, type LabelArray } from './label-volume.ts';
import type { VoxelBox } from '../wire/edit-types.ts';

/** What an edit found at the voxels it changed: written back, they undo it. */
export interface WriteBack {
  index: Float64Array;
  before: Uint32Array;
  /** The box of `index` (null: none), so a read of another box passes over it. */
  box?: VoxelBox | null;
}

/** Make a version's voxels on a worker thread. */
export interface VersionVoxelsTask {
  op: 'labelsVersion';
  volume: FrozenVolume;
  /** The edits after the version, oldest first. */
  later: WriteBack[];
}

/** Runs a {@link VersionVoxelsTask} off the event loop (the encode pool). */
export type VersionVoxelsRunner = (task: VersionVoxelsTask) => Promise<LabelArray>;

/** The voxels of the version, in C order, in shared memory. */
export function versionVoxels(task: VersionVoxelsTask): LabelArray {
  const { base, shape, dtype, chunk: c, chunks } = task.volume;
  const out = sharedLabels(dtype, base.length);
  out.set(base);
  const [, ny, nx] = shape;
  const grid = new ChunkGrid(shape, c);
  for (const [key, chunk] of chunks) {
    const [z0, y0, x0, z1, y1, x1] = grid.chunkBox(key);
    for (let z = z0; z < z1; z++)
      for (let y = y0; y < y1; y++) {
        const from = ((z - z0) * c + (y - y0)) * c;
        out.set(chunk.subarray(from, from + (x1 - x0)), (z * ny + y) * nx + x0);
      }
  }
  for (let k = task.later.length - 1; k >= 0; k--) {
    const { index, before } = task.later[k]!;
    for (let j = 0; j < index.length; j++) out[index[j]!] = before[j]!;
  }
  return out;
}
