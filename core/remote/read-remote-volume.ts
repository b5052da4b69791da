/**
 * @module read-remote-volume
 * One level of a remote image read as a volume result: zarrita reads only the chunks (or the
 * shard ranges) the selection covers, into shared memory, on a worker thread that asks this
 * thread for each key (volume-task.ts), read here through the remote store; one time step or
 * channel when the specimen names it, else every axis the image has. Which level a
 * reader gets is chosen here too: the finest within a byte budget, or the finest whose every
 * spatial axis is at most a `max_dim`. A chunk that does not decode is the remote's fault: a
 * 502 naming the remote and the level.
 */
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import type { AbsolutePath } from '@zarrita/storage';
import { TYPED_ARRAYS } from '../envelope/dtypes.ts';
import { createHostError, isHostError } from '../errors.ts';
import { normalizeResult } from '../results/normalize-result.ts';
import type { StoredResult } from '../results/stored-result.ts';
import type { RemoteImage, RemoteLevel } from './remote-image.ts';
import type { RemoteZarrStore } from './remote-zarr-store.ts';
import type { RemoteVolumeChunk, RemoteVolumeRunner, StoreAnswer, StoreAsk } from './volume-task.ts';

/** What of an image a specimen shows: a time step and a channel (null: all of them). */
export interface RemoteSelection {
  t: number | null;
  channel: number | null;
}

/** The axes a selection leaves (`tczyx` with a channel chosen: `tzyx`). */
export function selectedAxes(image: Pick<RemoteImage, 'axes'>, selection: RemoteSelection): string {
  return [...image.axes].filter((axis) => !(axis === 't' && selection.t !== null) && !(axis === 'c' && selection.channel !== null)).join('');
}

/** A level's shape after the selection. */
export function selectedShape(image: Pick<RemoteImage, 'axes'>, level: Pick<RemoteLevel, 'shape'>, selection: RemoteSelection): number[] {
  return level.shape.filter((_, i) => !(image.axes[i] === 't' && selection.t !== null) && !(image.axes[i] === 'c' && selection.channel !== null));
}

/** Bytes a level holds after the selection. */
export function levelBytes(image: RemoteImage, level: RemoteLevel, selection: RemoteSelection): number {
  return selectedShape(image, level, selection).reduce((a, b) => a * b, TYPED_ARRAYS[image.dtype].BYTES_PER_ELEMENT);
}

/** The finest level at or below `from` within `maxBytes`; the coarsest when none is. */
export function levelWithin(image: RemoteImage, from: number, selection: RemoteSelection, maxBytes: number): number {
  for (let i = from; i < image.levels.length; i++) if (levelBytes(image, image.levels[i]!, selection) <= maxBytes) return i;
  return image.levels.length - 1;
}

/** The finest level at or below `from` whose spatial axes are all at most `maxDim`; the coarsest when none is. */
export function levelForMaxDim(image: RemoteImage, from: number, maxDim: number): number {
  for (let i = from; i < image.levels.length; i++) if (image.levels[i]!.shape.slice(-3).every((n) => n <= maxDim)) return i;
  return image.levels.length - 1;
}

/** Per axis of the level: the selection's index along t and c, the whole axis elsewhere. */
function selectionOf(image: RemoteImage, selection: RemoteSelection): (number | null)[] {
  return [...image.axes].map((axis) => (axis === 't' ? selection.t : axis === 'c' ? selection.channel : null));
}

/**
 * Answers the thread's asks on `port` from `store`. A read that fails is told to the thread (its
 * read then fails) and kept: the host error it was (a 502 naming the remote) is what the read
 * throws, not the thread's word for it.
 */
function serveStore(port: MessagePort, store: RemoteZarrStore, signal: AbortSignal | undefined): { failure: () => unknown } {
  let failure: unknown;
  port.on('message', (ask: StoreAsk) => {
    const key = ask.key as AbsolutePath;
    const reading = ask.range ? store.getRange(key, ask.range, { signal }) : store.get(key, { signal });
    reading.then(
      (bytes) => {
        // Bytes in shared memory (as a remote's answers are read) go as they are: the thread
        // copies them itself, off this thread. Others, a copy of their own, moved: the
        // store's bytes may be a view of a larger buffer it keeps.
        if (!bytes || bytes.buffer instanceof SharedArrayBuffer) return port.postMessage({ id: ask.id, bytes } satisfies StoreAnswer);
        const own = bytes.slice();
        port.postMessage({ id: ask.id, bytes: own } satisfies StoreAnswer, [own.buffer]);
      },
      (error: unknown) => {
        failure ??= error;
        port.postMessage({ id: ask.id, error: error instanceof Error ? error.message : String(error) } satisfies StoreAnswer);
      },
    );
  });
  return { failure: () => failure };
}

/** Level `index` of `image`, with the selection, as a checked volume result, read by `run` on a worker thread. */
export async function readRemoteVolume(
  image: RemoteImage,
  index: number,
  selection: RemoteSelection,
  run: RemoteVolumeRunner,
  signal?: AbortSignal,
): Promise<StoredResult> {
  const level = image.levels[index]!;
  const { port1, port2 } = new MessageChannel();
  const served = serveStore(port1, image.store, signal);
  let chunk: RemoteVolumeChunk;
  try {
    chunk = await run({ op: 'remoteVolume', format: image.zarrFormat, path: level.array.path, selection: selectionOf(image, selection), port: port2 }, signal);
  } catch (error) {
    const cause = served.failure() ?? error;
    if (isHostError(cause)) throw cause;
    const why = `level ${level.path} does not decode: ${cause instanceof Error ? cause.message : String(cause)}`;
    throw createHostError('SPC_ERR_REMOTE_UNAVAILABLE', image.target.remote.name, `${image.target.path}/${level.path}`, why);
  } finally {
    port1.close();
  }
  const axes = selectedAxes(image, selection);
  const volume: Record<string, unknown> = { type: 'volume', shape: chunk.shape, dtype: image.dtype, data: chunk.data };
  // Spacing and origin are spatial: the last three of the level's scale and translation.
  if (level.scale) volume.spacing = level.scale.slice(-3);
  if (level.translation) volume.origin = level.translation.slice(-3);
  if (axes !== 'zyx') volume.axes = axes;
  const tAxis = image.axes.indexOf('t');
  if (axes.includes('t') && level.scale && tAxis >= 0) volume.time_step = level.scale[tAxis];
  if (image.labels) volume.labels = true;
  // The range was scanned on the thread that read the level.
  return normalizeResult(volume, 'volume', chunk.valueRange ?? null);
}
