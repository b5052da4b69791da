/**
 * @module read-remote-volume
 * One level of a remote image read as a volume result: zarrita reads only the chunks (or the
 * shard ranges) the selection covers, through the remote store, into shared memory; one time
 * step or channel when the specimen names it, else every axis the image has. Which level a
 * reader gets is chosen here too: the finest within a byte budget, or the finest whose every
 * spatial axis is at most a `max_dim`. A chunk that does not decode is the remote's fault: a
 * 502 naming the remote and the level.
 */
import * as zarr from 'zarrita';
import { createHostError, isHostError } from '../errors.ts';
import { normalizeResult } from '../results/normalize-result.ts';
import type { StoredResult } from '../results/stored-result.ts';
import type { RemoteImage, RemoteLevel } from './remote-image.ts';

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
  const item = zarrItemSize(image.dtype);
  return selectedShape(image, level, selection).reduce((a, b) => a * b, item);
}

function zarrItemSize(dtype: string): number {
  return Number(/\d+$/.exec(dtype)?.[0] ?? 8) / 8;
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

/** Level `index` of `image`, with the selection, as a checked volume result. */
export async function readRemoteVolume(image: RemoteImage, index: number, selection: RemoteSelection, signal?: AbortSignal): Promise<StoredResult> {
  const level = image.levels[index]!;
  let chunk: zarr.Chunk<zarr.NumberDataType>;
  try {
    chunk = await zarr.get(level.array, selectionOf(image, selection), { useSharedArrayBuffer: true, ...(signal ? { signal } : {}) });
  } catch (error) {
    if (isHostError(error)) throw error;
    const why = `level ${level.path} does not decode: ${error instanceof Error ? error.message : String(error)}`;
    throw createHostError('SPC_ERR_REMOTE_UNAVAILABLE', image.target.remote.name, `${image.target.path}/${level.path}`, why);
  }
  const axes = selectedAxes(image, selection);
  const space = (values: number[] | null) => (values ? values.slice(-3) : undefined);
  const volume: Record<string, unknown> = { type: 'volume', shape: chunk.shape, dtype: image.dtype, data: chunk.data };
  const spacing = space(level.scale);
  const origin = space(level.translation);
  if (spacing) volume.spacing = spacing;
  if (origin) volume.origin = origin;
  if (axes !== 'zyx') volume.axes = axes;
  const tAxis = image.axes.indexOf('t');
  if (axes.includes('t') && level.scale && tAxis >= 0) volume.time_step = level.scale[tAxis];
  if (image.labels) volume.labels = true;
  return normalizeResult(volume, 'volume');
}
