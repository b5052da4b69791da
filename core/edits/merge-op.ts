/**
 * @module merge-op
 * A merge: every voxel of each listed segment becomes the first one's. Only the chunks the
 * other segments lie in are looked at. Every listed id must be present in the layer.
 */
import type { ChangedSegments, MergeEdit } from '../wire/edit-types.ts';
import { invalid } from './check-edit.ts';
import type { LabelVolume } from './label-volume.ts';
import { ChangeList, type EditChanges } from './voxel-changes.ts';

/** What an op found: its changes and the segments it changed and made. */
export interface OpOutcome {
  changes: EditChanges;
  segments: ChangedSegments;
}

export function mergeOp(volume: LabelVolume, edit: MergeEdit): OpOutcome {
  edit.segments.forEach((id, i) => {
    if (volume.count(id) === 0) throw invalid(`segments[${i}]`, `segment ${id} is not present in the layer`);
  });
  const [into, ...others] = edit.segments;
  const chunks = new Set(others.flatMap((id) => volume.chunksOf(id)));
  const list = new ChangeList();
  volume.forEachOf([...chunks].sort((a, b) => a - b), others, (i, value) => list.add(i, value, into!));
  return { changes: list.done(volume.shape), segments: { changed: [...edit.segments], new: [] } };
}
