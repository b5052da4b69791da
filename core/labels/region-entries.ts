/**
 * @module region-entries
 * Changed segments' label entries found in boxes of an edited version, on an encode thread: the
 * boxes are read as a region read reads them (edits/version-region.ts), into memory the thread
 * keeps from one task to the next (edits/kept-labels.ts), and only the entries (a few numbers
 * each) go back. The event loop neither scans the voxels nor is handed them.
 */
import { regionsOf, regionVoxels, type VersionRegionTask } from '../edits/version-region.ts';
import { keptLabels } from '../edits/kept-labels.ts';
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

/** The entries of a {@link RegionEntriesTask}'s segments, in its order. */
export function regionEntries(task: RegionEntriesTask): (IndexEntry | null)[] {
  const regions = regionsOf(task.region, regionVoxels(task.region, keptLabels));
  let next = 0;
  return task.parts.map(({ id, boxes }) => entryInParts(regions.slice(next, (next += boxes)), id));
}
