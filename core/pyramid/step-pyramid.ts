/**
 * @module step-pyramid
 * The OME-Zarr pyramid of a volume with time or channels: space is halved, never time or
 * channels, and each level is made one 3-D block (a step of a channel) at a time with the
 * 3-D pyramid (volume-pyramid.ts), so a level of a 722 MB field takes the fast 3-D kernel
 * and no more memory than the level itself. A volume of space only takes the 3-D pyramid as
 * it is. Runs on the encode worker thread.
 */
import { blockOffset, hasSteps, stepLayout } from '../results/volume-axes.ts';
import type { VolumeResult } from '../sdk/result-types.ts';
import { buildPyramid, halveVolume, levelsBelow, sharedSamples, type StoredVolume } from './volume-pyramid.ts';

/** One 3-D block of a level as a volume of its own (a view, no copy). */
function blockOf(level: StoredVolume, t: number, c: number): StoredVolume {
  const layout = stepLayout(level);
  const start = blockOffset(layout, t, c);
  const data = level.data.subarray(start, start + layout.voxels);
  // A segmentation's blocks keep their ids (picked by mode, never averaged).
  return { type: 'volume', shape: [...layout.space], dtype: level.dtype, data, ...(level.labels ? { labels: true } : {}) } as StoredVolume;
}

/** The level below `level`: every block halved in space, laid out as the level is. */
function halveSteps(level: StoredVolume): StoredVolume {
  const layout = stepLayout(level);
  let data: VolumeResult['data'] | null = null;
  let space: number[] = layout.space;
  for (let t = 0; t < layout.steps; t++) {
    for (let c = 0; c < layout.channels; c++) {
      const half = halveVolume(blockOf(level, t, c));
      space = half.shape;
      const voxels = half.data.length;
      data ??= sharedSamples(level.dtype, layout.steps * layout.channels * voxels);
      (data as Float64Array).set(half.data as unknown as Float64Array, (t * layout.channels + c) * voxels);
    }
  }
  const shape = [...level.shape.slice(0, level.shape.length - 3), ...space];
  const next = { type: 'volume', shape, dtype: level.dtype, data: data!, axes: level.axes, ...(level.labels ? { labels: true } : {}) } as StoredVolume;
  // Spacing is spatial: each of its three values doubles where its axis was halved.
  if (level.spacing) next.spacing = level.spacing.map((s, axis) => s * (layout.space[axis]! > 1 ? 2 : 1));
  return next;
}

/** Every level below level 0 of `volume` (empty when it is already small). */
export function buildStepPyramid(volume: StoredVolume): StoredVolume[] {
  if (!hasSteps(volume)) return buildPyramid(volume);
  return levelsBelow(volume, (level) => Math.max(1, ...stepLayout(level).space), halveSteps);
}
