/**
 * @module lod-tasks
 * The encode-thread task that builds one surface's levels of detail, and how the level-set
 * cache reaches the thread: the worker pool implements the runner (workers/task-pool.ts), so
 * the transport depends on this folder's shapes and never the other way round.
 */
import type { MessagePort } from 'node:worker_threads';
import type { StoredResult, StoredVolume } from '../results/stored-result.ts';
import type { SegmentLods } from './level-set.ts';
import type { LevelPart } from './assemble-level.ts';
import type { LabelRegion, TakenBox } from './region-labels.ts';

/**
 * What a level set is built from: a segment of a labels volume (its box and its surface's
 * triangles from the label index, which sizes the surface's arrays once), the same read from a
 * region of the volume holding the segment's box (an edited version not made whole: the
 * transform is the volume's; the region given, or what the building thread reads it from), or
 * a mesh.
 */
export type LodTaskSource =
  | { kind: 'labels'; volume: StoredVolume; id: number; box: number[]; triangles: number }
  | { kind: 'region'; region: LabelRegion | TakenBox; id: number; box: number[]; triangles: number; transform: number[] }
  | { kind: 'mesh'; mesh: StoredResult & { type: 'mesh' } };

export interface MeshLodsTask {
  op: 'meshLods';
  source: LodTaskSource;
  /** Where the set's coarsest level is posted as soon as it is encoded, before the finer levels (moved to the thread). */
  port?: MessagePort;
}

/** One level of level sets assembled into one mesh (assemble-level.ts). */
export interface AssembleLevelTask {
  op: 'assembleLevel';
  parts: LevelPart[];
}

/** A set as built: the set, and the result id of its kept form (worked out on the thread that built it). */
export interface BuiltLevelSet {
  lods: SegmentLods;
  keptId: string;
}

/** Runs the level-set tasks on an encode thread. */
export interface MeshLodsRunner {
  build(task: MeshLodsTask): Promise<BuiltLevelSet>;
  assemble(task: AssembleLevelTask): Promise<StoredResult>;
}
