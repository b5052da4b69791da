/**
 * @module region-entries
 * Changed segments' label entries found in boxes of an edited version, on an encode thread: the
 * boxes are read as a region read reads them (edits/version-region.ts), into memory the thread
 * keeps from one task to the next rather than memory new to the process (slow to touch on first
 * use), and only the entries (a few numbers each) go back. The event loop neither scans the
 * voxels nor is handed them.
 */
import { regionsOf, regionVoxels, type VersionRegionTask } from '../edits/version-region.ts';
import type { LabelArray, LabelDtype } from '../edits/label-volume.ts';
import type { IndexEntry } from './derived-label-index.ts';
import { entryInParts } from './segment-regions.ts';

/** Find segments' entries in boxes of a version: each part is one segment and how many of the boxes, in order, are its. */
export interface RegionEntriesTask {
  op: 'labelsEntries';
  region: VersionRegionTask;
  parts: { id: number; boxes: number }[];
}

/** Runs a {@link RegionEntriesTask} off the event loop (the encode pool): an entry a part, null for a segment no box holds. */
export type RegionEntriesRunner = (task: RegionEntriesTask) => Promise<(IndexEntry | null)[]>;

/** The most a thread keeps between tasks; a larger read takes memory of its own, let go once read. */
const KEPT_BYTES = 64 * 2 ** 20;
let kept = new ArrayBuffer(0);

const ARRAYS = { uint8: Uint8Array, uint16: Uint16Array, uint32: Uint32Array } as const;

/** `length` labels of `dtype` over the thread's kept memory, grown as asked up to {@link KEPT_BYTES}. */
function keptLabels(dtype: LabelDtype, length: number): LabelArray {
  const bytes = length * ARRAYS[dtype].BYTES_PER_ELEMENT;
  if (bytes > KEPT_BYTES) return new ARRAYS[dtype](length);
  if (kept.byteLength < bytes) kept = new ArrayBuffer(Math.min(KEPT_BYTES, Math.max(bytes, kept.byteLength * 2)));
  return new ARRAYS[dtype](kept, 0, length);
}

/** The entries of a {@link RegionEntriesTask}'s segments, in its order. */
export function regionEntries(task: RegionEntriesTask): (IndexEntry | null)[] {
  const regions = regionsOf(task.region, regionVoxels(task.region, keptLabels));
  let next = 0;
  return task.parts.map(({ id, boxes }) => entryInParts(regions.slice(next, (next += boxes)), id));
}
