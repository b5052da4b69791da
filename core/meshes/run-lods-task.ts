/**
 * @module run-lods-task
 * What an encode thread does with a `meshLods` task: the surface made (a labels segment's, in
 * voxel coordinates) or taken (a mesh's), then its levels built.
 */
import { labelSource, meshSource } from './lod-sources.ts';
import type { MeshLodsTask } from './lod-tasks.ts';
import { buildSegmentLods, type SegmentLods } from './segment-lods.ts';

export function runLodsTask(task: MeshLodsTask): Promise<SegmentLods> {
  const { source } = task;
  return buildSegmentLods(source.kind === 'labels' ? labelSource(source.volume, source.id, source.box) : meshSource(source.mesh));
}
