/**
 * @module version-region
 * A box of a version of a labels layer, without the version made whole, read off the event loop:
 * what a changed segment's surface and label entry are made from. In the layer's turn only what
 * the box needs is taken ({@link regionTask}): the chunks it meets as the volume holds them now,
 * by reference (marked frozen there, so the next edit into one writes a copy and this view stays
 * the version it was taken at), and the write-backs of the later edits whose box meets it. An
 * encode thread then reads the box from that view (each row from its chunk's copy, else the
 * base, which is never written) and writes every later edit's voxels inside it back to what
 * they held, newest first ({@link regionVoxels}), into shared memory handed back by reference.
 */
import { sharedLabels, type FrozenVolume, type LabelArray, type LabelVolume } from './label-volume.ts';
import type { WriteBack } from './version-voxels.ts';
import type { VoxelBox } from '../wire/edit-types.ts';

/** Voxels of a box of a volume: `data` in C order over `shape`, whose first voxel is `from` (z, y, x) of the volume. */
export interface VoxelRegion {
  data: LabelArray;
  from: [number, number, number];
  shape: [number, number, number];
}

/** Read a box of a version on a worker thread. */
export interface VersionRegionTask {
  op: 'labelsRegion';
  /** The volume's base and the chunks the box meets, frozen. */
  volume: FrozenVolume;
  /** The later edits whose box meets the box, oldest first. */
  later: WriteBack[];
  /** The box's first voxel (z, y, x) and its end (exclusive). */
  from: [number, number, number];
  to: [number, number, number];
}

/** Runs a {@link VersionRegionTask} off the event loop (the encode pool). */
export type VersionRegionRunner = (task: VersionRegionTask) => Promise<LabelArray>;

/** Whether a box of voxels meets the box `from`..`to` (`to` exclusive on both). */
function meets(box: VoxelBox, from: readonly number[], to: readonly number[]): boolean {
  for (let a = 0; a < 3; a++) if (box.to[a]! <= from[a]! || to[a]! <= box.from[a]!) return false;
  return true;
}

/**
 * What reading the box `from`..`to` (z, y, x; `to` exclusive) of the version whose later edits
 * are `later` (oldest first, as LayerEdits.laterWrites gives them) needs, taken now: cheap (the
 * chunks by reference, the edits that wrote elsewhere left out), so it fits in the layer's turn.
 */
export function regionTask(volume: LabelVolume, later: readonly WriteBack[], from: readonly number[], to: readonly number[]): VersionRegionTask {
  const box = { from: [from[0]!, from[1]!, from[2]!] as [number, number, number], to: [to[0]!, to[1]!, to[2]!] as [number, number, number] };
  // An edit whose voxels all lie outside the box wrote nothing in it.
  const meeting = later.filter((write) => !write.box || meets(write.box, box.from, box.to));
  return { op: 'labelsRegion', volume: volume.freezeBox(box.from, box.to), later: meeting, ...box };
}

/** The voxels of a {@link VersionRegionTask}'s box at its version, in C order over the box, in shared memory. */
export function regionVoxels(task: VersionRegionTask): LabelArray {
  const { volume, from, to } = task;
  const [z0, y0, x0] = from;
  const [dz, dy, dx] = [to[0] - z0, to[1] - y0, to[2] - x0];
  const data = sharedLabels(volume.dtype, Math.max(0, dz) * Math.max(0, dy) * Math.max(0, dx));
  if (data.length === 0) return data;
  const { base, chunks, chunk: c } = volume;
  const [, ny, nx] = volume.shape;
  const [gy, gx] = [Math.ceil(ny / c), Math.ceil(nx / c)];
  for (let z = z0; z < z0 + dz; z++)
    for (let y = y0; y < y0 + dy; y++) {
      const at = ((z - z0) * dy + (y - y0)) * dx - x0;
      const rowKey = (Math.floor(z / c) * gy + Math.floor(y / c)) * gx;
      const inChunk = ((z % c) * c + (y % c)) * c;
      // A row crosses chunks along x: each stretch read from its chunk's own copy, else the base.
      for (let x = x0; x < x0 + dx; ) {
        const end = Math.min(x0 + dx, (Math.floor(x / c) + 1) * c);
        const own = chunks.get(rowKey + Math.floor(x / c));
        const held = own ?? base;
        const start = (own ? inChunk + (x % c) : (z * ny + y) * nx + x) - x;
        for (; x < end; x++) data[at + x] = held[start + x]!;
      }
    }
  for (let k = task.later.length - 1; k >= 0; k--) {
    const { index, before } = task.later[k]!;
    for (let j = 0; j < index.length; j++) {
      const i = index[j]!;
      const x = (i % nx) - x0;
      const y = (Math.floor(i / nx) % ny) - y0;
      const z = Math.floor(i / (nx * ny)) - z0;
      if (z >= 0 && z < dz && y >= 0 && y < dy && x >= 0 && x < dx) data[(z * dy + y) * dx + x] = before[j]!;
    }
  }
  return data;
}
