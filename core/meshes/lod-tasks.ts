/**
 * @module lod-tasks
 * The encode-thread task that builds one surface's levels of detail, and how the level-set
 * cache reaches the thread: the worker pool implements the runner (workers/task-pool.ts), so
 * the transport depends on this folder's shapes and never the other way round.
 */
import type { StoredResult } from '../results/stored-result.ts';
import type { SegmentLods } from './level-set.ts';
import type { LevelPart } from './assemble-level.ts';

/** What a level set is built from: a segment of a labels volume (its box from the label index), or a mesh. */
export type LodTaskSource =
  | { kind: 'labels'; volume: StoredResult & { type: 'volume' }; id: number; box: number[] }
  | { kind: 'mesh'; mesh: StoredResult & { type: 'mesh' } };

export interface MeshLodsTask {
  op: 'meshLods';
  source: LodTaskSource;
  /** The most memory the build may hold (build-bytes.ts): a surface that would need more is refused before it is made. */
  maxBytes?: number;
}

/** Why a set was not built: its level-0 triangles, the bytes its build would hold, and the most it may. */
export interface LevelSetRefusal {
  triangles: number;
  bytes: number;
  maxBytes: number;
}

/** One level of level sets assembled into one mesh (assemble-level.ts). */
export interface AssembleLevelTask {
  op: 'assembleLevel';
  parts: LevelPart[];
}

/** A set as built: the set, and the result id of its kept form (worked out on the thread that built it); or why it was refused. */
export type BuiltLevelSet = { lods: SegmentLods; keptId: string } | { refused: LevelSetRefusal };

/** Runs the level-set tasks on an encode thread. */
export interface MeshLodsRunner {
  build(task: MeshLodsTask): Promise<BuiltLevelSet>;
  assemble(task: AssembleLevelTask): Promise<StoredResult>;
}
