/**
 * @module version-region
 * Boxes of a version of a labels layer, without the version made whole, read off the event loop:
 * what a changed segment's surface and label entry are made from. In the layer's turn only what
 * the box needs is taken ({@link regionTask}): the chunks it meets as the volume holds them now,
 * by reference (marked frozen there, so the next edit into one writes a copy and this view stays
 * the version it was taken at), and the write-backs of the later edits whose box meets it. An
 * encode thread then reads the box from that view (each row from its chunk's copy, else the
 * base, which is never written) and writes every later edit's voxels inside it back to what
 * they held, newest first ({@link regionVoxels}), into shared memory handed back by reference;
 * or, for a thread that builds a surface or finds a label entry there, as where one segment lies
 * in each box ({@link regionMasks}), a byte a voxel.
 */
import { sharedLabels, type FrozenVolume, type LabelArray, type LabelDtype, type LabelVolume } from './label-volume.ts';
import type { WriteBack } from './version-voxels.ts';
import type { VoxelBox } from '../wire/edit-types.ts';

/** Voxels of a box of a volume: `data` in C order over `shape`, whose first voxel is `from` (z, y, x) of the volume. */
export interface VoxelRegion {
  data: LabelArray;
  from: [number, number, number];
  shape: [number, number, number];
}

/** Find segments' label entries in boxes of a version: each part is one segment and how many of the boxes, in order, are its. */
export interface RegionEntriesTask {
  op: 'labelsEntries';
  region: VersionRegionTask;
  parts: { id: number; boxes: number }[];
}

/** A segment's entry as found in boxes: its voxels, faces and box (first z, y, x, then last), as a label index holds it. */
export interface FoundEntry {
  count: number;
  faces: number;
  box: number[];
}

/** Runs a {@link RegionEntriesTask} off the event loop (the encode pool): an entry a part, null for a segment no box holds. */
export type RegionEntriesRunner = (task: RegionEntriesTask) => Promise<(FoundEntry | null)[]>;

/** A box as asked: its first voxel (z, y, x) and its end (exclusive). */
export type BoxAsked = { from: readonly number[]; to: readonly number[] };

/** Read boxes of a version on a worker thread. */
export interface VersionRegionTask {
  op: 'labelsRegion';
  /** The volume's base and the chunks the boxes meet, frozen. */
  volume: FrozenVolume;
  /** The later edits whose box meets one of the boxes, oldest first. */
  later: WriteBack[];
  boxes: VoxelBox[];
}

/** Voxels in a box. */
const sizeOf = ({ from, to }: VoxelBox): number => (to[0] - from[0]) * (to[1] - from[1]) * (to[2] - from[2]);

/** The voxels of each box, cut from what a {@link VersionRegionTask} answers (views of the same shared memory). */
export function regionsOf(task: VersionRegionTask, data: LabelArray): VoxelRegion[] {
  let at = 0;
  return task.boxes.map((box) => {
    const { from, to } = box;
    return { data: data.subarray(at, (at += sizeOf(box))), from, shape: [to[0] - from[0], to[1] - from[1], to[2] - from[2]] };
  });
}

/** Whether a box of voxels meets the box `from`..`to` (`to` exclusive on both). */
function meets(box: VoxelBox, from: readonly number[], to: readonly number[]): boolean {
  for (let a = 0; a < 3; a++) if (box.to[a]! <= from[a]! || to[a]! <= box.from[a]!) return false;
  return true;
}

/**
 * What reading the boxes `boxes` (each `from`..`to`, z, y, x, `to` exclusive, none empty) of the
 * version whose later edits are `later` (oldest first, as LayerEdits.laterWrites gives them)
 * needs, taken now: cheap (the chunks by reference, the edits that wrote elsewhere left out), so
 * it fits in the layer's turn. Boxes read together cost one trip to a thread.
 */
export function regionTask(volume: LabelVolume, later: readonly WriteBack[], boxes: readonly BoxAsked[]): VersionRegionTask {
  const taken: VoxelBox[] = boxes.map(({ from, to }) => ({ from: [from[0]!, from[1]!, from[2]!], to: [to[0]!, to[1]!, to[2]!] }));
  // An edit whose voxels all lie outside every box wrote nothing in them.
  const meeting = later.filter((write) => !write.box || taken.some(({ from, to }) => meets(write.box!, from, to)));
  return { op: 'labelsRegion', volume: volume.freezeBoxes(taken), later: meeting, boxes: taken };
}

/** Memory for `length` labels of `dtype`. */
export type LabelsInto = (dtype: LabelDtype, length: number) => LabelArray;

/**
 * The task's boxes read one after the other into memory from `into`, as `dtype`: each box's
 * labels, or with `ids`, 1 where they are `ids[k]` (for box k) and 0 elsewhere.
 */
function readBoxes(task: VersionRegionTask, into: LabelsInto, dtype: LabelDtype, ids?: readonly number[]): LabelArray {
  const data = into(dtype, task.boxes.reduce((n, box) => n + sizeOf(box), 0));
  let at = 0;
  for (const [k, box] of task.boxes.entries()) readBox(task, box, data.subarray(at, (at += sizeOf(box))), ids?.[k] ?? -1);
  return data;
}

/**
 * The voxels of a {@link VersionRegionTask}'s boxes at its version, each in C order over its box,
 * one after the other, in memory from `into` (shared memory to hand back, unless told otherwise).
 */
export function regionVoxels(task: VersionRegionTask, into: LabelsInto = sharedLabels): LabelArray {
  return readBoxes(task, into, task.volume.dtype);
}

/**
 * Where segments lie in the boxes of a {@link VersionRegionTask} at its version, one id a box
 * (`ids[k]` for box k): 1 at its voxels, 0 elsewhere, each box in C order, one after the other,
 * in memory from `into`. What a surface or a label entry is made of, with id 1, is the same as
 * from the labels, in a quarter of their bytes for uint32: a segment with far parts has a box of
 * tens of MiB.
 */
export function regionMasks(task: VersionRegionTask, ids: readonly number[], into: LabelsInto): Uint8Array {
  return readBoxes(task, into, 'uint8', ids) as Uint8Array;
}

/** One box of the task's version into `data`: its labels, or with `id`, 1 where they are `id` and 0 elsewhere. */
function readBox(task: VersionRegionTask, box: VoxelBox, data: LabelArray, id = -1): void {
  const { volume } = task;
  const [z0, y0, x0] = box.from;
  const [dz, dy, dx] = [box.to[0] - z0, box.to[1] - y0, box.to[2] - x0];
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
        if (id < 0) for (; x < end; x++) data[at + x] = held[start + x]!;
        else for (; x < end; x++) data[at + x] = held[start + x] === id ? 1 : 0;
      }
    }
  for (let k = task.later.length - 1; k >= 0; k--) {
    const { index, before, box: written } = task.later[k]!;
    if (written && !meets(written, box.from, box.to)) continue;
    for (let j = 0; j < index.length; j++) {
      const i = index[j]!;
      const x = (i % nx) - x0;
      const y = (Math.floor(i / nx) % ny) - y0;
      const z = Math.floor(i / (nx * ny)) - z0;
      const value = id < 0 ? before[j]! : Number(before[j] === id);
      if (z >= 0 && z < dz && y >= 0 && y < dy && x >= 0 && x < dx) data[(z * dy + y) * dx + x] = value;
    }
  }
}
