/**
 * @module region-labels
 * Labels whose voxels are read a box at a time and never made whole: an edited segmentation's
 * version as named, its voxels not put together. It is a subject of levels of detail as a labels
 * result is: it has a label index (found by whoever names it from the version it was made from
 * and the regions its edits changed), the transform of its voxels, the rooms whose access it
 * follows, and what a thread reads any box from; each segment's level set is built from the box
 * it lies in, read by the thread that builds it.
 */
import type { LabelIndex } from '../labels/label-index.ts';

/** Voxels of a box of a volume: `data` in C order over `shape`, whose first voxel is `from` (z, y, x) of the volume. */
export interface LabelRegion {
  data: Uint8Array | Uint16Array | Uint32Array;
  from: [number, number, number];
  shape: [number, number, number];
}

/**
 * A box of labels taken to be read on the thread that builds from it: what an edited version's
 * layer took in its turn (the chunks the box meets, frozen, and the later edits that wrote in
 * it). Only the worker that runs the build reads it (workers/task-worker.ts).
 */
export interface TakenBox {
  readonly op: 'labelsRegion';
}

export interface RegionLabels {
  /** Told apart from a stored result by this. */
  readonly type: 'regionLabels';
  /** What it is named (its files are tagged and kept by it). */
  readonly id: Promise<string>;
  /** The rooms whose access it follows: whoever may read none of them is told it does not exist. */
  readonly rooms: readonly string[];
  /** From voxel coordinates (x, y, z) into physical units, 3 × 4 row-major. */
  readonly transform: number[];
  /** Its label index, found once. */
  index(client: string): Promise<LabelIndex>;
  /**
   * What an encode thread reads the voxels from `from` to `to` (z, y, x; `to` exclusive) from,
   * taken now: the build of a segment's surface reads its box on its own thread.
   */
  take(from: readonly number[], to: readonly number[]): Promise<TakenBox>;
}

/** What a level set's subject may be: a stored result, or labels read by region. */
export function isRegionLabels(subject: { type: string }): subject is RegionLabels {
  return subject.type === 'regionLabels';
}
