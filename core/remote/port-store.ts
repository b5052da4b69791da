/**
 * @module port-store
 * The thread's side of a remote read: zarrita's store, each key asked of the host on the task's
 * port and answered there (volume-task.ts), and the read itself, with the values' range.
 */
import type { AbsolutePath, AsyncReadable, RangeQuery } from '@zarrita/storage';
import * as zarr from 'zarrita';
import { valueRange } from '../envelope/value-range.ts';
import type { RemoteVolumeChunk, RemoteVolumeTask, StoreAnswer, StoreAsk } from './volume-task.ts';

class PortStore implements AsyncReadable {
  #next = 0;
  readonly #waiting = new Map<number, { resolve: (bytes: Uint8Array | undefined) => void; reject: (error: Error) => void }>();

  constructor(readonly port: RemoteVolumeTask['port']) {
    port.on('message', (answer: StoreAnswer) => {
      const waiting = this.#waiting.get(answer.id);
      if (!waiting) return;
      this.#waiting.delete(answer.id);
      if (answer.error !== undefined) waiting.reject(new Error(answer.error));
      // Shared bytes are the host's cache's own: zarrita's codecs get a copy they may change.
      else waiting.resolve(answer.bytes?.buffer instanceof SharedArrayBuffer ? answer.bytes.slice() : answer.bytes);
    });
  }

  #ask(key: AbsolutePath, range?: RangeQuery): Promise<Uint8Array | undefined> {
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      this.port.postMessage({ id, key, ...(range ? { range } : {}) } satisfies StoreAsk);
    });
  }

  get(key: AbsolutePath): Promise<Uint8Array | undefined> {
    return this.#ask(key);
  }

  getRange(key: AbsolutePath, range: RangeQuery): Promise<Uint8Array | undefined> {
    return this.#ask(key, range);
  }
}

/** Reads the task's selection through the host, into shared memory. */
export async function readRemoteVolumeTask(task: RemoteVolumeTask): Promise<RemoteVolumeChunk> {
  const store = new PortStore(task.port);
  try {
    const location = zarr.root(store).resolve(task.path as AbsolutePath);
    const array = task.format === 3 ? await zarr.open.v3(location, { kind: 'array' }) : await zarr.open.v2(location, { kind: 'array', attrs: false });
    const chunk = await zarr.get(array as zarr.Array<zarr.NumberDataType, PortStore>, task.selection, { useSharedArrayBuffer: true });
    const data = chunk.data as ArrayBufferView & ArrayLike<number>;
    return { shape: chunk.shape, data, valueRange: valueRange(data) };
  } finally {
    task.port.close();
  }
}
