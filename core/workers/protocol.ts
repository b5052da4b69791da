/**
 * @module protocol
 * Messages between the host and its worker threads. Tasks go through tinypool; progress and
 * cancellation travel on a MessagePort made per run (transferred with the task).
 */
import type { ImportOutcome, ParseImportTask } from '../annotations/parse-import.ts';
import type { MessagePort } from 'node:worker_threads';
import type { CallOutcome, PluginCall } from '../results/call-plugin-function.ts';
import type { StoredResult } from '../results/stored-result.ts';
import type { DeliveryTaskResults, LabelIndexTask, LoadStaticTask, PackFileTask, PackTask, ShapeTask, SurfaceTask } from '../delivery/delivery-tasks.ts';
import type { DecodedSize } from '../formats/decoded-size.ts';
import type { VolumeGeometryHint } from '../formats/npy/parse-npy.ts';
import type { PictureAsk } from '../thumbnails/room-picture.ts';
import type { AssembleLevelTask, BuiltLevelSet, MeshLodsTask } from '../meshes/lod-tasks.ts';
import type { PictureLayer } from '../thumbnails/scene-picture.ts';
import type { RemoteVolumeChunk, RemoteVolumeTask } from '../remote/volume-task.ts';
import type { VersionVoxelsTask } from '../edits/version-voxels.ts';
import type { RegionEntriesTask } from '../edits/version-region.ts';
import type { IndexEntry } from '../labels/derived-label-index.ts';
import type { LabelArray } from '../edits/label-volume.ts';

/** Run one plugin export, its injected slots where callPluginFunction takes them. */
export interface InvokeTask extends Pick<PluginCall, 'returnType' | 'reporterIndex' | 'signalIndex'> {
  op: 'invoke';
  modulePath: string;
  /** Changes when the bundle changes, so a reload imports the new code. */
  version: string;
  exportName: string;
  functionName: string;
  /** Positional arguments; injected slots hold null and are filled in the worker. */
  args: unknown[];
  port: MessagePort;
  /** Int32 flag set to 1 by the host on cancel; read by the reporter between steps. */
  cancelFlag: SharedArrayBuffer;
}

/** Encode a stored result as the JSON typed result. */
export interface JsonTask {
  op: 'json';
  result: StoredResult;
}

/** Parse an uploaded (or static input) file, unless it would decode past `maxDecodedBytes`. */
export interface ParseFileTask {
  op: 'parseFile';
  /** The file; in shared memory or transferred, never copied on the way. */
  bytes: Uint8Array;
  fileName: string;
  geometry: VolumeGeometryHint;
  maxDecodedBytes: number;
}

/** How a parse ended: a refusal is a value, so its kind survives the trip back. */
export type ParseFileOutcome =
  | { ok: true; result: StoredResult }
  | { ok: false; kind: 'format'; message: string }
  | { ok: false; kind: 'size'; size: DecodedSize; limit: number };

/** Work out a stored result's id (its content hash). */
export interface HashTask {
  op: 'hash';
  result: StoredResult;
}

/** Make the levels below level 0 of a volume's OME-Zarr pyramid. */
export interface PyramidTask {
  op: 'pyramid';
  volume: StoredResult & { type: 'volume' };
}

/** Draw a PNG of what a room shows (thumbnails/room-picture.ts). */
export interface RoomPictureTask {
  op: 'roomPicture';
  layers: PictureLayer[];
  ask: PictureAsk;
}

/** Ready an encode thread for an edited layer's work (workers/warm-editing.ts). */
export interface WarmEditingTask {
  op: 'warmEditing';
}

export type WorkerTask =
  | ParseImportTask
  | InvokeTask
  | JsonTask
  | ShapeTask
  | PackTask
  | PackFileTask
  | LoadStaticTask
  | HashTask
  | ParseFileTask
  | PyramidTask
  | LabelIndexTask
  | SurfaceTask
  | MeshLodsTask
  | AssembleLevelTask
  | RoomPictureTask
  | RemoteVolumeTask
  | VersionVoxelsTask
  | RegionEntriesTask
  | WarmEditingTask;

/** A task kind's name, the `op` it is tagged with. */
export type TaskKind = WorkerTask['op'];

/** The task of kind `K`. */
export type TaskOf<K extends TaskKind> = Extract<WorkerTask, { op: K }>;

/** What the worker answers to each kind of task (a run of that kind resolves to it). */
export interface TaskResults extends DeliveryTaskResults {
  invoke: InvokeOutcome;
  /** The JSON text's UTF-8 bytes. */
  json: Uint8Array;
  hash: string;
  parseFile: ParseFileOutcome;
  parseImport: ImportOutcome;
  /** The levels below level 0, largest first. */
  pyramid: (StoredResult & { type: 'volume' })[];
  /** The PNG's bytes. */
  roomPicture: Uint8Array;
  /** A surface's levels of detail, their bytes in shared memory. */
  meshLods: BuiltLevelSet;
  /** A level of level sets as one mesh. */
  assembleLevel: StoredResult;
  /** A remote level's selection, decoded into shared memory. */
  remoteVolume: RemoteVolumeChunk;
  /** An edited labels layer's version, its voxels in shared memory. */
  labelsVersion: LabelArray;
  /** Changed segments' entries found in boxes of an edited version, one a segment (null: none of its voxels). */
  labelsEntries: (IndexEntry | null)[];
  /** The levels of the small surface built. */
  warmEditing: number;
}

/** Sent by the worker on the task port. */
export type WorkerPortMessage =
  /** Progress reports, batched (results/progress-batch.ts), oldest first. */
  | { type: 'progress'; reports: { text: string; fraction: number | null; ts: number }[] }
  /** The bundle is loaded and the function is being called (a run's length is measured from here). */
  | { type: 'running' }
  /**
   * Last message of a run: every progress message before it has been delivered. `ms`: how long
   * the call took as its thread measured it (absent when it never started), the run's length
   * for the short lanes, free of the host's delay in reading these messages.
   */
  | { type: 'end'; ms?: number };

/** Sent by the host on the task port. */
export type HostPortMessage = { type: 'cancel' };

/** How an invoke task ended (a failure is a value, so thrown plugin errors never look like crashes). */
export type InvokeOutcome = CallOutcome;
