/**
 * @module run-lods-task
 * What an encode thread does with a `meshLods` task: the surface's triangles counted, and the
 * build refused when it would hold more memory than the task allows; else the surface made (a
 * labels segment's, in voxel coordinates) or taken (a mesh's), then its levels built and the id
 * of its kept form worked out; and with an `assembleLevel`
 * task: a level of level sets as one mesh.
 */
import { labelSource, meshSource } from './lod-sources.ts';
import type { AssembleLevelTask, BuiltLevelSet, MeshLodsTask } from './lod-tasks.ts';
import { assembleLevel } from './assemble-level.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { buildSegmentLods } from './segment-lods.ts';
import { computeResultId } from '../results/result-id.ts';
import { keptForm } from './kept-level-sets.ts';
import { buildBytes } from './build-bytes.ts';
import { segmentFaces } from '../labels/segment-faces.ts';
import { spatialShape } from '../labels/label-index.ts';

export async function runLodsTask(task: MeshLodsTask): Promise<BuiltLevelSet> {
  const { source, maxBytes } = task;
  // Counted before anything is made, so a build the host cannot hold is refused at once.
  const triangles =
    source.kind === 'labels' ? 2 * segmentFaces(source.volume.data, spatialShape(source.volume.shape), source.id, source.box) : source.mesh.indices.length / 3;
  const bytes = buildBytes(triangles);
  if (maxBytes !== undefined && bytes > maxBytes) return { refused: { triangles, bytes, maxBytes } };
  const lods = await buildSegmentLods(source.kind === 'labels' ? labelSource(source.volume, source.id, source.box, triangles) : meshSource(source.mesh));
  // Hashed here, off the host's event loop, for wherever the set is kept.
  return { lods, keptId: computeResultId(keptForm(lods.packed)) };
}

export function runAssembleTask(task: AssembleLevelTask): Promise<StoredResult> {
  return assembleLevel(task.parts);
}
