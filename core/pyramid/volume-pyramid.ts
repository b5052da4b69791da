/**
 * @module volume-pyramid
 * The multiscale pyramid of a volume for its OME-Zarr store: level 0 is the volume itself;
 * each next level halves every spatial axis (the last three; channel and time axes keep their
 * length) longer than one sample, in the volume's own dtype. An image averages pairs (a lone
 * edge sample stays itself; integer types rounded to the nearest), so a reader checking a
 * level against the mean of its parent agrees within rounding. A segmentation (`labels`)
 * never averages: each sample is the most frequent non-zero id of its block (block-mode.ts),
 * so every value of every level is an id of level 0. Levels stop at the first whose longest
 * spatial axis is at most 64 samples; each is made from the one before it. A 3-D volume is
 * the unit: a caller with time or channel axes may make the levels of each 3-D step alone
 * (`buildPyramid` of a volume viewing that step's samples). Runs on the encode worker thread;
 * levels are shared memory like every stored result.
 */
import { TYPED_ARRAYS } from '../envelope/dtypes.ts';
import { blockMean, blockMeanShape } from './block-mean.ts';
import { blockMode } from './block-mode.ts';
import type { StoredResult } from '../results/stored-result.ts';
import type { VolumeResult } from '../sdk/result-types.ts';

export type StoredVolume = StoredResult & { type: 'volume' };

/** A level is not halved further once its longest spatial axis is at most this. */
export const PYRAMID_MIN_EDGE = 64;

/** How many of the last axes are spatial (OME-Zarr: up to three, always the last). */
function spatialAxes(rank: number): number {
  return Math.min(3, rank);
}

/** The longest spatial axis of a shape. */
function longestSpatial(shape: readonly number[]): number {
  return Math.max(1, ...shape.slice(shape.length - spatialAxes(shape.length)));
}

/** The halving factors of the next level: 2 on spatial axes longer than 1, else 1. */
export function halvingFactors(shape: readonly number[]): number[] {
  const first = shape.length - spatialAxes(shape.length);
  return shape.map((n, axis) => (axis >= first && n > 1 ? 2 : 1));
}

/** The shapes of every level, level 0 first. */
export function pyramidShapes(shape: readonly number[]): number[][] {
  const shapes = [[...shape]];
  while (longestSpatial(shapes.at(-1)!) > PYRAMID_MIN_EDGE) {
    const last = shapes.at(-1)!;
    shapes.push(blockMeanShape(last, halvingFactors(last)));
  }
  return shapes;
}

const INTEGER = new Set(['uint8', 'int8', 'uint16', 'int16', 'uint32', 'int32']);

/** `length` samples of `dtype` in shared memory, as every stored result's. */
export function sharedSamples(dtype: StoredVolume['dtype'], length: number): VolumeResult['data'] {
  const Ctor = TYPED_ARRAYS[dtype] as unknown as { new (buffer: ArrayBufferLike): VolumeResult['data']; BYTES_PER_ELEMENT: number };
  return new Ctor(new SharedArrayBuffer(length * Ctor.BYTES_PER_ELEMENT));
}

/** The level after `volume`: every spatial axis longer than 1 halved (averaged, or ids picked for labels). */
export function halveVolume(volume: StoredVolume): StoredVolume {
  const factors = halvingFactors(volume.shape);
  const shape = blockMeanShape(volume.shape, factors);
  const data = sharedSamples(volume.dtype, shape.reduce((a, b) => a * b, 1));
  if (volume.labels) blockMode(volume.data, volume.shape, factors, data);
  else blockMean(volume.data, volume.shape, factors, data, INTEGER.has(volume.dtype));
  const level = { type: 'volume', shape, dtype: volume.dtype, data, ...(volume.labels ? { labels: true } : {}) } as StoredVolume;
  if (volume.spacing) level.spacing = volume.spacing.map((s, axis) => s * factors[axis]!);
  return level;
}

/** Every level below `volume`, each `halve`d from the one before while its `longest` spatial axis is over PYRAMID_MIN_EDGE. */
export function levelsBelow(volume: StoredVolume, longest: (level: StoredVolume) => number, halve: (level: StoredVolume) => StoredVolume): StoredVolume[] {
  const levels: StoredVolume[] = [];
  let level = volume;
  while (longest(level) > PYRAMID_MIN_EDGE) levels.push((level = halve(level)));
  return levels;
}

/** Every level below level 0 (empty when the volume is already small). */
export function buildPyramid(volume: StoredVolume): StoredVolume[] {
  return levelsBelow(volume, (level) => longestSpatial(level.shape), halveVolume);
}
