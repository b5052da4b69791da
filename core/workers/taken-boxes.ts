/**
 * @module taken-boxes
 * Boxes an edited version's layer took in its turn, read on an encode thread (as
 * edits/version-region.ts reads them) into memory the thread keeps from one task to the next
 * (edits/kept-labels.ts): the box of a segment whose surface the thread then builds, and the
 * boxes of changed segments whose label entries it finds, answering only the entries (a few
 * numbers each). The event loop neither scans the voxels nor is handed them.
 */
import { regionMasks, regionsOf, type RegionEntriesTask, type VersionRegionTask, type VoxelRegion } from '../edits/version-region.ts';
import { keptLabels } from '../edits/kept-labels.ts';
import type { IndexEntry } from '../labels/derived-label-index.ts';
import { entryInParts } from '../labels/segment-regions.ts';

/**
 * Where the segments `ids` lie (one a box) in the boxes `task` took, read into the thread's kept
 * memory: 1 at a box's segment's voxels, 0 elsewhere (see regionMasks), so what is made of a
 * box is made for id 1.
 */
function readKept(task: VersionRegionTask, ids: readonly number[]): VoxelRegion[] {
  return regionsOf(task, regionMasks(task, ids, keptLabels));
}

/** The entries of a {@link RegionEntriesTask}'s segments, in its order. */
export function regionEntries(task: RegionEntriesTask): (IndexEntry | null)[] {
  const regions = readKept(task.region, task.parts.flatMap(({ id, boxes }) => Array<number>(boxes).fill(id)));
  let next = 0;
  return task.parts.map(({ boxes }) => entryInParts(regions.slice(next, (next += boxes)), 1));
}

/** Where segment `id` lies in the one box a build's task took (1 at its voxels). */
export function readTaken(task: VersionRegionTask, id: number): VoxelRegion {
  return readKept(task, [id])[0]!;
}
