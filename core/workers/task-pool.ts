/**
 * @module task-pool
 * The one way to run a task on a worker pool: the task's kind names the worker export that
 * runs it and the type its run resolves to, so a caller passes the task alone and gets its
 * result typed, with no export name to keep in step and no cast.
 */
import type { MessagePort } from 'node:worker_threads';
import type Tinypool from 'tinypool';
import type { DeliveryTaskRunner } from '../delivery/delivery-tasks.ts';
import type { PyramidRunner } from '../pyramid/volume-pyramids.ts';
import type { PictureRunner } from '../thumbnails/room-picture.ts';
import type { MeshLodsRunner } from '../meshes/lod-tasks.ts';
import type { RemoteVolumeRunner } from '../remote/volume-task.ts';
import type { VersionVoxelsRunner, VersionVoxelsTask } from '../edits/version-voxels.ts';
import type { RegionEntriesRunner, RegionEntriesTask } from '../edits/version-region.ts';
import type { TaskKind, TaskResults, WorkerTask } from './protocol.ts';

/** The export of the worker entry (task-worker.ts) that runs each kind of task. */
export const TASK_EXPORTS = {
  invoke: 'invoke',
  json: 'json',
  shape: 'shape',
  pack: 'pack',
  packFile: 'packFileTask',
  loadStatic: 'loadStatic',
  hash: 'hash',
  parseFile: 'parseFileTask',
  parseImport: 'parseImport',
  pyramid: 'pyramid',
  labelIndex: 'labelIndex',
  surface: 'surface',
  meshLods: 'meshLods',
  assembleLevel: 'assembleLevel',
  roomPicture: 'roomPicture',
  remoteVolume: 'remoteVolume',
  labelsVersion: 'labelsVersion',
  labelsEntries: 'labelsEntries',
  warmEditing: 'warmEditing',
} as const satisfies Record<TaskKind, string>;

export interface TaskRunOptions {
  /** Moved to the worker thread rather than copied (the sender must not use them again). */
  transferList?: (MessagePort | ArrayBuffer)[];
  /** Aborting it ends the run (tinypool terminates the thread running it). */
  signal?: AbortSignal;
}

/** Runs `task` on `pool`, resolving to what the worker answers for its kind. */
export function runTask<T extends WorkerTask>(pool: Tinypool, task: T, options: TaskRunOptions = {}): Promise<TaskResults[T['op']]> {
  const { transferList, signal } = options;
  // Tinypool takes the DOM's idea of a transferable; Node's MessagePort and ArrayBuffer are ones.
  return pool.run(task, {
    name: TASK_EXPORTS[task.op],
    ...(transferList ? { transferList: transferList as never } : {}),
    ...(signal ? { signal } : {}),
  }) as Promise<TaskResults[T['op']]>;
}

/** The encode pool as the delivery variant cache sees it: its thread count and a typed run. */
export function deliveryTaskRunner(pool: Tinypool): DeliveryTaskRunner {
  return { threads: pool.options.maxThreads, run: (task) => runTask(pool, task) };
}

/** The encode pool as the pyramid cache sees it: the levels of a volume made on a thread. */
export function pyramidRunner(pool: Tinypool): PyramidRunner {
  return (volume) => runTask(pool, { op: 'pyramid', volume });
}

/** The encode pool as room pictures see it: a PNG drawn on a thread. */
export function pictureRunner(pool: Tinypool): PictureRunner {
  return (layers, ask) => runTask(pool, { op: 'roomPicture', layers, ask });
}

/** The encode pool as the level-set cache sees it: a surface's levels of detail built on a thread. */
export function meshLodsRunner(pool: Tinypool): MeshLodsRunner {
  return { build: (task) => runTask(pool, task, task.port ? { transferList: [task.port] } : {}), assemble: (task) => runTask(pool, task) };
}

/** The encode pool as remote reads see it: a level's chunks decoded on a thread, its port moved there. */
export function remoteVolumeRunner(pool: Tinypool): RemoteVolumeRunner {
  return (task, signal) => runTask(pool, task, { transferList: [task.port], ...(signal ? { signal } : {}) });
}

/**
 * The encode pool as labels editing sees it: an edited layer's version made whole, or its changed
 * segments' label entries found in boxes, on a thread; and every thread readied for that work
 * (one warm-up task a thread, sent together so that each starts a thread of its own while the
 * others are busy).
 */
export function editingRunners(pool: Tinypool): { assemble: VersionVoxelsRunner & RegionEntriesRunner; warmThreads: () => Promise<void> } {
  return {
    assemble: <T extends VersionVoxelsTask | RegionEntriesTask>(task: T) => runTask(pool, task),
    async warmThreads() {
      await Promise.all(Array.from({ length: pool.options.maxThreads }, () => runTask(pool, { op: 'warmEditing' })));
    },
  };
}
