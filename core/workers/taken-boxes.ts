/**
 * @module taken-boxes
 * Boxes an edited version's layer took in its turn, read on an encode thread (as
 * edits/version-region.ts reads them) into memory the thread keeps from one task to the next
 * (edits/kept-labels.ts): the box of a segment whose surface the thread then builds, and the
 * boxes of changed segments whose label entries it finds, answering only the entries (a few
 * numbers each). The event loop neither scans the voxels nor is handed them.
 */
import { regionMask, regionsOf, regionVoxels, type RegionEntriesTask, type VersionRegionTask, type VoxelRegion } from '../edits/version-region.ts';
import { keptLabels } from '../edits/kept-labels.ts';
import type { IndexEntry } from '../labels/derived-label-index.ts';
import { entryInParts } from '../labels/segment-regions.ts';

/** The boxes `task` took, read into the thread's kept memory. */
function readKept(task: VersionRegionTask): VoxelRegion[] {
  return regionsOf(task, regionVoxels(task, keptLabels));
}

/** The entries of a {@link RegionEntriesTask}'s segments, in its order. */
export function regionEntries(task: RegionEntriesTask): (IndexEntry | null)[] {
  const regions = readKept(task.region);
  let next = 0;
  return task.parts.map(({ id, boxes }) => entryInParts(regions.slice(next, (next += boxes)), id));
}

/** Where segment `id` lies in the one box a build's task took: 1 at its voxels (see regionMask). */
export function readTaken(task: VersionRegionTask, id: number): VoxelRegion {
  const { from, to } = task.boxes[0]!;
  return { data: regionMask(task, id, keptLabels), from, shape: [to[0] - from[0], to[1] - from[1], to[2] - from[2]] };
}
