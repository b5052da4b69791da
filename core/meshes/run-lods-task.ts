/**
 * @module run-lods-task
 * What an encode thread does with a `meshLods` task: the surface made (a labels segment's, from
 * the whole volume or from a region holding its box, in voxel coordinates, its arrays sized by
 * the triangles the label index counted) or taken (a mesh's), then its levels built (the coarsest
 * posted on the task's port first, when it has one) and the id of its kept form worked out; and with an
 * `assembleLevel` task: a level of level sets as one mesh. (Whether the host can hold the build
 * is decided before the task is sent, from the same count: mesh-lods.ts.)
 */
import { labelSource, meshSource, regionSource } from './lod-sources.ts';
import type { AssembleLevelTask, BuiltLevelSet, LodTaskSource, MeshLodsTask } from './lod-tasks.ts';
import type { LodSource } from './segment-lods.ts';
import { assembleLevel } from './assemble-level.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { buildSegmentLods } from './segment-lods.ts';
import { computeResultId } from '../results/result-id.ts';
import { keptForm } from './kept-level-sets.ts';

function surfaceOf(source: LodTaskSource): LodSource {
  switch (source.kind) {
    case 'labels':
      return labelSource(source.volume, source.id, source.box, source.triangles);
    case 'region': {
      // A taken box is read by the worker before the build (workers/task-worker.ts).
      const { region } = source;
      if ('op' in region) throw new Error('a taken box reaches the build unread');
      return regionSource(region, source.id, source.box, source.triangles, source.transform);
    }
    case 'mesh':
      return meshSource(source.mesh);
  }
}

export async function runLodsTask(task: MeshLodsTask): Promise<BuiltLevelSet> {
  const { source, port } = task;
  let lods;
  try {
    lods = await buildSegmentLods(surfaceOf(source), port ? { onCoarsest: (coarsest) => port.postMessage(coarsest) } : {});
  } finally {
    port?.close();
  }
  // Hashed here, off the host's event loop, for wherever the set is kept.
  return { lods, keptId: computeResultId(keptForm(lods.packed)) };
}

export function runAssembleTask(task: AssembleLevelTask): Promise<StoredResult> {
  return assembleLevel(task.parts);
}
