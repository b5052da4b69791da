/**
 * @module taken-boxes
 * Boxes an edited version's layer took in its turn, read on an encode thread (as
 * edits/version-region.ts reads them) into memory the thread keeps from one task to the next
 * (edits/kept-labels.ts): the box of a segment whose surface the thread then builds, and the
 * boxes of changed segments whose label entries it finds, answering only the entries (a few
 * numbers each). The event loop neither scans the voxels nor is handed them.
 */
import { regionsOf, regionVoxels, type RegionEntriesTask, type VersionRegionTask, type VoxelRegion } from '../edits/version-region.ts';
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

/** The one box a build's task took. */
export function readTaken(task: VersionRegionTask): VoxelRegion {
  return readKept(task)[0]!;
}
