/**
 * @module volume-task
 * A remote level read on a worker thread: zarrita decodes the chunks (zstd, blosc and lz4 are
 * WebAssembly that runs to the end once called) and copies them into the selection there, so the
 * host's event loop only moves bytes. The thread has no network and no cache of its own: every
 * key zarrita asks for goes back on the task's port to the host, which reads it through the
 * remote store (its limits, its address rules and its cache) and answers with the bytes.
 */
import type { MessagePort } from 'node:worker_threads';
import type { RangeQuery } from '@zarrita/storage';

/** Read the selection of the array at `path` (Zarr `format` 2 or 3) of the store behind `port`. */
export interface RemoteVolumeTask {
  op: 'remoteVolume';
  format: 2 | 3;
  /** The level array's absolute path in the image's store (`/0`). */
  path: string;
  /** Per axis: an index (a time step or channel chosen) or null (the whole axis). */
  selection: (number | null)[];
  port: MessagePort;
}

/** What a thread answers: the selection's shape and its values, in shared memory, with their finite least and greatest (none: undefined). */
export interface RemoteVolumeChunk {
  shape: number[];
  data: ArrayBufferView;
  /** Scanned on the thread, so the host's event loop does not scan a whole level for it. */
  valueRange?: [number, number];
}

/** Asked by the thread on the port: the bytes of `key` (a range of them when given). */
export interface StoreAsk {
  id: number;
  key: string;
  range?: RangeQuery;
}

/** Answered by the host: the bytes (undefined: no such key), or why they could not be read. */
export interface StoreAnswer {
  id: number;
  bytes?: Uint8Array;
  error?: string;
}

/** Runs a read on a thread; `transfer` holds the task's port. */
export type RemoteVolumeRunner = (task: RemoteVolumeTask, signal?: AbortSignal) => Promise<RemoteVolumeChunk>;
