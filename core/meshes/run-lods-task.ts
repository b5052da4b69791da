/**
 * @module run-lods-task
 * What an encode thread does with a `meshLods` task: the surface made (a labels segment's, in
 * voxel coordinates) or taken (a mesh's), then its levels built; and with an `assembleLevel`
 * task: a level of level sets as one mesh.
 */
import { labelSource, meshSource } from './lod-sources.ts';
import type { AssembleLevelTask, MeshLodsTask } from './lod-tasks.ts';
import { assembleLevel } from './assemble-level.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { buildSegmentLods, type SegmentLods } from './segment-lods.ts';

export function runLodsTask(task: MeshLodsTask): Promise<SegmentLods> {
  const { source } = task;
  return buildSegmentLods(source.kind === 'labels' ? labelSource(source.volume, source.id, source.box) : meshSource(source.mesh));
}

export function runAssembleTask(task: AssembleLevelTask): Promise<StoredResult> {
  return assembleLevel(task.parts);
}
